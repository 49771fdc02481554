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
 * confirmed after a wait (`confirmFirstRuns`): the execution whose record survived runs on.
 */
import type { IDataObject, IDeduplicationOutput, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { deliveryKey, nodeMemory, type NodeMemory, storedKeys, storeKeys } from './deliveryMemory';

/** Deliveries n8n's processed-data store remembers per node (two entries each); the oldest go first. */
export const PROCESSED_WINDOW = 5000;

/**
 * How long a new delivery's record is left to settle before it is confirmed, when the option is
 * added: far longer than one read-and-write of n8n's store (milliseconds), so that a record
 * another worker read before ours and writes after it has landed by then. Not added, there is no
 * wait: n8n stopping during it would lose a delivery already answered and recorded, a price one
 * n8n process or one worker should not pay for a check it does not need.
 */
export const CROSS_WORKER_WAIT_MS = 1000;

/** Confirmation rounds before a delivery whose record keeps being overwritten runs anyway (losing it would be worse). */
const CONFIRM_ROUNDS = 5;

/**
 * A loaded machine or database stretches every read-and-write of the store, the other worker's
 * too: the wait is at least this many times the slowest recent call made here (at most 15 s).
 * Measured in queue mode on 2 busy cores: with a fixed 1 s, 1 of 1,000 simultaneous copies still
 * ran twice.
 */
const SLOW_CALL_FACTOR = 4;
const LONGEST_WAIT_MS = 15_000;

export interface Keyed {
	item: INodeExecutionData;
	index: number;
	key?: string;
}

const STORE_OPTIONS = { mode: 'entries' as const, maxEntries: PROCESSED_WINDOW * 2 };

const distinctKeys = (keyed: Keyed[]) => [...new Set(keyed.flatMap(({ key }) => (key === undefined ? [] : [key])))];

/** This execution's record of running a delivery, beside the delivery's own record (`d:<key>`). */
const runRecord = (execution: string, key: string) => `x:${execution}:${key}`;

interface Recorded {
	/** The delivery was recorded before this call, by any execution. */
	delivery: boolean;
	/** This execution's record of running it was there before this call. */
	ownRun: boolean;
}

/**
 * The input items whose delivery has not run before (with their input index), recording them as
 * run. Items without a delivery_id always pass.
 */
export async function firstRuns(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<Keyed[]> {
	const keyed: Keyed[] = items.map((item, index) => ({ item, index, key: deliveryKey(item.json) }));
	const keys = distinctKeys(keyed);
	if (keys.length === 0) return keyed;
	const memory = nodeMemory(this.getWorkflow().id, this.getNode().id);
	return await memory.exclusive(async () => {
		const staticData = this.getWorkflowStaticData('node');
		const running = await keysToRun.call(this, keys, memory, staticData);
		// Every one of them has run now: here, or in the execution that recorded it first.
		memory.recordRuns(keys);
		storeKeys(staticData, memory.ranKeys());
		const emitted = new Set<string>();
		return keyed.filter(({ key }) => {
			if (key === undefined) return true;
			if (!running.has(key) || emitted.has(key)) return false;
			emitted.add(key);
			return true;
		});
	});
}

async function keysToRun(
	this: IExecuteFunctions,
	keys: string[],
	memory: NodeMemory,
	staticData: IDataObject,
): Promise<Set<string>> {
	// n8n releases without the processed-data store: this process and static data are all there is.
	if (typeof this.helpers.checkProcessedAndRecord !== 'function') {
		const stored = new Set(storedKeys(staticData));
		return new Set(keys.filter((key) => !stored.has(key) && !memory.hasRun(key)));
	}
	// The same execution run again (Retry On Fail, a job n8n restarts after a worker died) still passes.
	const recorded = await recordRuns.call(this, keys, memory);
	return new Set(keys.filter((key) => !recorded(key).delivery || recorded(key).ownRun));
}

/**
 * Checks and records each delivery twice: as such, and as run by this execution. Says, per key,
 * which of the two records were there before.
 */
async function recordRuns(this: IExecuteFunctions, keys: string[], memory: NodeMemory): Promise<(key: string) => Recorded> {
	const execution = this.getExecutionId();
	const started = Date.now();
	let output: IDeduplicationOutput;
	try {
		output = await checkAndRecord.call(this, keys.flatMap((key) => [`d:${key}`, runRecord(execution, key)]));
	} finally {
		memory.noteStoreCall(Date.now() - started);
	}
	const seen = new Set(output.processed.map(String));
	return (key) => ({ delivery: seen.has(`d:${key}`), ownRun: seen.has(runRecord(execution, key)) });
}

async function checkAndRecord(this: IExecuteFunctions, values: string[]): Promise<IDeduplicationOutput> {
	try {
		return await this.helpers.checkProcessedAndRecord(values, 'node', STORE_OPTIONS);
	} catch {
		// The first record of a node is an insert; two processes inserting it at once make one fail.
		// The row exists by now, so a second attempt reads it.
		await sleep(50);
		try {
			return await this.helpers.checkProcessedAndRecord(values, 'node', STORE_OPTIONS);
		} catch (error) {
			throw new NodeOperationError(this.getNode(), error as Error, {
				message: 'Could not check whether this delivery already ran',
				description:
					"n8n's processed-data store (its database) did not answer, so the trigger cannot tell a first delivery from a resend. Retry this execution once the database is back.",
			});
		}
	}
}

/**
 * Of the deliveries `firstRuns` let on, those whose record is still this execution's after
 * `waitMs`. Every writer of n8n's store writes the whole row it read, so after two workers both
 * let a delivery on, the row holds one execution's record of it, never both: the execution that
 * finds its own record runs; one that finds only another execution's record stops. One that finds
 * neither lost its record to a write about another delivery; the same call has recorded it again,
 * so it waits and looks once more.
 */
export async function confirmFirstRuns(this: IExecuteFunctions, kept: Keyed[], waitMs: number): Promise<Keyed[]> {
	let pending = distinctKeys(kept);
	if (waitMs <= 0 || pending.length === 0 || typeof this.helpers.checkProcessedAndRecord !== 'function') return kept;
	const memory = nodeMemory(this.getWorkflow().id, this.getNode().id);
	const lost = new Set<string>();
	for (let round = 0; round < CONFIRM_ROUNDS && pending.length > 0; round++) {
		await sleep(Math.min(LONGEST_WAIT_MS, Math.max(waitMs, SLOW_CALL_FACTOR * memory.slowStoreCallMs())));
		pending = await memory.exclusive(async () => {
			const recorded = await recordRuns.call(this, pending, memory);
			const otherRecord = pending.filter((key) => !recorded(key).ownRun && recorded(key).delivery);
			for (const key of otherRecord) lost.add(key);
			// The check just wrote this execution's record beside the other one: take it out again, so
			// that this execution run once more (a restarted job) does not take it for its own.
			const execution = this.getExecutionId();
			if (otherRecord.length > 0) await removeRecords.call(this, otherRecord.map((key) => runRecord(execution, key)));
			return pending.filter((key) => !recorded(key).ownRun && !recorded(key).delivery);
		});
	}
	return kept.filter(({ key }) => key === undefined || !lost.has(key));
}

async function removeRecords(this: IExecuteFunctions, values: string[]): Promise<void> {
	try {
		await this.helpers.removeProcessed(values, 'node', STORE_OPTIONS);
	} catch {
		// Left in place, the record only matters to this same execution run again.
	}
}
