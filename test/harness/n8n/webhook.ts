/** One HTTP request handed to a webhook node through n8n-core's WebhookContext, then the run it starts. */
import './env';

import { randomUUID } from 'node:crypto';

import * as core from 'n8n-core';
import type { IWebhookResponseData, WorkflowExecuteMode } from 'n8n-workflow';
import { createRunExecutionData } from 'n8n-workflow';

import { deliverTo, hooksOf, RecordedResponse } from './host.cjs';
import { additionalDataFor, ensureBinaryDataService, getRegistry, resultOf, toWorkflow, type CredentialsByType, type RunResult, type WorkflowJson } from './setup';

export { RecordedResponse };

export interface WebhookRequest {
	method?: string;
	headers: Record<string, string>;
	/** The exact bytes received; `body` is what n8n's body parser would make of them. */
	rawBody?: Buffer;
	body?: unknown;
	query?: Record<string, string>;
	/** As n8n does for some content types: `rawBody` stays undefined until the node calls `readRawBody()`. */
	deferRawBody?: boolean;
}

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
export async function runWebhook(options: {
	workflow: WorkflowJson;
	webhookNode: string;
	request: WebhookRequest;
	credentials?: CredentialsByType;
	mode?: WorkflowExecuteMode;
	/** The workflow's id; the same id stands for the same workflow across calls (default: a new one). */
	workflowId?: string;
	/**
	 * n8n could not start the execution the webhook asked for (its database refused it, the
	 * process is shutting down...): it answers 500 and nothing runs.
	 */
	failExecutionStart?: boolean;
	/**
	 * Runs after n8n registered the execution and before it starts: the gap in which other
	 * requests arrive (in queue mode the job waits there for a worker).
	 */
	beforeExecution?: () => Promise<void> | void;
}): Promise<WebhookRunResult> {
	await ensureBinaryDataService();
	const mode = options.mode ?? 'webhook';
	const workflow = toWorkflow(options.workflow, {}, options.workflowId);
	const node = workflow.getNode(options.webhookNode);
	if (!node) throw new Error(`No node named "${options.webhookNode}"`);
	const executionId = randomUUID();
	const hooks = hooksOf(core.ExecutionLifecycleHooks, workflow, executionId, mode);
	const { run, ...answered } = await deliverTo({
		core,
		createRunExecutionData,
		workflow,
		node,
		nodeType: getRegistry().nodeTypes.getByNameAndVersion(node.type, node.typeVersion),
		additionalData: additionalDataFor(options.credentials ?? {}, hooks, executionId, workflow.id),
		request: options.request,
		mode,
		failExecutionStart: options.failExecutionStart,
		beforeExecution: options.beforeExecution,
	});
	return { ...answered, run: run ? resultOf(run) : undefined };
}
