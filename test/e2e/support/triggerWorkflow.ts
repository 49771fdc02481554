// An active workflow of the trigger and one node after it, and what tells whether that node ran:
// a resend starts an execution in which the trigger emits nothing, so "nothing ran twice" is
// counted on the node after the trigger.
import { randomUUID } from 'node:crypto';

import { activateWorkflow, createWorkflow, waitForWebhook, type WorkflowFile, type WorkflowNode } from '../../../scripts/dev/workflows';
import { nodeType } from '../cases/package';
import { listExecutions, type E2eEnvironment, type Execution } from './environment';

export const TRIGGER_EVENTS = ['order.created', 'order.status_updated', 'tracking.updated', 'rr.created', 'webhook.test'];
export const DOWNSTREAM = 'Received';

export interface TriggerWorkflow {
	id: string;
	webhookId: string;
	/** The production path, the same on every process that takes webhooks. */
	path: string;
}

/** The node after the trigger: a No Operation node, or an HTTP request to a recorder that counts runs per delivery. */
function downstreamNode(recorderUrl?: string): WorkflowNode {
	const base = { id: randomUUID(), name: DOWNSTREAM, position: [240, 0] as [number, number] };
	if (!recorderUrl) return { ...base, type: 'n8n-nodes-base.noOp', typeVersion: 1, parameters: {} };
	return {
		...base,
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		parameters: {
			method: 'POST',
			url: recorderUrl,
			sendBody: true,
			specifyBody: 'json',
			jsonBody: '={{ JSON.stringify({ environment: $json.environment, delivery_id: $json.delivery_id, execution: $execution.id }) }}',
			options: {},
		},
	};
}

export async function createTriggerWorkflow(
	env: E2eEnvironment,
	options: { name: string; recorderUrl?: string },
): Promise<TriggerWorkflow> {
	const webhookId = randomUUID();
	const workflow: WorkflowFile = {
		name: options.name,
		nodes: [
			{
				id: randomUUID(),
				name: 'Postal Service Trigger',
				type: nodeType('postalServiceTrigger'),
				typeVersion: 1,
				position: [0, 0],
				webhookId,
				// The trigger's defaults, in both topologies.
				parameters: { events: TRIGGER_EVENTS, environment: 'both', options: {} },
				credentials: { postalServiceWebhookApi: { id: '0', name: 'secret' } },
			},
			downstreamNode(options.recorderUrl),
		],
		connections: { 'Postal Service Trigger': { main: [[{ node: DOWNSTREAM, type: 'main', index: 0 }]] } },
	};
	const { id } = await createWorkflow(env.client, workflow, env.credentials);
	await activateWorkflow(env.client, id);
	const path = `/webhook/${webhookId}/webhook`;
	// Every webhook processor must know the webhook before the service calls it.
	for (const receiver of env.receivers) await waitForWebhook(`${receiver}${path}`);
	return { id, webhookId, path };
}

/** Executions of the workflow with their data, and how many items the node after the trigger received in them (none in an execution where the trigger emitted nothing). */
export async function downstreamRuns(env: E2eEnvironment, workflowId: string) {
	const executions = await listExecutions(env.client, { workflowId, includeData: true });
	const items = (e: Execution) => (e.data?.resultData.runData[DOWNSTREAM] ?? []).reduce((sum, run) => sum + (run.data?.main[0]?.length ?? 0), 0);
	return { executions: executions.length, downstream: executions.reduce((sum, e) => sum + items(e), 0) };
}
