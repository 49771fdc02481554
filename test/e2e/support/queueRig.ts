/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
// What the queue-mode cases share: a recorder of what ran after the trigger, a service of its own
// whose retries come as late as a restart takes, and the waits and counts the cases read.
import { randomUUID } from 'node:crypto';

import { afterAll, beforeAll, expect } from 'vitest';

import { startSandbox, type Sandbox } from '../../../sandbox';
import { sleep } from '../../../scripts/dev/n8n';
import { activateWorkflow, createWorkflow, waitForWebhook } from '../../../scripts/dev/workflows';
import { countStatuses, listExecutions, settledExecutions, waitFor, type E2eEnvironment } from './environment';
import { inPool, startRecorder, type Recorder } from './recorder';
import { createLetterAtService, type StoredDelivery } from './service';
import { createTriggerWorkflow, type TriggerWorkflow } from './triggerWorkflow';

/**
 * The service of the fault cases retries after 5, 10 and 20 "minutes" of 4 s each (20, 40, 80 s):
 * longer than a process takes to come back here, as the real 5 minutes are. The suite's own
 * sandbox retries within a second, which no restart could ever meet.
 */
const FAULT_TIME_SCALE = 4_000;

const figures: string[] = [];
export function figure(line: string) {
	figures.push(line);
	console.log(`[queue figures] ${line}`);
}

/** The service gives up on an answer after this long (and pauses the endpoint after 3 such failures). */
export const SERVICE_TIMEOUT_MS = 30_000;

/** The answer time of the service's first attempt at each delivery, in seconds: p50, p99 and max. */
export function answerTimes(deliveries: Array<{ attempts: Array<{ durationMs: number }> }>) {
	const sorted = deliveries.map((d) => d.attempts[0]?.durationMs ?? Infinity).sort((a, b) => a - b);
	const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] / 1000;
	return { p50: at(0.5), p99: at(0.99), max: at(1), text: `p50 ${at(0.5).toFixed(2)} s, p99 ${at(0.99).toFixed(2)} s, max ${at(1).toFixed(2)} s` };
}

export const keyOf = (d: StoredDelivery) => `${String(d.payload.environment)}:${d.deliveryId}`;
export const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

export type QueueRig = ReturnType<typeof useQueueRig>;

/** Registers the rig's start and stop around the cases of the describe it is called in. */
export function useQueueRig(env: () => E2eEnvironment, blockSeconds: number[]) {
	let recorder: Recorder;
	let service: Sandbox;
	const workers = () => env().queue!.workers.length;

	/** Worker slots in all: each worker's concurrency, as it printed it when it started (before any case restarts one). */
	let slotsAtStart = NaN;
	const workerSlots = () => slotsAtStart;

	beforeAll(async () => {
		slotsAtStart = env().queue!.workers.reduce((sum, w) => sum + Number(/Concurrency: (\d+)/.exec(w.recentOutput)?.[1] ?? NaN), 0);
		recorder = await startRecorder();
		service = await startSandbox({
			port: 0,
			token: env().token,
			webhookSecret: env().sandbox.webhookSecret,
			timeScale: FAULT_TIME_SCALE,
			quiet: true,
		});
		// Only the workflows of these cases receive the service's events from here on.
		for (const endpoint of env().sandbox.control.webhooks()) env().sandbox.control.removeWebhook(endpoint.id);
	});

	afterAll(async () => {
		await recorder?.stop();
		await service?.stop();
		if (figures.length) console.log(`[queue figures]\n  ${figures.join('\n  ')}`);
	});

	/** Waits until the workflow has at least `minimum` executions, none under way and no new one for 3 s; returns their count and statuses. */
	async function executionsDone(workflow: TriggerWorkflow, minimum: number, timeoutMs = 600_000) {
		const list = await settledExecutions(env().client, workflow.id, { minimum, stableMs: 3_000, timeoutMs });
		return { count: list.length, statuses: countStatuses(list) };
	}

	/** Runs `task` with `running` workers, the others stopped meanwhile. */
	async function withWorkers<T>(running: number, task: () => Promise<T>): Promise<T> {
		const stopped = env().queue!.workers.slice(running);
		await Promise.all(stopped.map((w) => w.stop()));
		try {
			return await task();
		} finally {
			await Promise.all(stopped.map((w) => w.start()));
		}
	}

	/** A workflow fed by the service itself (with its retries) through the balancer, for the fault cases. */
	async function serviceFed(name: string) {
		const workflow = await createTriggerWorkflow(env(), { name, recorderUrl: recorder.url });
		const url = `${env().webhookUrl}${workflow.path}`;
		await waitForWebhook(url);
		const endpoint = service.control.registerWebhook({ url, events: ['tracking.updated'], name });
		const orderId = await createLetterAtService(env(), name, service);
		const deliveries = () => service.control.deliveries().filter((d) => d.webhookId === endpoint.id);
		const settled = () => deliveries().every((d) => d.state === 'delivered' || d.state === 'failed');
		return { workflow, endpoint, orderId, deliveries, settled };
	}

	/** What became of deliveries that did not run after the trigger: the service's attempts, and their executions. */
	async function whyNever(workflowId: string, keys: string[]) {
		const executions = await listExecutions(env().client, { workflowId, includeData: true });
		return keys.map((key) => {
			const delivery = service.control.deliveries().find((d) => `${String(d.payload.environment)}:${d.deliveryId}` === key);
			const attempts = delivery?.attempts.map((a) => a.status ?? a.error) ?? [];
			const ran = executions
				.filter((e) => JSON.stringify(e.data?.resultData.runData['Postal Service Trigger'] ?? []).includes(`"delivery_id":${delivery?.deliveryId},`))
				.map((e) => `${e.id}:${e.status}`);
			return `${key} attempts ${JSON.stringify(attempts)} executions ${JSON.stringify(ran)}`;
		});
	}

	/**
	 * Executions that failed without reaching the node after the trigger: the ones the kill cut
	 * short before that node (n8n fails a job whose worker died and does not run it again).
	 */
	async function failedBeforeDownstream(workflowId: string): Promise<number> {
		const reached = new Set([...recorder.runs.values()].flat());
		const executions = await listExecutions(env().client, { workflowId });
		return executions.filter((e) => e.status !== 'success' && !reached.has(String(e.id))).length;
	}

	function outcome(deliveries: Array<StoredDelivery & { state: string; attempts: unknown[] }>) {
		const runs = (d: StoredDelivery) => recorder.runs.get(keyOf(d))?.length ?? 0;
		const delivered = deliveries.filter((d) => d.state === 'delivered');
		return {
			delivered: delivered.length,
			failed: deliveries.filter((d) => d.state === 'failed').length,
			retried: deliveries.filter((d) => d.attempts.length > 1).length,
			once: deliveries.filter((d) => runs(d) === 1).length,
			twice: deliveries.filter((d) => runs(d) > 1).length,
			never: deliveries.filter((d) => runs(d) === 0).length,
			/** Answered 200, so never retried, yet nothing ran after the trigger: lost without a trace at the service. */
			silentlyLost: delivered.filter((d) => runs(d) === 0).length,
		};
	}

	/**
	 * What the account owner does after the service's e-mail about a paused endpoint: resume it
	 * and resend every failed delivery from the panel. Resolves with how many were resent.
	 */
	async function resendFailed(fed: Awaited<ReturnType<typeof serviceFed>>) {
		const failed = fed.deliveries().filter((d) => d.state === 'failed');
		if (failed.length === 0) return 0;
		if (service.control.webhooks().find((w) => w.id === fed.endpoint.id)?.paused) service.control.resumeWebhook(fed.endpoint.id);
		await inPool(failed, 5, (d) => service.control.resendDelivery(d.deliveryId));
		await executionsDone(fed.workflow, 1, 300_000);
		await sleep(2_000);
		return failed.length;
	}


	/**
	 * Fills every worker slot with an execution of a workflow that only waits (a Webhook node, then
	 * waits that keep the slot), and resolves once they all run on the workers.
	 */
	async function holdEveryWorkerSlot(): Promise<{ slots: number; workflowId: string; heldSince: number }> {
		const slots = workerSlots();
		expect(slots).toBeGreaterThan(0);
		const path = randomUUID();
		const waits = blockSeconds.map((amount, i) => ({
			id: randomUUID(),
			name: `Wait ${i + 1}`,
			type: 'n8n-nodes-base.wait',
			typeVersion: 1.1,
			position: [240 * (i + 1), 0] as [number, number],
			webhookId: randomUUID(),
			parameters: { resume: 'timeInterval', amount, unit: 'seconds' },
		}));
		const nodes = [
			{
				id: randomUUID(),
				name: 'Webhook',
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2,
				position: [0, 0] as [number, number],
				webhookId: randomUUID(),
				parameters: { httpMethod: 'POST', path, responseMode: 'onReceived', options: {} },
			},
			...waits,
		];
		const connections = Object.fromEntries(nodes.slice(0, -1).map((n, i) => [n.name, { main: [[{ node: nodes[i + 1].name, type: 'main', index: 0 }]] }]));
		const { id } = await createWorkflow(env().client, { name: 'queue: long executions', nodes, connections }, env().credentials);
		await activateWorkflow(env().client, id);
		const url = `${env().webhookUrl}/webhook/${path}`;
		for (const receiver of env().receivers) await waitForWebhook(`${receiver}/webhook/${path}`);
		const heldSince = Date.now();
		await inPool(Array.from({ length: slots }), 5, async () => expect((await fetch(url, { method: 'POST', body: '{}' })).status).toBe(200));
		await waitFor(
			async () => (await listExecutions(env().client, { workflowId: id })).filter((e) => e.status === 'running').length >= slots || undefined,
			`${slots} long executions running on the workers`,
			120_000,
		);
		return { slots, workflowId: id, heldSince };
	}

	return {
		recorder: () => recorder,
		service: () => service,
		workers,
		executionsDone,
		withWorkers,
		serviceFed,
		whyNever,
		failedBeforeDownstream,
		outcome,
		resendFailed,
		holdEveryWorkerSlot,
	};
}
