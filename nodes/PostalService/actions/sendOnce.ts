/**
 * Writes under n8n's "Retry On Fail": after a failure n8n runs the node's execute() again over every
 * item of the run, within the same execution and the same process. This ledger remembers, per
 * execution, node, run and item, what each write came to, so that a retry sends again only what the
 * service certainly refused or never received, and gives back the first outcome of everything else
 * (the same output for an accepted item, the same error for one whose fate is unclear), even when
 * the item's expressions evaluate to something else on the retry.
 */
import { createHash } from 'node:crypto';

import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { ServiceRequest, ServiceResponse } from '../transport';
import { deliveryOf, serviceRequest } from '../transport';

type Outcome = { request: string } & (
	| { kind: 'accepted'; items: INodeExecutionData[] }
	| { kind: 'unclear'; message: string; description: string }
);

/** Idle executions are forgotten after this; n8n waits at most 5 s between tries. */
const IDLE_MS = 60 * 60 * 1000;
/** Outcomes kept over all running executions of this process; writes beyond it are refused. */
export const MAX_OUTCOMES = 100_000;
// Ids n8n uses when an execution has none of its own.
const NO_EXECUTION_ID = new Set(['', '__UNKNOWN__', 'undefined', 'null']);

/**
 * The outcomes per execution key, bounded: an execution is forgotten when it finishes or after it
 * has been idle, never to make room, since one still retrying must find its outcomes; when full,
 * new writes are refused instead.
 */
export class RetryLedger<T = Outcome> {
	private readonly executions = new Map<string, { outcomes: Map<string, T>; lastUsed: number }>();
	private stored = 0;

	constructor(
		readonly capacity: number,
		private readonly idleMs: number,
	) {}

	/** The outcomes of one execution key, made on first use (`created` then). */
	execution(key: string, now: number): { outcomes: Map<string, T>; created: boolean } {
		let entries = this.executions.get(key);
		const created = !entries;
		if (!entries) {
			this.prune(now);
			entries = { outcomes: new Map(), lastUsed: now };
			this.executions.set(key, entries);
		}
		entries.lastUsed = now;
		return { outcomes: entries.outcomes, created };
	}

	/** Whether one more outcome may be kept (idle executions are forgotten first when full). */
	hasRoom(now: number): boolean {
		if (this.stored >= this.capacity) this.prune(now);
		return this.stored < this.capacity;
	}

	remember(key: string, item: string, outcome: T, now: number): void {
		const entries = this.executions.get(key);
		if (!entries) return;
		if (!entries.outcomes.has(item)) this.stored++;
		entries.outcomes.set(item, outcome);
		entries.lastUsed = now;
	}

	forget(key: string): void {
		const entries = this.executions.get(key);
		if (!entries) return;
		this.stored -= entries.outcomes.size;
		this.executions.delete(key);
	}

	private prune(now: number): void {
		for (const [key, entries] of this.executions) if (now - entries.lastUsed > this.idleMs) this.forget(key);
	}
}

const ledger = new RetryLedger(MAX_OUTCOMES, IDLE_MS);

function refuse(ctx: IExecuteFunctions, itemIndex: number, why: string): NodeOperationError {
	return new NodeOperationError(ctx.getNode(), `Retry On Fail is on for this node, but ${why}. Nothing was sent for this item.`, {
		itemIndex,
		description:
			"With Retry On Fail n8n runs the node again over every item after a failure. This node allows that only when it can tell, within the execution, which letters and messages already went out. Turn off Retry On Fail in the node's settings: the node never repeats a write on its own, and its errors say what to check before sending again.",
	});
}

async function fingerprint(request: ServiceRequest): Promise<string> {
	const hash = createHash('sha256');
	hash.update(`${request.method} ${request.path}\n${JSON.stringify(request.qs ?? {})}\n`);
	const body = request.body;
	if (body instanceof FormData || body instanceof URLSearchParams) {
		for (const [name, value] of body.entries()) {
			hash.update(`${name}=`);
			hash.update(typeof value === 'string' ? value : new Uint8Array(await value.arrayBuffer()));
			hash.update('\n');
		}
	} else {
		hash.update(JSON.stringify(body ?? {}));
	}
	return hash.digest('hex');
}

function runIndexOf(ctx: IExecuteFunctions): number {
	const fromData = ctx.getExecuteData?.()?.runIndex;
	if (typeof fromData === 'number') return fromData;
	const proxy = ctx.getWorkflowDataProxy(0) as { $runIndex?: number };
	return typeof proxy.$runIndex === 'number' ? proxy.$runIndex : 0;
}

function copyItems(items: INodeExecutionData[]): INodeExecutionData[] {
	return items.map((item) => ({ ...item, json: JSON.parse(JSON.stringify(item.json)) as IDataObject }));
}

/**
 * Sends one write and turns its answer into output items, at most once per execution, node, run and
 * item. Without Retry On Fail the write simply goes (n8n never runs it again then).
 */
export async function sendOnce(
	ctx: IExecuteFunctions,
	itemIndex: number,
	request: ServiceRequest,
	toItems: (response: ServiceResponse) => INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const node = ctx.getNode();
	if (node.retryOnFail !== true) return toItems(await serviceRequest(ctx, request, itemIndex));

	const executionId = String(ctx.getExecutionId() ?? '');
	if (NO_EXECUTION_ID.has(executionId)) {
		throw refuse(ctx, itemIndex, 'this run has no execution id, so a retry could not be told from a new send');
	}
	const executionKey = `${executionId}\u0000${node.id}\u0000${node.name}\u0000${runIndexOf(ctx)}`;
	const { outcomes, created } = ledger.execution(executionKey, Date.now());
	if (created) ctx.onExecutionFinish?.(() => ledger.forget(executionKey));
	const key = String(itemIndex);
	const sent = await fingerprint(request);
	const earlier = outcomes.get(key);
	if (earlier) {
		// n8n evaluates expressions again on each try ($now, random values): the first outcome stands.
		const changed = earlier.request !== sent;
		if (earlier.kind === 'accepted') return copyItems(earlier.items);
		throw new NodeOperationError(node, changed ? `${earlier.message} Its parameters changed between tries; the earlier outcome stands.` : earlier.message, {
			itemIndex,
			description: `${earlier.description}\nRetry On Fail ran this node again; this item was not sent again${changed ? ', although its parameters evaluated to something else on the retry' : ''}. The error above is from its first try in this execution.`,
		});
	}
	if (!ledger.hasRoom(Date.now())) {
		throw refuse(ctx, itemIndex, `the running executions of this n8n process already hold the outcome of ${MAX_OUTCOMES} writes, the most the node keeps track of`);
	}

	const remember = (outcome: Outcome) => ledger.remember(executionKey, key, outcome, Date.now());
	try {
		const items = toItems(await serviceRequest(ctx, request, itemIndex));
		remember({ kind: 'accepted', request: sent, items: copyItems(items) });
		return items;
	} catch (error) {
		// Refused for sure, or never received: a retry may send it. Anything else may have gone through.
		const delivery = deliveryOf(error);
		if (delivery !== 'refused' && delivery !== 'notReceived') {
			const { message, description } = error as { message?: string; description?: string | null };
			remember({ kind: 'unclear', request: sent, message: String(message ?? 'The request failed'), description: String(description ?? '') });
		}
		throw error instanceof NodeApiError || error instanceof NodeOperationError
			? error
			: new NodeOperationError(node, error as Error, { itemIndex });
	}
}
