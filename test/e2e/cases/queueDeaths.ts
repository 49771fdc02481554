/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
// Queue-mode processes that die under deliveries: a worker killed, a webhook processor restarted.
// Measurements of n8n's own behaviour for the README's queue table, run with POSTAL_FIGURES=1 only.
import { expect, it } from 'vitest';

import { sleep } from '../../../scripts/dev/n8n';
import { listExecutions, waitFor, type E2eEnvironment } from '../support/environment';
import { figure, keyOf, seconds, type QueueRig } from '../support/queueRig';

/** One delivery every half second, as in the backlog. */
const SEND_EVERY_MS = 500;

export function queueDeathCases(env: () => E2eEnvironment, rig: QueueRig) {
	const { executionsDone, serviceFed, outcome, resendFailed, whyNever, failedBeforeDownstream } = rig;

	it('a worker killed (SIGKILL) in the middle of executions pauses nothing, runs nothing twice and loses only the executions it cut short', async () => {
		const fed = await serviceFed('queue: worker killed');
		const control = rig.service().control;
		const total = 40;
		// Executions stay in the node after the trigger for 3 s: the kill finds them there.
		rig.recorder().holdMs = 3_000;
		const started = Date.now();
		// Two a second, as in the backlog: all at once they would measure the webhook processors.
		const sending = (async () => {
			for (let i = 0; i < total; i++) {
				control.addTrackingEvent(fed.orderId);
				await sleep(SEND_EVERY_MS);
			}
		})();
		await waitFor(async () => rig.recorder().pending >= 5 || undefined, 'executions in the node after the trigger', 60_000);
		const inFlight = rig.recorder().pending;
		const worker = env().queue!.workers[0];
		await worker.kill();
		rig.recorder().holdMs = 0;
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
		const notRun = rig.recorder().withRuns(keys, 0);
		const paused = rig.service().control.webhooks().find((w) => w.id === fed.endpoint.id)?.paused ?? false;
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

	it('a webhook processor restarted during deliveries loses none and runs none twice after the trigger', async () => {
		const fed = await serviceFed('queue: webhook processor restarted');
		const control = rig.service().control;
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
}
