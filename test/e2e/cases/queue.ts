/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
// What only queue mode has: several processes taking the same deliveries, and workers busy or down.
// Each case prints its figures; docs/guarantees.md quotes them.
// CI proves the promises with one worker and smaller counts; the races of two workers, the deaths
// (queueDeaths.ts) and the full counts docs/guarantees.md quotes run with POSTAL_FIGURES=1.
import { describe, expect, it } from 'vitest';

import { sleep } from '../../../scripts/dev/n8n';
import { waitFor, type E2eEnvironment } from '../support/environment';
import { FIGURES } from '../support/figures';
import { answerTimes, figure, keyOf, seconds, SERVICE_TIMEOUT_MS, useQueueRig } from '../support/queueRig';
import { inPool } from '../support/recorder';
import { deliverTo, newDelivery } from '../support/service';
import { createTriggerWorkflow } from '../support/triggerWorkflow';
import { queueDeathCases } from './queueDeaths';

/** Deliveries whose copies reach both webhook processors at once (POSTAL_QUEUE_COPIES to change). */
const SIMULTANEOUS = Number(process.env.POSTAL_QUEUE_COPIES ?? (FIGURES ? 1000 : 200));
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

export function queueCases(env: () => E2eEnvironment) {
	describe('queue mode: deliveries across processes, and workers busy or down', () => {
		const rig = useQueueRig(env, BLOCK_SECONDS);
		const { executionsDone, withWorkers, serviceFed, outcome, holdEveryWorkerSlot, workers } = rig;

		/**
		 * 50 deliveries to one webhook processor, then, once their executions ended, the same to the
		 * other, run by `running` workers; resolves with how many deliveries ran once after the trigger.
		 */
		const resendToTheOtherProcessor = (running: number, firstId: number) =>
			withWorkers(running, async () => {
				const workflow = await createTriggerWorkflow(env(), { name: `queue: resend to the other processor, ${running} worker(s)`, recorderUrl: rig.recorder().url });
				const [first, other] = env().receivers.map((r) => `${r}${workflow.path}`);
				const deliveries = Array.from({ length: 50 }, (_, i) => newDelivery(firstId + i, 'tracking.updated'));
				const keys = deliveries.map(keyOf);
				const secret = env().sandbox.webhookSecret;
				expect(await inPool(deliveries, 5, (d) => deliverTo(first, secret, d))).toEqual(deliveries.map(() => 200));
				await executionsDone(workflow, deliveries.length);
				expect(rig.recorder().withRuns(keys, 1)).toHaveLength(deliveries.length);

				const started = Date.now();
				expect(await inPool(deliveries, 5, (d) => deliverTo(other, secret, d))).toEqual(deliveries.map(() => 200));
				await sleep(2_000);
				const after = await executionsDone(workflow, 2 * deliveries.length);
				figure(
					`resend to the other webhook processor after the first execution ended, ${running} worker(s): ${deliveries.length} deliveries, ${deliveries.length} resends → ` +
						`${after.count - deliveries.length} executions started by resends, ${rig.recorder().withRuns(keys, 2).length} deliveries run twice after the trigger (${seconds(started)})`,
				);
				return { deliveries: deliveries.length, once: rig.recorder().withRuns(keys, 1).length };
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
				const workflow = await createTriggerWorkflow(env(), { name: `queue: simultaneous copies, ${running} worker(s)`, recorderUrl: rig.recorder().url });
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
				const twice = rig.recorder().withRuns(keys, 2).length + rig.recorder().withRuns(keys, 3).length;
				const never = rig.recorder().withRuns(keys, 0).length;
				figure(
					`simultaneous copies at ${urls.length} webhook processors, ${running} worker(s): ${deliveries.length} deliveries × ${urls.length} = ${answers.length} requests ` +
						`(answers ${JSON.stringify(byStatus)}, sent in ${sentIn}) → ${done.count} executions ${JSON.stringify(done.statuses)}; ` +
						`per delivery: ${(keys.reduce((sum, k) => sum + (rig.recorder().runs.get(k)?.length ?? 0), 0) / keys.length).toFixed(3)}, ${twice} run twice, ${never} never (${seconds(started)})`,
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

		it(`answers ${BACKLOG} deliveries within the service's 30 seconds while every worker slot is held, and runs each once afterwards`, async () => {
			const fed = await serviceFed('queue: backlog');
			const { slots, heldSince } = await holdEveryWorkerSlot();
			const started = Date.now();
			for (let i = 0; i < BACKLOG; i++) {
				rig.service().control.addTrackingEvent(fed.orderId);
				await sleep(BACKLOG_EVERY_MS);
			}
			await waitFor(async () => (fed.deliveries().length === BACKLOG && fed.settled()) || undefined, 'the service to settle every delivery', 600_000);
			const answered = answerTimes(fed.deliveries());
			const answeredIn = seconds(started);
			const paused = rig.service().control.webhooks().find((w) => w.id === fed.endpoint.id)?.paused ?? false;
			// Nothing of the backlog ran yet: the slots were still held while the service was answered.
			const ranWhileHeld = fed.deliveries().filter((d) => rig.recorder().runs.has(keyOf(d))).length;
			const stillHeld = Date.now() - heldSince < BLOCK_SECONDS.reduce((a, b) => a + b) * 1000;
			const answers = outcome(fed.deliveries());
			console.log(`[queue figures] backlog answers: ${answered.text}, ${answers.failed} failed, paused ${paused}`);
			expect(answered.max * 1000).toBeLessThan(SERVICE_TIMEOUT_MS);
			expect(answers.retried).toBe(0);
			expect(paused).toBe(false);
			await executionsDone(fed.workflow, BACKLOG, 600_000);
			await sleep(2_000);
			const result = outcome(fed.deliveries());
			rig.service().control.removeWebhook(fed.endpoint.id);
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
				rig.service().control.addTrackingEvent(fed.orderId);
				await sleep(ALL_DOWN_MS / 2 / WHILE_DOWN);
			}
			await waitFor(async () => (fed.deliveries().length === WHILE_DOWN && fed.settled()) || undefined, 'the service to settle every delivery', 120_000);
			const answered = answerTimes(fed.deliveries());
			const whileDown = outcome(fed.deliveries());
			const paused = rig.service().control.webhooks().find((w) => w.id === fed.endpoint.id)?.paused ?? false;
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
			rig.service().control.removeWebhook(fed.endpoint.id);
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

		if (FIGURES) queueDeathCases(env, rig);
	});
}
