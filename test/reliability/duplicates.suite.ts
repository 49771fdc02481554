/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
/**
 * Duplicate fuzz: genuine deliveries sent as the service sends them (at least once: retries after
 * errors, resends from the panel), shuffled, several at a time, from both environments, with ids
 * that collide across environments and ids above 2^53, to the trigger in n8n's engine, which
 * answers as n8n does once the execution is stored. n8n's processed-data store is shared by every
 * call, as the database is by every process.
 *
 * Deliveries come with and without `environment` in the body (then with either header), and in
 * one mode every retry and resend carries a new delivery_id. The event key's own families and the
 * store's failures are in duplicates-events.suite.ts and duplicates-store.suite.ts.
 *
 * Figures: runs of the node after the trigger = distinct deliveries; none lost, none twice.
 */
import { randomUUID } from 'node:crypto';

import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { processedData } from '../harness/engine';
import { deliver, type Outcome, statusDelivery } from '../trigger/support';
import { countRuns, freshId, inBatches, mulberry32, shuffled, triggerLeaks, type SuiteRow, type ReliabilitySuite } from './types';

type Fault = 'none' | 'execution does not start' | 'answer lost';

interface Mode {
	name: string;
	/** n8n fails to start some executions (500), and some 200s are lost on the way: the service retries. */
	faults: boolean;
	/** Every delivery arrives as 2 to 4 copies at as many webhook processes at once. */
	simultaneous?: boolean;
	/** Every retry and resend carries a new delivery_id (the other reading of the interface). */
	renumbered?: boolean;
	scenarios: number;
}

const MODES: Mode[] = [
	{ name: 'resends, interleavings, up to 10 at a time, both environments', faults: false, scenarios: 30 },
	{ name: 'the same, with executions that fail to start and answers lost (the service retries)', faults: true, scenarios: 30 },
	{ name: 'the same, every retry and resend under a new delivery_id', faults: true, renumbered: true, scenarios: 30 },
	{ name: '2 to 4 copies at as many webhook processes at once, one worker', faults: false, simultaneous: true, scenarios: 20 },
];

const TWO_TO_53 = 2n ** 53n;

const scenario = fc.record({
	keys: fc.uniqueArray(
		fc.tuple(
			// 'none': the body carries no environment (the header still says one).
			fc.constantFrom('production', 'homolog', 'none'),
			fc.oneof(
				fc.integer({ min: 1, max: 40 }).map(String),
				fc.integer({ min: 0, max: 6 }).map((k) => (TWO_TO_53 + BigInt(k)).toString()),
			),
		),
		{ minLength: 10, maxLength: 40, selector: ([environment, id]) => `${environment}:${id}` },
	),
	prng: fc.integer(),
});

/** The delivery an item ran: its environment (or none) and the id of its first attempt. */
const ranKey = (json: IDataObject) =>
	`${typeof json.environment === 'string' ? json.environment : 'none'}:${String((json.data as IDataObject).id).slice('order-'.length)}`;

/** The headers' environment of a body without one: either, as an unsigned header may say. */
const headerEnvironment = (environment: string, random: () => number) =>
	environment === 'none' ? (random() < 0.5 ? 'production' : 'homolog') : environment;

const newTally = () => ({ distinct: 0, attempts: 0, executions: 0, downstream: 0, lost: 0, twice: 0, leaks: 0 });
type Tally = ReturnType<typeof newTally>;

function record(tally: Tally, result: Outcome, runs: Map<string, number>): void {
	tally.attempts++;
	tally.leaks += triggerLeaks(result);
	if (result.started) tally.executions++;
	for (const item of result.after) runs.set(ranKey(item.json), (runs.get(ranKey(item.json)) ?? 0) + 1);
}

function settle(tally: Tally, expected: string[], runs: Map<string, number>): void {
	const counted = countRuns(expected, runs);
	tally.distinct += expected.length;
	tally.downstream += counted.downstream;
	tally.lost += counted.lost;
	tally.twice += counted.twice;
}

async function runScenario(keys: Array<[string, string]>, seed: number, mode: Mode, tally: Tally): Promise<void> {
	const random = mulberry32(seed);
	const workflowId = randomUUID();
	const runs = new Map<string, number>();
	const deliveries = keys.map(([environment, id]) => ({ key: `${environment}:${id}`, environment, id, sent: 0, failed: 0 }));
	// Every delivery once, then resends of some, in a shuffled order.
	const queue = shuffled(deliveries.flatMap((d) => Array.from({ length: 1 + Math.floor(random() * 4) }, () => d)), random);
	await inBatches(queue, random, async (delivery) => {
		// Faults on the first three attempts at most, so that the service's last retry gets through.
		const roll = random();
		const fault: Fault =
			!mode.faults || delivery.failed >= 3 ? 'none' : roll < 0.1 ? 'execution does not start' : roll < 0.18 ? 'answer lost' : 'none';
		const deliveryId = mode.renumbered && delivery.sent > 0 ? freshId() : delivery.id;
		delivery.sent++;
		const request = statusDelivery(delivery.environment, delivery.id, deliveryId, headerEnvironment(delivery.environment, random));
		const result = await deliver(request, { workflowId, parameters: { environment: 'both' }, failExecutionStart: fault === 'execution does not start' });
		record(tally, result, runs);
		const ok = result.response.ended && result.response.statusCode >= 200 && result.response.statusCode < 300 && fault !== 'answer lost';
		if (!ok) {
			delivery.failed++;
			queue.push(delivery);
		}
	});
	settle(tally, deliveries.map((d) => d.key), runs);
}

/**
 * Copies of each delivery reach as many webhook processes at the same moment, and one worker runs
 * all their executions at once.
 */
async function runSimultaneousCopies(keys: Array<[string, string]>, seed: number, tally: Tally): Promise<void> {
	const random = mulberry32(seed);
	const workflowId = randomUUID();
	const runs = new Map<string, number>();
	const deliveries = keys.map(([environment, id]) => ({ key: `${environment}:${id}`, environment, id }));
	const send = async (delivery: (typeof deliveries)[number], copies: number): Promise<void> => {
		let allStarted!: () => void;
		const barrier = new Promise<void>((resolve) => (allStarted = resolve));
		const outcomes: Array<Promise<Outcome>> = [];
		const copy = (n: number): void => {
			const request = statusDelivery(delivery.environment, delivery.id, delivery.id, headerEnvironment(delivery.environment, random));
			outcomes.push(
				deliver(request, {
					workflowId,
					parameters: { environment: 'both' },
					beforeExecution: async () => {
						if (n + 1 === copies) return allStarted();
						// The next copy reaches another webhook process before this execution runs.
						copy(n + 1);
						await barrier;
					},
				}),
			);
		};
		copy(0);
		while (outcomes.length < copies) await new Promise((resolve) => setImmediate(resolve));
		for (const result of await Promise.all(outcomes)) record(tally, result, runs);
	};
	// One delivery alone first, so that n8n's store has its row to read and write when copies race.
	await send(deliveries[0], 1);
	for (let at = 1; at < deliveries.length; ) {
		const group = deliveries.slice(at, at + 1 + Math.floor(random() * 5));
		at += group.length;
		await Promise.all(group.map((delivery) => send(delivery, 2 + Math.floor(random() * 3))));
	}
	settle(tally, deliveries.map((d) => d.key), runs);
}

/**
 * Bodies without `environment` under a one-environment filter, whatever the unsigned header says:
 * none may start the workflow (and none of either environment may be dropped for their header).
 */
async function runWithoutEnvironment(): Promise<SuiteRow> {
	let attempts = 0;
	let bad = 0;
	// Each combination once: a repeat differs only by a fresh id, which decides nothing here.
	for (const wanted of ['production', 'homolog']) {
		for (const environment of ['none', 'production', 'homolog']) {
			for (const header of ['production', 'homolog']) {
				const id = freshId();
				const result = await deliver(statusDelivery(environment, id, id, header), { parameters: { environment: wanted } });
				attempts++;
				const ran = result.after.length > 0;
				if (ran !== (environment === wanted) || result.response.statusCode !== 200) bad++;
			}
		}
	}
	return {
		case: 'bodies with and without environment, under Production or Homolog, with either X-Webhook-Environment header',
		runs: attempts,
		measure: 'deliveries taken or dropped other than by the signed body',
		bad,
	};
}

export const suite: ReliabilitySuite = {
	name: 'Duplicate fuzz',
	async run(context) {
		const rows: SuiteRow[] = [];
		const all = newTally();
		const started = Date.now();
		for (const [index, mode] of MODES.entries()) {
			const tally = newTally();
			const callsBefore = processedData.calls;
			const count = Math.max(1, Math.round(mode.scenarios * context.scale));
			for (const { keys, prng } of fc.sample(scenario, { seed: context.seed + 100 + index, numRuns: count })) {
				if (mode.simultaneous) await runSimultaneousCopies(keys as Array<[string, string]>, prng, tally);
				else await runScenario(keys as Array<[string, string]>, prng, mode, tally);
			}
			all.leaks += tally.leaks;
			all.attempts += tally.attempts;
			rows.push({
				case: mode.name,
				runs: tally.attempts,
				measure: 'runs after the trigger vs distinct deliveries; lost; run twice',
				bad: Math.abs(tally.downstream - tally.distinct) + tally.lost + tally.twice,
				note: `${tally.distinct} distinct, ${tally.executions} executions (${processedData.calls - callsBefore} calls to the store), ${tally.downstream} runs after the trigger, ${tally.lost} lost, ${tally.twice} twice`,
			});
		}
		rows.push(await runWithoutEnvironment());
		rows.push({
			case: 'signing secret in answers and execution data',
			runs: all.attempts,
			measure: 'occurrences of the secret (raw, URL-, form-, base64-encoded)',
			bad: all.leaks,
		});
		context.log(`${all.attempts} deliveries in ${((Date.now() - started) / 1000).toFixed(1)} s`);
		return rows;
	},
};
