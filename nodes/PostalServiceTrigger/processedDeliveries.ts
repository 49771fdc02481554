/** The one record of deliveries that ran, n8n's processed-data store; n8n has answered already, so a failing store lets the delivery run. */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

/** The item's field that carries the delivery's keys from webhook() to execute(), beside `json` so that the workflow never sees it. */
export const KEYS_FIELD = 'deliveryKeys';

/** Two keys per delivery: the node remembers its last 5,000 deliveries; the oldest go first. */
const STORE_OPTIONS = { mode: 'entries', maxEntries: 10_000 } as const;

/** At most this many keys wait to be written after the store failed; the oldest go first. */
const MAX_UNWRITTEN = 10_000;

/** A delivery waiting for its check; `ranBefore` is set once a check has taken it. */
interface Waiting {
	keys: string[];
	ranBefore?: boolean;
}

interface NodeQueue {
	/** The last check queued: n8n's store reads and then writes its row without a lock, so one at a time. */
	last: Promise<void>;
	/** Deliveries whose check has not started: the next check takes them all, in one call to the store. */
	waiting: Waiting[];
	/** Keys of deliveries that ran while the store failed: written before the node's next check here. */
	unwritten: Set<string>;
}

/** One queue per trigger node in this process (by node id, which stays when the node is renamed). */
const queues = new Map<string, NodeQueue>();

/** The items whose delivery did not run before, now recorded; test executions and user retries pass and record nothing. */
export async function keepFirstDeliveries(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const scope = `${this.getWorkflow().id ?? ''}\u0000${this.getNode().id}`;
	const queue = queues.get(scope) ?? { last: Promise.resolve(), waiting: [], unwritten: new Set<string>() };
	queues.set(scope, queue);
	const kept: INodeExecutionData[] = [];
	for (const [index, { [KEYS_FIELD]: carried, ...item }] of this.getInputData().entries()) {
		const keys = Object.values((carried ?? {}) as IDataObject).filter((key): key is string => typeof key === 'string');
		if (this.getMode() === 'webhook' && keys.length > 0) {
			const delivery: Waiting = { keys };
			queue.waiting.push(delivery);
			// This turn comes after the one that takes the delivery, at the latest its own.
			const turn = queue.last.then(async () => await checkWaiting.call(this, queue));
			queue.last = turn;
			await turn;
			if (delivery.ranBefore) continue;
		}
		kept.push({ ...item, pairedItem: { item: index } });
	}
	return kept;
}

/** Every waiting delivery checked and recorded in one call, so a burst does not queue one call each; never throws. */
async function checkWaiting(this: IExecuteFunctions, queue: NodeQueue): Promise<void> {
	const batch = queue.waiting.splice(0);
	if (batch.length === 0) return;
	let recorded = new Set<string>();
	try {
		// A call of its own: a resend of one of these in the same call would count as new.
		if (queue.unwritten.size > 0) {
			await this.helpers.checkProcessedAndRecord([...queue.unwritten], 'node', STORE_OPTIONS);
			queue.unwritten.clear();
		}
		const { processed } = await this.helpers.checkProcessedAndRecord(
			batch.flatMap(({ keys }) => keys),
			'node',
			STORE_OPTIONS,
		);
		recorded = new Set(processed.map(String));
	} catch (error) {
		for (const { keys } of batch) {
			// Written with the next check, so that a resend of this delivery is still dropped.
			for (const key of keys) queue.unwritten.add(key);
			this.logger.warn(
				`Postal Service Trigger: n8n's processed-data store failed while checking delivery ${keys[0]}; it runs, since n8n has answered the service (it may have run before): ${(error as Error).message}`,
			);
		}
		for (const oldest of queue.unwritten) {
			if (queue.unwritten.size <= MAX_UNWRITTEN) break;
			queue.unwritten.delete(oldest);
		}
	}
	// A key repeated within one call counts as new each time: the first delivery that names it takes it.
	for (const delivery of batch) {
		delivery.ranBefore = delivery.keys.some((key) => recorded.has(key));
		for (const key of delivery.keys) recorded.add(key);
	}
}
