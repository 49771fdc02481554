/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
// What only queue mode has: several processes taking the same deliveries, and processes that die.
// Each case prints its figures; together they are the "Running in queue mode" table of the README.
// CI proves the promises with one worker and smaller counts; the races of two workers, the deaths
// and the full counts docs/guarantees.md quotes run with POSTAL_FIGURES=1.
import { randomUUID } from 'node:crypto';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startSandbox, type Sandbox } from '../../../sandbox';
import { sleep } from '../../../scripts/n8n';
import { activateWorkflow, createWorkflow, waitForWebhook } from '../../../scripts/workflows';
import { listExecutions, waitFor, type E2eEnvironment } from '../support/environment';
import { FIGURES } from '../support/figures';
import { inPool, startRecorder, type Recorder } from '../support/recorder';
import { createLetterAtService, deliverTo, newDelivery, type StoredDelivery } from '../support/service';
import { createTriggerWorkflow, type TriggerWorkflow } from '../support/triggerWorkflow';

/** Deliveries whose copies reach both webhook processors at once (POSTAL_QUEUE_COPIES to change). */
const SIMULTANEOUS = Number(process.env.POSTAL_QUEUE_COPIES ?? (FIGURES ? 1000 : 200));

/**
 * The service of the fault cases retries after 5, 10 and 20 "minutes" of 4 s each (20, 40, 80 s):
 * longer than a process takes to come back here, as the real 5 minutes are. The suite's own
 * sandbox retries within a second, which no restart could ever meet.
 */
const FAULT_TIME_SCALE = 4_000;

const figures: string[] = [];
function figure(line: string) {
	figures.push(line);
	console.log(`[queue figures] ${line}`);
}

/** Every worker slot is held this long by the backlog case's long executions (waits under n8n's 65 s, which stay in the slot). */
const BLOCK_SECONDS = FIGURES ? [60, 60, 30] : [60];
/**
 * Deliveries that arrive while every worker slot is held, two a second as events come (all at
 * once, they would measure how fast the webhook processors take requests on 2 loaded cores).
 */
const BACKLOG = FIGURES ? 200 : 60;
const BACKLOG_EVERY_MS = 500;
/** How long every worker is down, and the deliveries that arrive meanwhile. */
const ALL_DOWN_MS = FIGURES ? 60_000 : 30_000;
const WHILE_DOWN = FIGURES ? 50 : 25;
/** The service gives up on an answer after this long (and pauses the endpoint after 3 such failures). */
const SERVICE_TIMEOUT_MS = 30_000;

/** The answer time of the service's first attempt at each delivery, in seconds: p50, p99 and max. */
function answerTimes(deliveries: Array<{ attempts: Array<{ durationMs: number }> }>) {
	const sorted = deliveries.map((d) => d.attempts[0]?.durationMs ?? Infinity).sort((a, b) => a - b);
	const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] / 1000;
	return { p50: at(0.5), p99: at(0.99), max: at(1), text: `p50 ${at(0.5).toFixed(2)} s, p99 ${at(0.99).toFixed(2)} s, max ${at(1).toFixed(2)} s` };
}

const keyOf = (d: StoredDelivery) => `${String(d.payload.environment)}:${d.deliveryId}`;
const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

export function queueCases(env: () => E2eEnvironment) {
	describe('queue mode: deliveries across processes, and processes that die', () => {
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

		/**
		 * Waits until the workflow has at least `minimum` executions, none still new or running, and
		 * no new one for 3 s (a copy may be dropped before any execution starts, so the count of
		 * answers is no target); returns their count and statuses.
		 */
		async function executionsDone(workflow: TriggerWorkflow, minimum: number, timeoutMs = 600_000) {
			let last = -1;
			const statuses: Record<string, number> = {};
			const list = await waitFor(
				async () => {
					const all = await listExecutions(env().client, { workflowId: workflow.id });
					const settled = all.length >= minimum && all.length === last && all.every((e) => e.status !== 'new' && e.status !== 'running');
					last = all.length;
					for (const key of Object.keys(statuses)) delete statuses[key];
					for (const e of all) statuses[e.status] = (statuses[e.status] ?? 0) + 1;
					if (!settled) await sleep(2_750);
					return settled ? all : undefined;
				},
				`at least ${minimum} finished executions of "${workflow.id}"`,
				timeoutMs,
			).catch((error: Error) => {
				// A delivery answered 200 that never became an execution leaves the count short for good: say so.
				throw new Error(`${error.message}; the last look found ${last} ${JSON.stringify(statuses)}`);
			});
			return { count: list.length, statuses };
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

		/**
		 * 50 deliveries to one webhook processor, then, once their executions ended, the same to the
		 * other, run by `running` workers; resolves with how many deliveries ran once after the trigger.
		 */
		const resendToTheOtherProcessor = (running: number, firstId: number) =>
			withWorkers(running, async () => {
				const workflow = await createTriggerWorkflow(env(), { name: `queue: resend to the other processor, ${running} worker(s)`, recorderUrl: recorder.url });
				const [first, other] = env().receivers.map((r) => `${r}${workflow.path}`);
				const deliveries = Array.from({ length: 50 }, (_, i) => newDelivery(firstId + i, 'tracking.updated'));
				const keys = deliveries.map(keyOf);
				const secret = env().sandbox.webhookSecret;
				expect(await inPool(deliveries, 5, (d) => deliverTo(first, secret, d))).toEqual(deliveries.map(() => 200));
				await executionsDone(workflow, deliveries.length);
				expect(recorder.withRuns(keys, 1)).toHaveLength(deliveries.length);

				const started = Date.now();
				expect(await inPool(deliveries, 5, (d) => deliverTo(other, secret, d))).toEqual(deliveries.map(() => 200));
				await sleep(2_000);
				const after = await executionsDone(workflow, 2 * deliveries.length);
				figure(
					`resend to the other webhook processor after the first execution ended, ${running} worker(s): ${deliveries.length} deliveries, ${deliveries.length} resends → ` +
						`${after.count - deliveries.length} executions started by resends, ${recorder.withRuns(keys, 2).length} deliveries run twice after the trigger (${seconds(started)})`,
				);
				return { deliveries: deliveries.length, once: recorder.withRuns(keys, 1).length };
			});

		it('a resend reaching the other webhook processor after the first execution ended runs nothing after the trigger, with one worker', async () => {
			const result = await resendToTheOtherProcessor(1, 20_000_000);
			expect(result.once).toBe(result.deliveries);
		});

		it.runIf(FIGURES)('the same with every worker: how many run twice', async () => {
			// Another worker's write of the store's row, read before this delivery's record, can erase
			// that record: its resend then runs again. The figure above says how often; no promise.
			await resendToTheOtherProcessor(workers(), 21_000_000);
		});

		/**
		 * Copies of every delivery sent to both webhook processors at the same moment, run by `running`
		 * workers (the others stopped meanwhile); resolves with how many deliveries ran twice and never.
		 */
		const simultaneousCopies = (running: number, firstId: number) =>
			withWorkers(running, async () => {
				const workflow = await createTriggerWorkflow(env(), { name: `queue: simultaneous copies, ${running} worker(s)`, recorderUrl: recorder.url });
				const urls = env().receivers.map((r) => `${r}${workflow.path}`);
				const deliveries = Array.from({ length: SIMULTANEOUS }, (_, i) => newDelivery(firstId + i, 'order.status_updated'));
				const keys = deliveries.map(keyOf);
				const secret = env().sandbox.webhookSecret;
				const started = Date.now();
				// Both copies of a delivery leave together; 16 deliveries (32 requests) are under way at a time.
				const answers = (await inPool(deliveries, 16, (d) => Promise.all(urls.map((url) => deliverTo(url, secret, d))))).flat();
				const byStatus: Record<number, number> = {};
				for (const status of answers) byStatus[status] = (byStatus[status] ?? 0) + 1;
				const sentIn = seconds(started);
				const done = await executionsDone(workflow, answers.length);
				await sleep(2_000);
				const twice = recorder.withRuns(keys, 2).length + recorder.withRuns(keys, 3).length;
				const never = recorder.withRuns(keys, 0).length;
				figure(
					`simultaneous copies at ${urls.length} webhook processors, ${running} worker(s): ${deliveries.length} deliveries × ${urls.length} = ${answers.length} requests ` +
						`(answers ${JSON.stringify(byStatus)}, sent in ${sentIn}) → ${done.count} executions ${JSON.stringify(done.statuses)}; ` +
						`per delivery: ${(keys.reduce((sum, k) => sum + (recorder.runs.get(k)?.length ?? 0), 0) / keys.length).toFixed(3)}, ${twice} run twice, ${never} never (${seconds(started)})`,
				);
				return { accepted: answers.filter((status) => status === 200).length, requests: answers.length, twice, never };
			});

		it(`copies of ${SIMULTANEOUS} deliveries reaching both webhook processors at the same moment run after the trigger once each with one worker`, async () => {
			const result = await simultaneousCopies(1, 30_000_000);
			expect(result.accepted).toBe(result.requests);
			expect(result.never).toBe(0);
			// One worker checks deliveries one at a time.
			expect(result.twice).toBe(0);
		});

		it.runIf(FIGURES)(`copies of ${SIMULTANEOUS} deliveries reaching both webhook processors at the same moment, with every worker: how many run twice`, async () => {
			const result = await simultaneousCopies(workers(), 40_000_000);
			expect(result.accepted).toBe(result.requests);
			expect(result.never).toBe(0);
			// Workers checking copies of one delivery at the same instant can both let it on (n8n's store
			// has no lock): the figure above says how often, and it is no promise.
		});

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
			const waits = BLOCK_SECONDS.map((amount, i) => ({
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

		it(`answers ${BACKLOG} deliveries within the service's 30 seconds while every worker slot is held, and runs each once afterwards`, async () => {
			const fed = await serviceFed('queue: backlog');
			const { slots, heldSince } = await holdEveryWorkerSlot();
			const started = Date.now();
			for (let i = 0; i < BACKLOG; i++) {
				service.control.addTrackingEvent(fed.orderId);
				await sleep(BACKLOG_EVERY_MS);
			}
			await waitFor(async () => (fed.deliveries().length === BACKLOG && fed.settled()) || undefined, 'the service to settle every delivery', 600_000);
			const answered = answerTimes(fed.deliveries());
			const answeredIn = seconds(started);
			const paused = service.control.webhooks().find((w) => w.id === fed.endpoint.id)?.paused ?? false;
			// Nothing of the backlog ran yet: the slots were still held while the service was answered.
			const ranWhileHeld = fed.deliveries().filter((d) => recorder.runs.has(keyOf(d))).length;
			const stillHeld = Date.now() - heldSince < BLOCK_SECONDS.reduce((a, b) => a + b) * 1000;
			const answers = outcome(fed.deliveries());
			console.log(`[queue figures] backlog answers: ${answered.text}, ${answers.failed} failed, paused ${paused}`);
			expect(answered.max * 1000).toBeLessThan(SERVICE_TIMEOUT_MS);
			expect(answers.retried).toBe(0);
			expect(paused).toBe(false);
			await executionsDone(fed.workflow, BACKLOG, 600_000);
			await sleep(2_000);
			const result = outcome(fed.deliveries());
			service.control.removeWebhook(fed.endpoint.id);
			figure(
				`backlog: ${slots} worker slots held by ${BLOCK_SECONDS.reduce((a, b) => a + b)} s executions while ${BACKLOG} deliveries arrived, one every ${BACKLOG_EVERY_MS} ms: ` +
					`answered in ${answeredIn} (${answered.text}), ${result.delivered} answered 200 (${result.retried} after a retry), ${result.failed} failed, endpoint ${paused ? 'PAUSED' : 'never paused'}, ` +
					`${ranWhileHeld} ran while the slots were held${stillHeld ? '' : ' (the slots were freed before every answer came)'}; ` +
					`after the backlog drained: ${result.once} once, ${result.twice} twice, ${result.never} never (${seconds(started)})`,
			);
			expect(result.once).toBe(BACKLOG);
			expect(result.twice).toBe(0);
			expect(result.never).toBe(0);
		});

		it(`answers ${WHILE_DOWN} deliveries while every worker is down for ${ALL_DOWN_MS / 1000} s, and runs each once when the workers return`, async () => {
			const fed = await serviceFed('queue: all workers down');
			const workers = env().queue!.workers;
			const downSince = Date.now();
			await Promise.all(workers.map((w) => w.stop()));
			// Spread over the first half of the outage.
			for (let i = 0; i < WHILE_DOWN; i++) {
				service.control.addTrackingEvent(fed.orderId);
				await sleep(ALL_DOWN_MS / 2 / WHILE_DOWN);
			}
			await waitFor(async () => (fed.deliveries().length === WHILE_DOWN && fed.settled()) || undefined, 'the service to settle every delivery', 120_000);
			const answered = answerTimes(fed.deliveries());
			const whileDown = outcome(fed.deliveries());
			const paused = service.control.webhooks().find((w) => w.id === fed.endpoint.id)?.paused ?? false;
			const ranWhileDown = whileDown.once + whileDown.twice;
			console.log(`[queue figures] answers while every worker is down: ${answered.text}, ${whileDown.failed} failed, paused ${paused}`);
			if (answered.max * 1000 >= SERVICE_TIMEOUT_MS || paused) await Promise.all(workers.map((w) => w.start()));
			expect(answered.max * 1000).toBeLessThan(SERVICE_TIMEOUT_MS);
			expect(whileDown.retried).toBe(0);
			expect(paused).toBe(false);
			await sleep(Math.max(0, ALL_DOWN_MS - (Date.now() - downSince)));
			const downFor = seconds(downSince);
			const restart = await Promise.all(workers.map((w) => w.start()));
			await executionsDone(fed.workflow, WHILE_DOWN, 300_000);
			await sleep(2_000);
			const result = outcome(fed.deliveries());
			service.control.removeWebhook(fed.endpoint.id);
			figure(
				`all ${workers.length} workers down for ${downFor} while ${WHILE_DOWN} deliveries arrived: ${whileDown.delivered} answered 200 (${answered.text}), ` +
					`${whileDown.failed} failed, ${whileDown.retried} retried, endpoint ${paused ? 'PAUSED' : 'never paused'}, ${ranWhileDown} ran while down; ` +
					`workers back in ${Math.max(...restart).toFixed(1)} s → ${result.once} once, ${result.twice} twice, ${result.never} never (${seconds(downSince)})`,
			);
			expect(ranWhileDown).toBe(0);
			expect(result.once).toBe(WHILE_DOWN);
			expect(result.twice).toBe(0);
			expect(result.never).toBe(0);
		});

		it.runIf(FIGURES)('a worker killed (SIGKILL) in the middle of executions pauses nothing, runs nothing twice and loses only the executions it cut short', async () => {
			const fed = await serviceFed('queue: worker killed');
			const control = service.control;
			const total = 40;
			// Executions stay in the node after the trigger for 3 s: the kill finds them there.
			recorder.holdMs = 3_000;
			const started = Date.now();
			// Two a second, as in the backlog: all at once they would measure the webhook processors.
			const sending = (async () => {
				for (let i = 0; i < total; i++) {
					control.addTrackingEvent(fed.orderId);
					await sleep(BACKLOG_EVERY_MS);
				}
			})();
			await waitFor(async () => recorder.pending >= 5 || undefined, 'executions in the node after the trigger', 60_000);
			const inFlight = recorder.pending;
			const worker = env().queue!.workers[0];
			await worker.kill();
			recorder.holdMs = 0;
			const restartSeconds = await worker.start();
			await sending;
			await waitFor(async () => (fed.deliveries().length === total && fed.settled()) || undefined, 'the service to settle every delivery', 600_000);
			// Executions the kill interrupted are failed by n8n once it notices; wait for every one to end.
			await executionsDone(fed.workflow, fed.deliveries().filter((d) => d.state === 'delivered').length, 300_000);
			await sleep(2_000);
			const result = outcome(fed.deliveries());
			const executions = await listExecutions(env().client, { workflowId: fed.workflow.id });
			const statuses: Record<string, number> = {};
			for (const e of executions) statuses[e.status] = (statuses[e.status] ?? 0) + 1;
			const keys = fed.deliveries().map(keyOf);
			const notRun = recorder.withRuns(keys, 0);
			const paused = service.control.webhooks().find((w) => w.id === fed.endpoint.id)?.paused ?? false;
			if (notRun.length) console.log(`[queue figures] not run after the trigger:\n  ${(await whyNever(fed.workflow.id, notRun)).join('\n  ')}`);
			const resent = await resendFailed(fed);
			const after = outcome(fed.deliveries());
			// The floor n8n leaves: the jobs the killed worker held. n8n fails a job whose worker died
			// and does not run it again (its queue allows no stalled job), and the service, answered
			// once the job was queued, does not retry. Each stays in n8n's list as a failed execution.
			const cutShort = await failedBeforeDownstream(fed.workflow.id);
			figure(
				`worker killed with ${inFlight} executions inside the node after the trigger, restarted in ${restartSeconds.toFixed(1)} s: ${total} deliveries → ` +
					`${result.delivered} answered 200 (${result.retried} after a retry), ${result.failed} failed at the service${paused ? ' (endpoint paused after 3 failures)' : ''}; ` +
					`executions ${JSON.stringify(statuses)}, ${cutShort} of them failed before the node after the trigger; ` +
					`after the trigger ${result.once} once, ${result.twice} twice, ${result.never} never, ${result.silentlyLost} answered 200 yet never run; ` +
					`after resuming and resending the ${resent} failed: ${after.once} once, ${after.twice} twice, ${after.never} never (${seconds(started)})`,
			);
			control.removeWebhook(fed.endpoint.id);
			expect(result.failed).toBe(0);
			expect(paused).toBe(false);
			expect(after.twice).toBe(0);
			// Nothing is lost but the executions the kill cut short before the node after the trigger.
			expect(result.silentlyLost).toBeLessThanOrEqual(cutShort);
			expect(after.never).toBeLessThanOrEqual(cutShort);
		});

		it.runIf(FIGURES)('a webhook processor restarted during deliveries loses none and runs none twice after the trigger', async () => {
			const fed = await serviceFed('queue: webhook processor restarted');
			const control = service.control;
			const balancer = env().balancer!;
			const before = { ...balancer.counts };
			const total = 80;
			const started = Date.now();
			// One tracking event every 250 ms while the processor stops and starts again. The balancer routes
			// by readiness, as the trigger reference asks: a starting processor answers 200 and runs nothing.
			const sending = (async () => {
				for (let i = 0; i < total; i++) {
					control.addTrackingEvent(fed.orderId);
					await sleep(250);
				}
			})();
			await sleep(1_000);
			const restartSeconds = await env().restartReceiver(0);
			await sending;
			await waitFor(async () => (fed.deliveries().length === total && fed.settled()) || undefined, 'the service to settle every delivery', 600_000);
			await executionsDone(fed.workflow, fed.deliveries().filter((d) => d.state === 'delivered').length, 300_000);
			await sleep(2_000);
			const result = outcome(fed.deliveries());
			const served = Object.fromEntries(Object.entries(balancer.counts).map(([k, v]) => [k.includes('://') ? new URL(k).port : k, v - (before[k] ?? 0)]));
			const resent = await resendFailed(fed);
			const after = outcome(fed.deliveries());
			control.removeWebhook(fed.endpoint.id);
			figure(
				`webhook processor 1 restarted (${restartSeconds.toFixed(1)} s) during ${total} deliveries over ${seconds(started)}: ${result.delivered} answered 200 (${result.retried} after a retry), ` +
					`${result.failed} failed at the service; balancer ${JSON.stringify(served)} → after the trigger ${result.once} once, ${result.twice} twice, ${result.never} never, ` +
					`${result.silentlyLost} answered 200 yet never run${resent ? `; after resending the ${resent} failed: ${after.once} once, ${after.twice} twice, ${after.never} never` : ''}`,
			);
			expect(result.silentlyLost).toBe(0);
			expect(after.twice).toBe(0);
			expect(after.never).toBe(0);
		});
	});
}
