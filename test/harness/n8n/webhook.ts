/** One HTTP request handed to a webhook node through n8n-core's WebhookContext, then the run it starts. */
import './env';

import { randomUUID } from 'node:crypto';

import * as core from 'n8n-core';
import type { IWebhookResponseData } from 'n8n-workflow';
import { createRunExecutionData } from 'n8n-workflow';

import { deliverTo, hooksOf, type RecordedResponse } from './host.cjs';
import { additionalDataFor, ensureBinaryDataService, getRegistry, resultOf, toWorkflow, type CredentialsByType, type RunResult, type WorkflowJson } from './setup';

export interface WebhookRunResult {
	/** What the node returned from webhook() (empty when it threw). */
	webhookResponse: IWebhookResponseData;
	/** What webhook() threw, if it did: n8n then answers 500 and no execution of the node runs. */
	webhookError?: unknown;
	/** The answer: the node's own from webhook(), otherwise n8n's (200 once the execution started, 500 when it could not). */
	response: RecordedResponse;
	/** The workflow run that the webhook started, when it started one. */
	run?: RunResult;
}

/**
 * Hands one HTTP request to a webhook node through n8n-core's WebhookContext, and when the node
 * returns items, continues the workflow from them (as n8n's webhook service does).
 */
export async function runWebhook(
	options: Pick<Parameters<typeof deliverTo>[0], 'request' | 'mode' | 'failExecutionStart' | 'beforeExecution'> & {
		workflow: WorkflowJson;
		webhookNode: string;
		credentials?: CredentialsByType;
		/** The workflow's id; the same id stands for the same workflow across calls (default: a new one). */
		workflowId?: string;
	},
): Promise<WebhookRunResult> {
	await ensureBinaryDataService();
	const { workflow: json, webhookNode, credentials, workflowId, mode = 'webhook', ...passed } = options;
	const workflow = toWorkflow(json, {}, workflowId);
	const node = workflow.getNode(webhookNode);
	if (!node) throw new Error(`No node named "${webhookNode}"`);
	const executionId = randomUUID();
	const hooks = hooksOf(core.ExecutionLifecycleHooks, workflow, executionId, mode);
	const { run, ...answered } = await deliverTo({
		core,
		createRunExecutionData,
		workflow,
		node,
		nodeType: getRegistry().nodeTypes.getByNameAndVersion(node.type, node.typeVersion),
		additionalData: additionalDataFor(credentials ?? {}, hooks, executionId, workflow.id),
		mode,
		...passed,
	});
	return { ...answered, run: run ? resultOf(run) : undefined };
}
