/**
 * Which deliveries already ran, per workflow and trigger node, keyed by environment and
 * delivery_id (production and the test environment number their deliveries separately) and, unless
 * turned off, by the event itself, so that a retry is dropped whether or not it keeps its id.
 *
 * An id is remembered for good only once the execution it started runs (execute(), see
 * executionMemory.ts); until then webhook() holds a claim on it in this process. A copy arriving
 * meanwhile waits for the claim's outcome: answered 200 when the delivery ran, it takes over when
 * the claim's request failed (n8n answered an error, or the connection closed unanswered). A claim
 * counts for CLAIM_LIFETIME_MS at most.
 *
 * Three places hold what is known:
 * - this process: claims, and the ids whose execution ran here (closes the time until the
 *   execution's static data is saved, including copies arriving at the same moment);
 * - the node's static data (`acceptedDeliveries`), written by the execution and saved by n8n at
 *   its end, read by webhook() to drop a resend without starting anything;
 * - n8n's processed-data store, checked and written inside the execution: the one record shared
 *   by all n8n processes of a queue-mode setup (see executionMemory.ts).
 */
import type { IDataObject } from 'n8n-workflow';

/** How many keys static data and this process remember per node (two per delivery); the oldest are forgotten first. */
export const DEDUP_WINDOW = 4000;

/** The longest a claim holds when no answer says the execution could not start. */
export const CLAIM_LIFETIME_MS = 60_000;

const STATIC_FIELD = 'acceptedDeliveries';

export function storedKeys(staticData: IDataObject): string[] {
	const stored = staticData[STATIC_FIELD];
	return Array.isArray(stored) ? stored.filter((key): key is string => typeof key === 'string') : [];
}

/** Writes the keys into static data, oldest first, when that changes what it holds. */
export function storeKeys(staticData: IDataObject, keys: Iterable<string>): void {
	const merged: string[] = [];
	const seen = new Set<string>();
	for (const key of [...storedKeys(staticData), ...keys]) {
		if (seen.has(key)) continue;
		seen.add(key);
		merged.push(key);
	}
	const kept = merged.slice(-DEDUP_WINDOW);
	const current = storedKeys(staticData);
	if (kept.length === current.length && kept.every((key, index) => key === current[index])) return;
	// A new array, so that n8n sees the change and saves it.
	staticData[STATIC_FIELD] = kept;
}

/**
 * A request on its way to its execution. Its outcome settles once its answer is known: true when
 * the delivery ran (a 2xx from the trigger's step in the execution), false when it did not (an
 * error answer, or the connection closed without one).
 */
export class Claim {
	readonly outcome: Promise<boolean>;
	private resolve!: (ran: boolean) => void;
	private settled = false;

	constructor(readonly until: number) {
		this.outcome = new Promise<boolean>((resolve) => (this.resolve = resolve));
	}

	settle(ran: boolean): void {
		if (this.settled) return;
		this.settled = true;
		this.resolve(ran);
	}
}

/** What this process knows of one trigger node of one workflow. */
export class NodeMemory {
	private readonly ran = new Set<string>();
	private readonly claims = new Map<string, Claim>();
	private queue: Promise<unknown> = Promise.resolve();

	hasRun(key: string): boolean {
		return this.ran.has(key);
	}

	/** The claim a request still holds on any of the delivery's keys, if any. */
	claimOf(keys: string[], now: number): Claim | undefined {
		for (const key of keys) {
			const claim = this.claims.get(key);
			if (claim !== undefined && claim.until > now) return claim;
		}
		return undefined;
	}

	/** Takes the delivery's keys for the request at hand. Call it in the same tick as `claimOf`. */
	claim(keys: string[], now: number): Claim {
		for (const [claimed, { until }] of this.claims) if (until <= now) this.claims.delete(claimed);
		const claim = new Claim(now + CLAIM_LIFETIME_MS);
		for (const key of keys) this.claims.set(key, claim);
		return claim;
	}

	/** Settles a claim with its request's outcome: a delivery that ran is remembered, one that did not is free again. */
	settle(keys: string[], claim: Claim, ran: boolean): void {
		if (ran) this.recordRuns(keys);
		else for (const key of keys) if (this.claims.get(key) === claim) this.claims.delete(key);
		claim.settle(ran);
	}

	private readonly failedChecks = new Set<string>();

	/**
	 * Notes keys whose check in n8n's store failed in an execution that then stopped: their record
	 * may have landed although nothing ran, so a retry that finds only that record still runs.
	 */
	noteFailedCheck(keys: Iterable<string>): void {
		for (const key of keys) this.failedChecks.add(key);
		for (const oldest of this.failedChecks) {
			if (this.failedChecks.size <= DEDUP_WINDOW) break;
			this.failedChecks.delete(oldest);
		}
	}

	/** Whether the only record of the key may come from a failed check in this process. */
	checkFailed(key: string): boolean {
		return this.failedChecks.has(key) && !this.ran.has(key);
	}

	/** Records deliveries whose execution ran (here, or in the worker that answered). */
	recordRuns(keys: Iterable<string>): void {
		for (const key of keys) {
			this.failedChecks.delete(key);
			this.ran.delete(key);
			this.ran.add(key);
			this.claims.get(key)?.settle(true);
			this.claims.delete(key);
		}
		for (const oldest of this.ran) {
			if (this.ran.size <= DEDUP_WINDOW) break;
			this.ran.delete(oldest);
		}
	}

	/** Deliveries that ran here, oldest first. */
	ranKeys(): string[] {
		return [...this.ran];
	}

	forget(): void {
		this.ran.clear();
		this.failedChecks.clear();
		for (const claim of this.claims.values()) claim.settle(false);
		this.claims.clear();
	}

	private readonly storeCallMs: number[] = [];

	/** Notes how long one call to n8n's processed-data store took (the last 32 are kept). */
	noteStoreCall(ms: number): void {
		this.storeCallMs.push(ms);
		if (this.storeCallMs.length > 32) this.storeCallMs.shift();
	}

	/** The slowest of the recent calls to the store: how long another process's read-and-write may take now. */
	slowStoreCallMs(): number {
		return Math.max(0, ...this.storeCallMs);
	}

	/** Runs `task` after every task queued before it: one check-and-record at a time per node. */
	exclusive<T>(task: () => Promise<T>): Promise<T> {
		const result = this.queue.then(task);
		this.queue = result.catch(() => undefined);
		return result;
	}
}

const nodes = new Map<string, NodeMemory>();

/** The memory of this process for one trigger node (the node id stays when the node is renamed). */
export function nodeMemory(workflowId: string | undefined, nodeId: string): NodeMemory {
	const scope = `${workflowId ?? ''}\u0000${nodeId}`;
	let memory = nodes.get(scope);
	if (!memory) {
		memory = new NodeMemory();
		nodes.set(scope, memory);
	}
	return memory;
}

/**
 * Forgets the deliveries this process knows (claims and runs), as a restarted or another n8n
 * process would not know them. Tests use it to stand for another webhook process in front of the
 * same worker: the worker's one-at-a-time order of checks stays.
 */
export function forgetProcessMemory(): void {
	for (const memory of nodes.values()) memory.forget();
}
