/**
 * Duplicate fuzz: genuine deliveries sent as the service sends them (at least once: retries after
 * errors, resends from the panel), shuffled, several at a time, from both environments, with ids
 * that collide across environments and ids above 2^53, to the trigger in n8n's engine. n8n is
 * modelled as it keeps state: static data loaded from its database for every request and written
 * back at the end of each execution (last writer wins), its processed-data store shared.
 *
 * Deliveries come with and without `environment` in the body (then with either header), and in
 * some modes every retry and resend carries a new delivery_id. A family of its own injects
 * failures of n8n's processed-data store at every step of the trigger's check and confirmation.
 *
 * Figures: runs of the node after the trigger = distinct deliveries; none lost.
 */
import { randomUUID } from 'node:crypto';

import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { forgetProcessMemory } from '../../nodes/PostalServiceTrigger/deliveryMemory';
import { processedData } from '../harness/engine';
import type { StoreFault } from '../harness/processedData';
import { countSecretLeaks, type ReliabilityRow, type ReliabilitySuite, type SuiteContext } from './types';
import { AFTER, deliver, producedText, SECRET, signed } from './triggerRig';

type Fault = 'none' | 'execution does not start' | 'answer lost' | 'n8n dies before the execution runs';

interface Mode {
	name: string;
	faults: boolean;
	/** n8n restarts between batches, and copies reach a process that knows nothing of the first. */
	forgetful: boolean;
	/** Every delivery arrives as 2 to 4 copies at as many webhook processes at once. */
	simultaneous?: boolean;
	/** Every retry and resend carries a new delivery_id (the other reading of the interface). */
	renumbered?: boolean;
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
		name: 'the same, every retry and resend under a new delivery_id',
		faults: true,
		forgetful: true,
		renumbered: true,
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

/**
 * The bytes the service sends for one delivery: the id written as digits, whatever its size; the
 * order named after the delivery, so an item tells which delivery it ran. `deliveryId` differs
 * from `id` for a retry numbered anew.
 */
function body(environment: string, id: string, deliveryId = id): Buffer {
	const envelope = {
		event: 'order.status_updated',
		...(environment === 'none' ? {} : { environment }),
		timestamp: '2026-11-20 10:00:00',
		webhook_id: 3,
		delivery_id: '__ID__',
		data: { id: `order-${id}`, type: 'letter', status: { old: 0, new: 1 }, updated_at: '2026-11-20 10:00:00' },
	};
	return Buffer.from(JSON.stringify(envelope).replace('"__ID__"', deliveryId));
}

/** The delivery an item ran: its environment (or none) and the id of its first attempt. */
const ranKey = (json: IDataObject) =>
	`${typeof json.environment === 'string' ? json.environment : 'none'}:${String((json.data as IDataObject).id).slice('order-'.length)}`;

/** The headers' environment of a body without one: either, as an unsigned header may say. */
const headerEnvironment = (environment: string, random: () => number) =>
	environment === 'none' ? (random() < 0.5 ? 'production' : 'homolog') : environment;

let renumbering = 10n ** 17n;

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
	const bodies = keys.map(([environment, id]) => ({
		key: `${environment}:${id}`,
		rawBody: body(environment, id),
		environment,
		id,
		/** Attempts made so far (retries and resends). */
		sent: 0,
	}));
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
				const deliveryId = mode.renumbered && delivery.sent > 0 ? String(renumbering++) : delivery.id;
				const rawBody = deliveryId === delivery.id ? delivery.rawBody : body(delivery.environment, delivery.id, deliveryId);
				delivery.sent++;
				const request = signed(rawBody, { event: 'order.status_updated', environment: headerEnvironment(delivery.environment, random), delivery_id: deliveryId });
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
					const key = ranKey(item.json);
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
			const request = signed(delivery.rawBody, { event: 'order.status_updated', environment: headerEnvironment(delivery.environment, random), delivery_id: delivery.id });
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
				const key = ranKey(item.json);
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


/** Failure patterns of the store: which calls of the first attempt fail, counted from `step`. */
const FAULT_PATTERNS: Array<{ name: string; calls: (step: number) => number[] }> = [
	{ name: 'one call', calls: (step) => [step] },
	{ name: 'two calls in a row', calls: (step) => [step, step + 1] },
	{ name: 'three calls in a row', calls: (step) => [step, step + 1, step + 2] },
	{ name: 'every call (store down)', calls: () => Array.from({ length: 40 }, (_, i) => i) },
];

/**
 * Beyond the calls a first attempt makes when nothing fails (the check, each look of the
 * confirmation), those a failure can add: the check's second try and rounds that record again.
 */
const CALLS_A_FAILURE_ADDS = 4;

interface FaultTally {
	cases: number;
	attempts: number;
	lostAfter2xx: number;
	lost: number;
	twice: number;
	failedExecutions: number;
}

/**
 * One delivery whose first attempt meets the given store failures, with Cross-Worker Check Wait
 * on; then what follows in life: the user may retry the failed execution from n8n's list, the
 * service retries until it gets a 2xx (as the same bytes or, in the other reading, under a new
 * delivery_id), and a resend from the panel comes later.
 */
async function runStoreFaultCase(
	faults: StoreFault[],
	options: { rowExists: boolean; userRetries: boolean; renumbered: boolean },
	tally: FaultTally,
): Promise<number> {
	const workflowId = randomUUID();
	const parameters = { environment: 'both', options: { crossWorkerWaitMs: 20 } };
	let database: IDataObject = {};
	const id = String(renumbering++);
	const send = async (deliveryId: string, extra: { mode?: 'retry' } = {}) => {
		const request = signed(body('production', id, deliveryId), { event: 'order.status_updated', environment: 'production', delivery_id: deliveryId });
		const loaded = JSON.parse(JSON.stringify(database)) as IDataObject;
		const result = await deliver(request, { workflowId, parameters, staticData: loaded, executionStaticData: 'reloaded', ...extra });
		if (JSON.stringify(result.staticData) !== JSON.stringify(loaded)) database = JSON.parse(JSON.stringify(result.staticData));
		tally.attempts++;
		const runs = result.run?.output(AFTER).length ?? 0;
		const ok = result.response.ended && result.response.statusCode >= 200 && result.response.statusCode < 300;
		return { runs, ok, failed: result.run?.error !== undefined };
	};
	if (options.rowExists) {
		const earlier = String(renumbering++);
		const request = signed(body('production', earlier), { event: 'order.status_updated', environment: 'production', delivery_id: earlier });
		database = (await deliver(request, { workflowId, parameters, staticData: database, executionStaticData: 'reloaded' })).staticData;
	}
	processedData.failCalls(workflowId, faults);
	const first = await send(id);
	const firstAttemptCalls = processedData.callsSinceFaults(workflowId);
	processedData.failCalls(workflowId, []);
	let runs = first.runs;
	let answered2xx = first.ok;
	if (first.failed) tally.failedExecutions++;
	if (first.failed && options.userRetries) runs += (await send(id, { mode: 'retry' })).runs;
	for (let retry = 0; !answered2xx && retry < 3; retry++) {
		const outcome = await send(options.renumbered ? String(renumbering++) : id);
		runs += outcome.runs;
		answered2xx = outcome.ok;
	}
	const resend = await send(options.renumbered ? String(renumbering++) : id);
	runs += resend.runs;
	answered2xx ||= resend.ok;
	tally.cases++;
	if (runs === 0) tally.lost++;
	if (runs === 0 && answered2xx) tally.lostAfter2xx++;
	if (runs > 1) tally.twice += runs - 1;
	return firstAttemptCalls;
}

async function runStoreFaults(context: SuiteContext): Promise<ReliabilityRow[]> {
	const rows: ReliabilityRow[] = [];
	// The steps come from what the trigger does: a call it adds is a step the faults are tried at.
	const clean: FaultTally = { cases: 0, attempts: 0, lostAfter2xx: 0, lost: 0, twice: 0, failedExecutions: 0 };
	const cleanCalls = await runStoreFaultCase([], { rowExists: true, userRetries: false, renumbered: false }, clean);
	if (clean.lost + clean.twice > 0 || cleanCalls < 2) throw new Error(`without store faults a delivery was lost ${clean.lost}, ran twice ${clean.twice}, made ${cleanCalls} store calls`);
	for (const pattern of FAULT_PATTERNS) {
		const tally: FaultTally = { cases: 0, attempts: 0, lostAfter2xx: 0, lost: 0, twice: 0, failedExecutions: 0 };
		const steps = pattern.name.startsWith('every') ? 1 : cleanCalls + CALLS_A_FAILURE_ADDS;
		for (let step = 0; step < steps; step++) {
			for (const when of ['before', 'after'] as const) {
				for (const rowExists of [false, true]) {
					for (const userRetries of [false, true]) {
						for (const renumbered of [false, true]) {
							const faults = pattern.calls(step).map((call) => ({ call, when }));
							await runStoreFaultCase(faults, { rowExists, userRetries, renumbered }, tally);
						}
					}
				}
			}
		}
		forgetProcessMemory();
		rows.push({
			suite: 'Duplicate fuzz',
			case: `store fails ${pattern.name} at each step of the check and confirmation (before or after its write), Cross-Worker Check Wait on`,
			runs: tally.attempts,
			measure: 'deliveries lost after a 2xx; lost; run twice',
			bad: tally.lostAfter2xx + tally.lost + tally.twice,
			note: `${tally.cases} cases, ${tally.failedExecutions} first executions failed, ${tally.lostAfter2xx} lost after 2xx, ${tally.lost} lost, ${tally.twice} twice`,
		});
	}
	context.log(`store faults: ${rows.length} rows, faults tried at each of the first ${cleanCalls + CALLS_A_FAILURE_ADDS} calls (${cleanCalls} without a fault)`);
	return rows;
}

/**
 * Bodies without `environment` under a one-environment filter, whatever the unsigned header says:
 * none may start the workflow (and none of either environment may be dropped for their header).
 */
async function runWithoutEnvironment(context: SuiteContext): Promise<ReliabilityRow> {
	let attempts = 0;
	let bad = 0;
	const count = Math.max(1, Math.round(40 * context.scale));
	for (let n = 0; n < count; n++) {
		for (const wanted of ['production', 'homolog']) {
			for (const environment of ['none', 'production', 'homolog']) {
				for (const header of ['production', 'homolog']) {
					const id = String(renumbering++);
					const request = signed(body(environment, id), { event: 'order.status_updated', environment: header, delivery_id: id });
					const result = await deliver(request, { parameters: { environment: wanted } });
					attempts++;
					const ran = (result.run?.output(AFTER).length ?? 0) > 0;
					if (ran !== (environment === wanted) || result.response.statusCode !== 200) bad++;
				}
			}
		}
	}
	forgetProcessMemory();
	return {
		suite: 'Duplicate fuzz',
		case: 'bodies with and without environment, under Production or Homolog, with either X-Webhook-Environment header',
		runs: attempts,
		measure: 'deliveries taken or dropped other than by the signed body',
		bad,
	};
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
		rows.push(...(await runStoreFaults(context)));
		rows.push(await runWithoutEnvironment(context));
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
