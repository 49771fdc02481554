/**
 * The one record of the deliveries that ran: n8n's processed-data store (the table behind the
 * Remove Duplicates node, shared by every process of a queue-mode setup), checked and written
 * inside the execution a delivery started. A delivery already recorded leaves the trigger with no
 * item, so nothing after the trigger runs for it.
 *
 * n8n has answered the service before this runs, so a delivery is never dropped for want of an
 * answer from the store: when the store fails, the delivery runs and a warning is logged.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

/**
 * The field of an item that carries the delivery's keys from webhook() to execute(), beside `json`
 * so that the workflow never sees it.
 */
export const KEYS_FIELD = 'deliveryKeys';

/** Two keys per delivery: the node remembers its last 5,000 deliveries; the oldest go first. */
const STORE_OPTIONS = { mode: 'entries', maxEntries: 10_000 } as const;

/** At most this many keys wait to be written after the store failed; the oldest go first. */
const MAX_UNWRITTEN = 10_000;

interface NodeQueue {
	/** The check under way: n8n's store reads and then writes its row without a lock, so one at a time. */
	last: Promise<unknown>;
	/** Keys of deliveries that ran while the store failed: written before the node's next check here. */
	unwritten: Set<string>;
}

/** One queue per trigger node in this process (by node id, which stays when the node is renamed). */
const queues = new Map<string, NodeQueue>();

/**
 * The input items whose delivery has not run before, recorded as run, without the carried keys.
 * Only production executions are checked: a test execution ("Listen for test event") and a retry
 * the user asked for from n8n's execution list run as they are, and record nothing.
 */
export async function keepFirstDeliveries(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const scope = `${this.getWorkflow().id ?? ''}\u0000${this.getNode().id}`;
	const queue = queues.get(scope) ?? { last: Promise.resolve(), unwritten: new Set<string>() };
	queues.set(scope, queue);
	const kept: INodeExecutionData[] = [];
	for (const [index, { [KEYS_FIELD]: carried, ...item }] of this.getInputData().entries()) {
		const keys = Object.values((carried ?? {}) as IDataObject).filter((key): key is string => typeof key === 'string');
		if (this.getMode() === 'webhook' && keys.length > 0) {
			const check = queue.last.then(async () => await ranBefore.call(this, queue, keys));
			queue.last = check;
			if (await check) continue;
		}
		kept.push({ ...item, pairedItem: { item: index } });
	}
	return kept;
}

/** Whether any of the keys was recorded before; records them. Never throws: a failure counts as "not before". */
async function ranBefore(this: IExecuteFunctions, queue: NodeQueue, keys: string[]): Promise<boolean> {
	try {
		if (queue.unwritten.size > 0) {
			await this.helpers.checkProcessedAndRecord([...queue.unwritten], 'node', STORE_OPTIONS);
			queue.unwritten.clear();
		}
		const { processed } = await this.helpers.checkProcessedAndRecord(keys, 'node', STORE_OPTIONS);
		return processed.length > 0;
	} catch (error) {
		// Written with the next check, so that a resend of this delivery is still dropped.
		for (const key of keys) queue.unwritten.add(key);
		for (const oldest of queue.unwritten) {
			if (queue.unwritten.size <= MAX_UNWRITTEN) break;
			queue.unwritten.delete(oldest);
		}
		this.logger.warn(
			`Postal Service Trigger: n8n's processed-data store failed while checking delivery ${keys[0]}; it runs, since n8n has answered the service (it may have run before): ${(error as Error).message}`,
		);
		return false;
	}
}
