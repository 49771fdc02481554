/**
 * The execution's side of duplicate dropping: execute() runs inside the execution a delivery
 * started (n8n runs a webhook node's execute() with what webhook() returned), so reaching it means
 * the execution ran. There the delivery is checked against, and recorded in, n8n's processed-data
 * store (the table behind the Remove Duplicates node, shared by every n8n process of a queue-mode
 * setup), and a delivery already recorded by another execution leaves the trigger with no item:
 * nothing after the trigger runs for it.
 *
 * n8n's store reads and then writes its row without a lock, so the check is serialized per node
 * in this process; two processes (queue-mode workers) checking the same delivery at the same moment
 * can both pass, and each then writes its own record over the other's. So a new delivery is
 * confirmed after a wait (`confirmFirstDeliveries`): the execution whose record survived runs on. The
 * service has been told 200 by then: a store that fails during the confirmation lets the run go on.
 *
 * A delivery has up to two keys (its delivery_id, and its event), each recorded as `d:<key>`; the
 * execution's own record (`x:<execution>:<first key>`) tells a rerun of the same execution apart.
 */
import type { IDataObject, IDeduplicationOutput, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import type { TriggerOptions } from './description';
import { deliveryKeys } from './deliveryKeys';
import { nodeMemory, type NodeMemory, storedKeys, storeKeys } from './deliveryMemory';

/** Deliveries n8n's processed-data store remembers per node (three entries each); the oldest go first. */
const PROCESSED_WINDOW = 5000;

/**
 * How long a new delivery's record is left to settle before it is confirmed, when the option is
 * added: far longer than one read-and-write of n8n's store (milliseconds), so that a record
 * another worker read before ours and writes after it has landed by then. Not added, there is no
 * wait: n8n stopping during it would lose a delivery already answered and recorded, a price one
 * n8n process or one worker should not pay for a check it does not need.
 */
export const CROSS_WORKER_WAIT_MS = 1000;

/** Confirmation rounds before a delivery whose record keeps being overwritten runs anyway (losing it would be worse). */
const CONFIRM_ROUNDS = 6;

/**
 * A loaded machine or database stretches every read-and-write of the store, the other worker's
 * too: the wait is at least this many times the slowest recent call made here (at most 15 s).
 * Measured in queue mode on 2 busy cores: with a fixed 1 s, 1 of 1,000 simultaneous copies still
 * ran twice.
 */
const SLOW_CALL_FACTOR = 4;
const LONGEST_WAIT_MS = 15_000;

interface KeyedItem {
	item: INodeExecutionData;
	index: number;
	/** The delivery's keys, its delivery_id's first; none when it cannot be told from another. */
	keys?: string[];
}

const STORE_OPTIONS = { mode: 'entries' as const, maxEntries: PROCESSED_WINDOW * 3 };

type Delivery = KeyedItem & { keys: [string, ...string[]] };

const hasKeys = (keyed: KeyedItem): keyed is Delivery => keyed.keys !== undefined && keyed.keys.length > 0;

/** One item per delivery (the first key names it), leaving out items without keys. */
const distinctDeliveries = (keyed: KeyedItem[]): Delivery[] => [...new Map(keyed.filter(hasKeys).map((k) => [k.keys[0], k])).values()];

/** This execution's record of running a delivery, beside the delivery's own records (`d:<key>`). */
const runRecord = (execution: string, delivery: Delivery) => `x:${execution}:${delivery.keys[0]}`;

interface Recorded {
	/** One of the delivery's keys was recorded before this call, by any execution. */
	delivery: boolean;
	/** This execution's record of running it was there before this call. */
	ownRun: boolean;
	/** The delivery's keys that were recorded before this call. */
	seen: string[];
}

/**
 * The input items whose delivery has not run before (with their input index), recording them as
 * run. Items without a key always pass; so do all items of a retry the user asked for from n8n's
 * execution list (mode "retry"), which reaches the trigger only when its own step failed.
 */
export async function keepFirstDeliveries(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<KeyedItem[]> {
	const options = this.getNodeParameter('options', 0, {}) as TriggerOptions;
	const keyed: KeyedItem[] = items.map((item, index) => ({ item, index, keys: deliveryKeys(item.json, options.dropRepeatedEvents !== false) }));
	const deliveries = distinctDeliveries(keyed);
	if (deliveries.length === 0) return keyed;
	const memory = nodeMemory(this.getWorkflow().id, this.getNode().id);
	return await memory.exclusive(async () => {
		const staticData = this.getWorkflowStaticData('node');
		const running = await deliveriesToRun.call(this, deliveries, memory, staticData);
		const allKeys = deliveries.flatMap(({ keys }) => keys);
		// Every one of them has run now: here, or in the execution that recorded it first.
		memory.recordRuns(allKeys);
		storeKeys(staticData, memory.ranKeys());
		const retry = this.getMode() === 'retry';
		const emitted = new Set<string>();
		return keyed.filter((delivery) => {
			if (!hasKeys(delivery)) return true;
			const { keys } = delivery;
			if ((!retry && !running.has(keys[0])) || keys.some((key) => emitted.has(key))) return false;
			for (const key of keys) emitted.add(key);
			return true;
		});
	});
}

/** The first keys of the deliveries that run here. */
async function deliveriesToRun(
	this: IExecuteFunctions,
	deliveries: Delivery[],
	memory: NodeMemory,
	staticData: IDataObject,
): Promise<Set<string>> {
	// n8n releases without the processed-data store: this process and static data are all there is.
	if (typeof this.helpers.checkProcessedAndRecord !== 'function') {
		const stored = new Set(storedKeys(staticData));
		const ran = (key: string) => stored.has(key) || memory.hasRun(key);
		return new Set(deliveries.filter(({ keys }) => !keys.some(ran)).map(({ keys }) => keys[0]));
	}
	let recorded: ((delivery: Delivery) => Recorded) | undefined;
	try {
		recorded = await recordRuns.call(this, deliveries, memory);
	} finally {
		if (recorded === undefined) memory.noteFailedCheck(deliveries.flatMap(({ keys }) => keys));
	}
	// The same execution run again (Retry On Fail, a job n8n restarts after a worker died) still
	// passes, and so does the service's retry of an execution whose check failed here.
	const runs = (d: Delivery) => {
		const { delivery, ownRun, seen } = recorded(d);
		return !delivery || ownRun || seen.every((key) => memory.checkFailed(key));
	};
	return new Set(deliveries.filter(runs).map(({ keys }) => keys[0]));
}

/**
 * Checks and records each delivery's keys and this execution's run of it. Says, per delivery,
 * which records were there before.
 */
async function recordRuns(this: IExecuteFunctions, deliveries: Delivery[], memory: NodeMemory): Promise<(delivery: Delivery) => Recorded> {
	const execution = this.getExecutionId();
	const started = Date.now();
	let output: IDeduplicationOutput;
	try {
		output = await checkAndRecord.call(
			this,
			deliveries.flatMap((delivery) => [...delivery.keys.map((key) => `d:${key}`), runRecord(execution, delivery)]),
		);
	} finally {
		memory.noteStoreCall(Date.now() - started);
	}
	const seen = new Set(output.processed.map(String));
	return (delivery) => {
		const recorded = delivery.keys.filter((key) => seen.has(`d:${key}`));
		return { delivery: recorded.length > 0, ownRun: seen.has(runRecord(execution, delivery)), seen: recorded };
	};
}

async function checkAndRecord(this: IExecuteFunctions, values: string[]): Promise<IDeduplicationOutput> {
	try {
		return await this.helpers.checkProcessedAndRecord(values, 'node', STORE_OPTIONS);
	} catch {
		// The first record of a node is an insert; two processes inserting it at once make one fail.
		// The row exists by now, so a second attempt reads it (and finds this execution's own record
		// when the first attempt's write landed before its answer was lost).
		await sleep(50);
		try {
			return await this.helpers.checkProcessedAndRecord(values, 'node', STORE_OPTIONS);
		} catch (error) {
			throw new NodeOperationError(this.getNode(), error as Error, {
				message: 'Could not check whether this delivery already ran',
				description:
					"n8n's processed-data store (its database) did not answer, so the trigger cannot tell a first delivery from a resend. The service was not told the delivery arrived, and sends it again; you can also retry this execution from the execution list.",
			});
		}
	}
}

/**
 * Of the deliveries `keepFirstDeliveries` let on, those whose record is still this execution's at
 * two looks `waitMs` apart. Every writer of n8n's store writes the whole row it read, so after two
 * workers both let a delivery on, the row holds one execution's record of it, never both: the
 * execution that finds its own record twice runs; one that finds only another execution's record
 * stops. The second look is there because a write can land long after its read (a busy database
 * queues updates of the row): one that erased this record after the first look still shows at the
 * second, and its writer runs the delivery instead. One that finds neither lost its record to a
 * write about another delivery; the same call has recorded it again, so it waits and looks again.
 * The service has been told 200: should the store fail, the deliveries not yet settled run (losing
 * them would be worse than a rare second run).
 */
export async function confirmFirstDeliveries(this: IExecuteFunctions, kept: KeyedItem[], waitMs: number): Promise<KeyedItem[]> {
	let pending = distinctDeliveries(kept);
	if (waitMs <= 0 || pending.length === 0 || typeof this.helpers.checkProcessedAndRecord !== 'function') return kept;
	if (this.getMode() === 'retry') return kept;
	const memory = nodeMemory(this.getWorkflow().id, this.getNode().id);
	const lost = new Set<string>();
	const foundOnce = new Set<string>();
	try {
		for (let round = 0; round < CONFIRM_ROUNDS && pending.length > 0; round++) {
			await sleep(Math.min(LONGEST_WAIT_MS, Math.max(waitMs, SLOW_CALL_FACTOR * memory.slowStoreCallMs())));
			pending = await memory.exclusive(async () => {
				const recorded = await recordRuns.call(this, pending, memory);
				const next: Delivery[] = [];
				const otherRecord: Delivery[] = [];
				for (const delivery of pending) {
					const [key] = delivery.keys;
					const { ownRun, delivery: seen } = recorded(delivery);
					if (!ownRun && seen) {
						// Another execution's record holds: that one runs it.
						lost.add(key);
						otherRecord.push(delivery);
					} else if (!ownRun) {
						// Erased by a write about another delivery: recorded again, looked at anew.
						foundOnce.delete(key);
						next.push(delivery);
					} else if (!foundOnce.has(key)) {
						foundOnce.add(key);
						next.push(delivery);
					}
					// Otherwise its own record held at two looks: it runs.
				}
				// The check just wrote this execution's record beside the other one: take it out again, so
				// that this execution run once more (a restarted job) does not take it for its own.
				const execution = this.getExecutionId();
				if (otherRecord.length > 0) await removeRecords.call(this, otherRecord.map((d) => runRecord(execution, d)));
				return next;
			});
		}
	} catch (error) {
		this.logger.warn(`Postal Service Trigger: the delivery runs although n8n's processed-data store failed while confirming it: ${(error as Error).message}`);
	}
	return kept.filter((delivery) => !hasKeys(delivery) || !lost.has(delivery.keys[0]));
}

async function removeRecords(this: IExecuteFunctions, values: string[]): Promise<void> {
	try {
		await this.helpers.removeProcessed(values, 'node', STORE_OPTIONS);
	} catch {
		// Left in place, the record only matters to this same execution run again.
	}
}
