/**
 * Duplicate fuzz: genuine deliveries sent as the service sends them (at least once: retries after
 * errors, resends from the panel), shuffled, several at a time, from both environments, with ids
 * that collide across environments and ids above 2^53, to the trigger in n8n's engine. n8n is
 * modelled as it keeps state: static data loaded from its database for every request and written
 * back at the end of each execution (last writer wins), its processed-data store shared.
 *
 * Figures: runs of the node after the trigger = distinct (environment, delivery_id); none lost.
 */
import { randomUUID } from 'node:crypto';

import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { forgetProcessMemory } from '../../nodes/PostalServiceTrigger/deliveryMemory';
import { countSecretLeaks, type ReliabilityRow, type ReliabilitySuite, type SuiteContext } from './types';
import { AFTER, deliver, producedText, SECRET, serviceTime, signed } from './triggerRig';

type Fault = 'none' | 'execution does not start' | 'answer lost' | 'n8n dies before the execution runs';

interface Mode {
	name: string;
	faults: boolean;
	/** n8n restarts between batches, and copies reach a process that knows nothing of the first. */
	forgetful: boolean;
	/** Every delivery arrives as 2 to 4 copies at as many webhook processes at once. */
	simultaneous?: boolean;
	scenarios: number;
}

const MODES: Mode[] = [
	{ name: 'resends, interleavings, up to 10 at a time, both environments', faults: false, forgetful: false, scenarios: 30 },
	{ name: 'the same, with executions that fail to start and answers lost (the service retries)', faults: true, forgetful: false, scenarios: 30 },
	{
		name: 'the same, with n8n dying before executions run, restarts, and copies reaching another webhook process',
		faults: true,
		forgetful: true,
		scenarios: 30,
	},
	{
		name: '2 to 4 copies at as many webhook processes at once, one worker',
		faults: false,
		forgetful: true,
		simultaneous: true,
		scenarios: 20,
	},
];

const TWO_TO_53 = 2n ** 53n;

const scenario = fc.record({
	keys: fc.uniqueArray(
		fc.tuple(
			fc.constantFrom('production', 'homolog'),
			fc.oneof(
				fc.integer({ min: 1, max: 40 }).map(String),
				fc.integer({ min: 0, max: 6 }).map((k) => (TWO_TO_53 + BigInt(k)).toString()),
			),
		),
		{ minLength: 10, maxLength: 40, selector: ([environment, id]) => `${environment}:${id}` },
	),
	prng: fc.integer(),
});

/** A small seeded generator for the shuffles, batch sizes and faults of one scenario. */
function mulberry32(seed: number) {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

/** The bytes the service sends for one delivery: the id written as digits, whatever its size. */
function body(environment: string, id: string): Buffer {
	const envelope = {
		event: 'order.status_updated',
		environment,
		timestamp: serviceTime(),
		webhook_id: 3,
		delivery_id: '__ID__',
		data: { id: `order-${id}`, type: 'letter', status: { old: 0, new: 1 }, updated_at: serviceTime() },
	};
	return Buffer.from(JSON.stringify(envelope).replace('"__ID__"', id));
}

interface Tally {
	distinct: number;
	attempts: number;
	executions: number;
	downstream: number;
	lost: number;
	twice: number;
	leaks: number;
}

async function runScenario(keys: Array<[string, string]>, seed: number, mode: Mode, tally: Tally): Promise<void> {
	const random = mulberry32(seed);
	const workflowId = randomUUID();
	let database: IDataObject = {};
	const runsAfter = new Map<string, number>();
	const bodies = keys.map(([environment, id]) => ({ key: `${environment}:${id}`, rawBody: body(environment, id), environment, id }));
	// Every delivery once, then resends of some, in a shuffled order.
	const queue = [...bodies];
	for (const delivery of bodies) for (let n = Math.floor(random() * 4); n > 0; n--) queue.push(delivery);
	for (let i = queue.length - 1; i > 0; i--) {
		const j = Math.floor(random() * (i + 1));
		[queue[i], queue[j]] = [queue[j], queue[i]];
	}
	const failures = new Map<string, number>();
	if (mode.forgetful) forgetProcessMemory();
	while (queue.length > 0) {
		if (mode.forgetful && random() < 0.15) forgetProcessMemory();
		const batch = queue.splice(0, 1 + Math.floor(random() * 10));
		await Promise.all(
			batch.map(async (delivery) => {
				const failed = failures.get(delivery.key) ?? 0;
				// Faults on the first three attempts at most, so that the service's last retry gets through.
				const roll = random();
				const fault: Fault =
					!mode.faults || failed >= 3
						? 'none'
						: roll < 0.1
							? 'execution does not start'
							: roll < 0.18
								? 'answer lost'
								: mode.forgetful && roll < 0.23
									? 'n8n dies before the execution runs'
									: 'none';
				const request = signed(delivery.rawBody, { event: 'order.status_updated', environment: delivery.environment, delivery_id: delivery.id });
				const loaded = JSON.parse(JSON.stringify(database)) as IDataObject;
				const result = await deliver(request, {
					workflowId,
					parameters: { environment: 'both' },
					staticData: loaded,
					executionStaticData: 'reloaded',
					failExecutionStart: fault === 'execution does not start',
					executionDies: fault === 'n8n dies before the execution runs',
					beforeExecution: mode.forgetful && random() < 0.1 ? () => forgetProcessMemory() : undefined,
				});
				tally.attempts++;
				tally.leaks += countSecretLeaks(producedText(result), [{ secret: SECRET }]);
				// What the process knew dies with it.
				if (fault === 'n8n dies before the execution runs') forgetProcessMemory();
				// n8n writes static data back when it changed: after webhook(), and at the execution's end.
				if (JSON.stringify(result.staticData) !== JSON.stringify(loaded)) database = JSON.parse(JSON.stringify(result.staticData));
				if (result.started) tally.executions++;
				for (const item of result.run?.output(AFTER) ?? []) {
					const key = `${String(item.json.environment)}:${String(item.json.delivery_id)}`;
					runsAfter.set(key, (runsAfter.get(key) ?? 0) + 1);
				}
				const ok = result.response.ended && result.response.statusCode >= 200 && result.response.statusCode < 300 && fault !== 'answer lost';
				if (!ok) {
					failures.set(delivery.key, failed + 1);
					queue.push(delivery);
				}
			}),
		);
	}
	tally.distinct += bodies.length;
	for (const { key } of bodies) {
		const runs = runsAfter.get(key) ?? 0;
		tally.downstream += runs;
		if (runs === 0) tally.lost++;
		if (runs > 1) tally.twice += runs - 1;
	}
	for (const key of runsAfter.keys()) if (!bodies.some((b) => b.key === key)) tally.twice += runsAfter.get(key)!;
}

/**
 * Copies of each delivery reach as many webhook processes at the same moment (none of them knows
 * of the others), and one worker runs all their executions at once.
 */
async function runSimultaneousCopies(keys: Array<[string, string]>, seed: number, tally: Tally): Promise<void> {
	const random = mulberry32(seed);
	const workflowId = randomUUID();
	const runsAfter = new Map<string, number>();
	const deliveries = keys.map(([environment, id]) => ({ key: `${environment}:${id}`, environment, id, rawBody: body(environment, id) }));
	const send = async (delivery: (typeof deliveries)[number], copies: number): Promise<void> => {
		let allStarted!: () => void;
		const barrier = new Promise<void>((resolve) => (allStarted = resolve));
		const outcomes: Array<Promise<Awaited<ReturnType<typeof deliver>>>> = [];
		const copy = (n: number): void => {
			const request = signed(delivery.rawBody, { event: 'order.status_updated', environment: delivery.environment, delivery_id: delivery.id });
			outcomes.push(
				deliver(request, {
					workflowId,
					parameters: { environment: 'both' },
					staticData: {},
					beforeExecution: async () => {
						if (n + 1 === copies) return allStarted();
						// The next copy reaches another webhook process: it knows nothing of this one.
						forgetProcessMemory();
						copy(n + 1);
						await barrier;
					},
				}),
			);
		};
		copy(0);
		while (outcomes.length < copies) await new Promise((resolve) => setImmediate(resolve));
		for (const result of await Promise.all(outcomes)) {
			tally.attempts++;
			tally.leaks += countSecretLeaks(producedText(result), [{ secret: SECRET }]);
			if (result.started) tally.executions++;
			for (const item of result.run?.output(AFTER) ?? []) {
				const key = `${String(item.json.environment)}:${String(item.json.delivery_id)}`;
				runsAfter.set(key, (runsAfter.get(key) ?? 0) + 1);
			}
		}
	};
	// One delivery alone first, so that n8n's store has its row to read and write when copies race.
	await send(deliveries[0], 1);
	for (let at = 1; at < deliveries.length; ) {
		const group = deliveries.slice(at, at + 1 + Math.floor(random() * 5));
		at += group.length;
		await Promise.all(group.map((delivery) => send(delivery, 2 + Math.floor(random() * 3))));
	}
	tally.distinct += deliveries.length;
	for (const { key } of deliveries) {
		const runs = runsAfter.get(key) ?? 0;
		tally.downstream += runs;
		if (runs === 0) tally.lost++;
		if (runs > 1) tally.twice += runs - 1;
	}
	forgetProcessMemory();
}

async function runMode(mode: Mode, index: number, context: SuiteContext): Promise<{ row: ReliabilityRow; leaks: number; attempts: number }> {
	const count = Math.max(1, Math.round(mode.scenarios * context.scale));
	const seed = context.seed + 100 + index;
	const tally: Tally = { distinct: 0, attempts: 0, executions: 0, downstream: 0, lost: 0, twice: 0, leaks: 0 };
	for (const { keys, prng } of fc.sample(scenario, { seed, numRuns: count })) {
		if (mode.simultaneous) await runSimultaneousCopies(keys as Array<[string, string]>, prng, tally);
		else await runScenario(keys as Array<[string, string]>, prng, mode, tally);
	}
	const extraExecutions = tally.executions - tally.distinct;
	const bad = Math.abs(tally.downstream - tally.distinct) + tally.lost + (mode.forgetful ? 0 : Math.abs(extraExecutions));
	return {
		row: {
			suite: 'Duplicate fuzz',
			case: mode.name,
			runs: tally.attempts,
			measure: mode.forgetful ? 'runs after the trigger vs distinct deliveries; lost' : 'executions and runs after the trigger vs distinct deliveries; lost',
			bad,
			note: `${tally.distinct} distinct, ${tally.executions} executions, ${tally.downstream} runs after the trigger, ${tally.lost} lost, ${tally.twice} twice`,
		},
		leaks: tally.leaks,
		attempts: tally.attempts,
	};
}

export const suite: ReliabilitySuite = {
	name: 'Duplicate fuzz',
	async run(context) {
		const rows: ReliabilityRow[] = [];
		let leaks = 0;
		let attempts = 0;
		const started = Date.now();
		try {
			for (const [index, mode] of MODES.entries()) {
				const result = await runMode(mode, index, context);
				rows.push(result.row);
				leaks += result.leaks;
				attempts += result.attempts;
			}
		} finally {
			forgetProcessMemory();
		}
		rows.push({
			suite: 'Duplicate fuzz',
			case: 'signing secret in answers and execution data',
			runs: attempts,
			measure: 'occurrences of the secret (raw, URL-, form-, base64-encoded)',
			bad: leaks,
		});
		context.log(`${attempts} deliveries in ${((Date.now() - started) / 1000).toFixed(1)} s`);
		return rows;
	},
};
