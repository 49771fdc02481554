/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
// The trigger in a real n8n under the load the service puts on it: hundreds of signed deliveries,
// a fifth of them sent again, ten at a time, both environments, while n8n restarts. A measurement
// docs/guarantees.md quotes: run with POSTAL_FIGURES=1 (vitest.config.mts), not in CI.
import { beforeAll, describe, expect, it } from 'vitest';

import { sleep } from '../../scripts/dev/n8n';
import { saoPauloDateTime } from '../../sandbox/util';
import { countSecretLeaks } from '../reliability/types';
import { countStatuses, listExecutions, settledExecutions } from './support/environment';
import { deliveryHeaders, type StoredDelivery } from './support/service';
import { useEnvironment } from './support/suite';
import { createTriggerWorkflow, DOWNSTREAM } from './support/triggerWorkflow';

const DISTINCT = 300;
const RESENT = 60;
const AT_ONCE = 10;

const env = useEnvironment('single');

type Sent = StoredDelivery & { key: string };

/** Distinct deliveries: ids repeated across the two environments, and ids above 2^53. */
function deliveries(webhookId: number): Sent[] {
	const list: Sent[] = [];
	for (let n = 0; list.length < DISTINCT; n++) {
		const environment = n % 3 === 2 ? 'homolog' : 'production';
		const id = n % 25 === 0 ? (2n ** 53n + BigInt(n)).toString() : String(5_000 + Math.floor(n / 2));
		const key = `${environment}:${id}`;
		if (list.some((d) => d.key === key)) continue;
		const payload = {
			event: 'order.status_updated',
			environment,
			timestamp: saoPauloDateTime(),
			webhook_id: webhookId,
			delivery_id: '__ID__',
			data: { id: `order-${n}`, type: 'letter', status: { old: 0, new: 1 }, updated_at: saoPauloDateTime() },
		};
		list.push({ key, deliveryId: id, event: payload.event, payload, body: JSON.stringify(payload).replace('"__ID__"', id) });
	}
	return list;
}

describe('the trigger under load, across a restart', () => {
	let workflowId: string;
	let url: string;

	beforeAll(async () => {
		const workflow = await createTriggerWorkflow(env(), { name: 'e2e: postal deliveries under load' });
		workflowId = workflow.id;
		url = `${env().webhookUrl}${workflow.path}`;
	});

	/** The answers each delivery got, kind by kind, for the record of a loss. */
	const answers = new Map<string, Record<string, number>>();
	/** When n8n answered 200 "n8n is starting up" to a request that reached it while it started. */
	const startingUp: number[] = [];
	let heldBack = 0;

	/**
	 * What a load balancer in front of n8n does with its health check: route a request only while
	 * /healthz/readiness answers 200. n8n 2.41 answers every other request 200 "n8n is starting up.
	 * Please wait" between connecting to its database and the end of its migrations, without running
	 * anything: a delivery that reached it then would be taken for delivered by the service. A probe
	 * to another path measures that window.
	 */
	async function routable(): Promise<boolean> {
		try {
			if ((await fetch(`${env().webhookUrl}/healthz/readiness`)).ok) return true;
			const probe = await fetch(`${env().webhookUrl}/webhook/readiness-probe`);
			if ((await probe.text()).includes('starting up')) startingUp.push(Date.now());
		} catch {
			// not listening
		}
		return false;
	}

	/** One delivery as the service sends it, again and again until it is answered 2xx. */
	async function send(delivery: Sent): Promise<number> {
		const record = (answer: string) => {
			const kinds = answers.get(delivery.key) ?? {};
			kinds[answer] = (kinds[answer] ?? 0) + 1;
			answers.set(delivery.key, kinds);
		};
		for (let attempt = 1; ; attempt++) {
			if (!(await routable())) {
				heldBack++;
				record('held back: n8n not ready');
			} else {
				try {
					const response = await fetch(url, { method: 'POST', headers: deliveryHeaders(env().sandbox.webhookSecret, delivery), body: delivery.body });
					record(`${response.status} ${(await response.text()).slice(0, 80)}`);
					if (response.ok) return attempt;
				} catch (error) {
					// n8n is stopping: the service retries later.
					record(`no answer: ${String((error as Error).cause ?? (error as Error).message).slice(0, 60)}`);
				}
			}
			if (attempt > 600) throw new Error(`delivery ${delivery.key} was never answered 2xx`);
			await sleep(250);
		}
	}

	it('runs the workflow once per distinct delivery and loses none but what the restart cuts short after n8n answered', { timeout: 600_000 }, async () => {
		const distinct = deliveries(7);
		// A fifth sent again: right after the first copy (mostly in the same batch), a few batches
		// later, or at the end (after the restart).
		const order = distinct.map((delivery, at) => ({ delivery, at }));
		for (let n = 0; n < RESENT; n++) {
			const first = (n * 53) % DISTINCT;
			order.push({ delivery: distinct[first], at: first + [0.5, 60, DISTINCT][n % 3] });
		}
		const queue = order.sort((a, b) => a.at - b.at).map(({ delivery }) => delivery);
		const restartAt = Math.floor(queue.length / AT_ONCE / 2);
		let restart: Promise<number> | undefined;
		let retried = 0;
		const started = Date.now();
		for (let batch = 0; batch * AT_ONCE < queue.length; batch++) {
			if (batch === restartAt) restart = env().restartReceiver();
			const attempts = await Promise.all(queue.slice(batch * AT_ONCE, (batch + 1) * AT_ONCE).map(send));
			retried += attempts.filter((n) => n > 1).length;
		}
		env().timings.n8nRestartSeconds = await restart!;
		env().timings.loadSeconds = (Date.now() - started) / 1000;

		// Every execution ended and saved (the count stable for a few seconds), then what reached the
		// node after the trigger.
		await settledExecutions(env().client, workflowId, { stableMs: 3_000 });
		const executions = await listExecutions(env().client, { workflowId, includeData: true });
		const runs = new Map<string, number>();
		for (const execution of executions) {
			for (const item of execution.data?.resultData.runData[DOWNSTREAM]?.[0]?.data?.main[0] ?? []) {
				const key = `${String(item.json.environment)}:${String(item.json.delivery_id)}`;
				runs.set(key, (runs.get(key) ?? 0) + 1);
			}
		}
		const lost = distinct.filter((d) => !runs.has(d.key)).map((d) => d.key);
		const twice = [...runs].filter(([, n]) => n > 1).map(([key]) => key);
		const downstream = [...runs.values()].reduce((a, b) => a + b, 0);
		// n8n answers once it has stored an execution, and keeps taking requests while it stops: an
		// execution still under way when its graceful stop times out is marked crashed at the next start.
		const crashed = new Set(
			executions
				.filter((e) => e.status === 'crashed')
				.map((e) => (e.data as { executionData?: { nodeExecutionStack: Array<{ data: { main: Array<Array<{ json: Record<string, unknown> }>> } }> } }).executionData)
				.map((data) => data?.nodeExecutionStack[0]?.data.main[0]?.[0]?.json ?? {})
				.map((json) => `${String(json.environment)}:${String(json.delivery_id)}`),
		);
		const failed = executions.filter((e) => e.status !== 'success' && e.status !== 'crashed').length;
		console.log(
			`[e2e] trigger under load: ${queue.length} deliveries (${distinct.length} distinct, ${queue.length - distinct.length} sent again), ` +
				`${AT_ONCE} at a time, n8n restarted after batch ${restartAt} (${retried} deliveries retried by the sender, ` +
				`${heldBack} attempts held back while n8n was not ready; n8n answered "starting up" for ` +
				`${startingUp.length ? ((startingUp.at(-1)! - startingUp[0]) / 1000).toFixed(1) : 0} s): ` +
				`executions ${executions.length} ${JSON.stringify(countStatuses(executions))}, runs after the trigger ${downstream}, lost ${lost.length} ` +
				`(${lost.filter((key) => crashed.has(key)).length} of them in an execution n8n answered and crashed at its restart), twice ${twice.length}`,
		);
		for (const key of [...lost, ...twice]) console.log(`[e2e] ${key}: ${JSON.stringify(answers.get(key))}`);
		// Nothing is lost but what n8n's restart cut short after answering.
		expect(lost.filter((key) => !crashed.has(key))).toEqual([]);
		expect(twice).toEqual([]);
		expect(downstream).toBe(distinct.length - lost.length);
		expect(failed).toBe(0);
		expect(countSecretLeaks(JSON.stringify(executions), [{ secret: env().sandbox.webhookSecret }])).toBe(0);
	});
});
