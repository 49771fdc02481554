/** One HTTP request handed to a webhook node through n8n-core's WebhookContext, then the run it starts. */
import './env';

import { randomUUID } from 'node:crypto';

import { ExecutionLifecycleHooks, WebhookContext, WorkflowExecute } from 'n8n-core';
import type { IDataObject, IRunExecutionData, IWebhookData, IWebhookResponseData, WorkflowExecuteMode } from 'n8n-workflow';
import { createRunExecutionData } from 'n8n-workflow';

import { hooksOf, RecordedResponse } from './host.cjs';
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
	/**
	 * The answer: the node's own from webhook() or, with responseMode `responseNode`, from its
	 * execution; otherwise n8n's (200 once the execution started, 500 when it could not).
	 */
	response: RecordedResponse;
	/** The workflow run that the webhook started, when it started one. */
	run?: RunResult;
	/** The workflow's static data after the call (kept by the caller between deliveries). */
	staticData: IDataObject;
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
	staticData?: IDataObject;
	mode?: WorkflowExecuteMode;
	/**
	 * How the started execution gets its static data. `shared` (default): the webhook's workflow
	 * object, so what webhook() wrote is kept. `reloaded`: as n8n 2.41's server does it, a copy of
	 * the static data as stored before the request (webhook() writes to non-empty static data are
	 * lost there); the result's `staticData` is then what that execution would save.
	 */
	executionStaticData?: 'shared' | 'reloaded';
	/** The workflow's id; the same id stands for the same workflow across calls (default: a new one). */
	workflowId?: string;
	/** The execution's id (default: a new one); the same id stands for the same execution run again. */
	executionId?: string;
	/**
	 * n8n could not start the execution the webhook asked for (its database refused it, the
	 * process is shutting down...): it answers 500 and nothing runs.
	 */
	failExecutionStart?: boolean;
	/** n8n registered the execution, then its process died before the execution ran. */
	executionDies?: boolean;
	/**
	 * Runs after n8n registered the execution and before it starts: the gap in which other
	 * requests arrive (in queue mode the job waits there for a worker).
	 */
	beforeExecution?: () => Promise<void> | void;
}): Promise<WebhookRunResult> {
	await ensureBinaryDataService();
	const mode = options.mode ?? 'webhook';
	const staticData = options.staticData ?? {};
	// As n8n stores it, JSON in its database; taken before webhook() can change it.
	const stored =
		options.executionStaticData === 'reloaded' ? (JSON.parse(JSON.stringify(staticData)) as IDataObject) : undefined;
	// Node ids fixed once, so the webhook's and the execution's workflow hold the same nodes.
	const json: WorkflowJson = { ...options.workflow, nodes: options.workflow.nodes.map((n) => ({ ...n, id: n.id ?? randomUUID() })) };
	const workflow = toWorkflow(json, staticData, options.workflowId);
	const node = workflow.getNode(options.webhookNode);
	if (!node) throw new Error(`No node named "${options.webhookNode}"`);
	const executionId = options.executionId ?? randomUUID();
	const hooks = hooksOf(ExecutionLifecycleHooks, workflow, executionId, mode);
	const additionalData = additionalDataFor(options.credentials ?? {}, hooks, executionId, workflow.id);

	const raw = options.request.rawBody;
	const request: { rawBody?: Buffer } & Record<string, unknown> = {
		method: options.request.method ?? 'POST',
		headers: Object.fromEntries(Object.entries(options.request.headers).map(([k, v]) => [k.toLowerCase(), v])),
		body: options.request.body ?? {},
		rawBody: options.request.deferRawBody ? undefined : raw,
		query: options.request.query ?? {},
		params: {},
		readRawBody: async () => {
			request.rawBody = raw;
		},
	};
	const response = new RecordedResponse();
	additionalData.httpRequest = request as never;
	additionalData.httpResponse = response as never;

	const nodeType = getRegistry().nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
	const description = nodeType.description.webhooks?.[0];
	const webhookData: IWebhookData = {
		httpMethod: (description?.httpMethod as IWebhookData['httpMethod']) ?? 'POST',
		node: node.name,
		path: String(description?.path ?? 'webhook'),
		webhookDescription: description as IWebhookData['webhookDescription'],
		workflowId: workflow.id,
		workflowExecuteAdditionalData: additionalData,
	};
	const context = new WebhookContext(workflow, node, additionalData, mode, webhookData, [], null);
	if (!nodeType.webhook) throw new Error(`${node.type} has no webhook method`);
	let webhookResponse: IWebhookResponseData;
	try {
		webhookResponse = await nodeType.webhook.call(context);
	} catch (error) {
		// n8n's answer when webhook() throws; the execution it records fails before the node runs.
		if (!response.ended) response.status(500).json({ code: 0, message: 'Workflow Webhook Error: Workflow could not be started!' });
		return { webhookResponse: {}, webhookError: error, response, staticData: workflow.staticData as IDataObject };
	}

	let run: RunResult | undefined;
	if (webhookResponse.workflowData && options.failExecutionStart) {
		response.status(500).json({ code: 0, message: 'There was a problem executing the workflow' });
	} else if (webhookResponse.workflowData) {
		// As n8n does, the mode may be an expression over the node's parameters.
		const responseMode = workflow.expression.getSimpleParameterValue(node, description?.responseMode, mode, {}, undefined, 'onReceived');
		const answersFromExecution = responseMode === 'responseNode';
		if (answersFromExecution) {
			// "Using 'Respond to Webhook' node": the answer is what a node of the execution sends.
			hooks.addHandler('sendResponse', (sent) => {
				if (!response.ended) response.status(Number(sent.statusCode ?? 200)).json(sent.body);
			});
		} else if (!response.ended) {
			// "On received": n8n answers once the execution is registered, without waiting for it.
			response.status(200).json(webhookResponse.webhookResponse ?? { message: 'Workflow was started' });
		}
		await options.beforeExecution?.();
		if (options.executionDies) {
			response.abort();
			return { webhookResponse, response, staticData: workflow.staticData as IDataObject };
		}
		const runExecutionData: IRunExecutionData = createRunExecutionData({
			startData: {},
			resultData: { runData: {} },
			executionData: {
				contextData: {},
				nodeExecutionStack: [
					{ node, data: { main: webhookResponse.workflowData }, source: null },
				],
				waitingExecution: {},
				waitingExecutionSource: {},
			},
		});
		const executionWorkflow =
			options.executionStaticData === 'reloaded' ? toWorkflow(json, stored, workflow.id) : workflow;
		const execution = new WorkflowExecute(additionalData, mode, runExecutionData);
		run = resultOf(await execution.processRunExecutionData(executionWorkflow));
		// n8n's answer when the execution ended without one: 500 after an error, else an empty 200.
		if (answersFromExecution && !response.ended) {
			if (run.error) response.status(500).json({ message: 'Error in workflow' });
			else response.status(200).end();
		}
		if (options.executionStaticData === 'reloaded') {
			return { webhookResponse, response, run, staticData: executionWorkflow.staticData as IDataObject };
		}
	}
	return { webhookResponse, response, run, staticData: workflow.staticData as IDataObject };
}
