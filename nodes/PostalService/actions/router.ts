import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import { itemParameter } from '../transport/runParameters';
import { findOperation } from './resources';
import type { OperationModule } from './types';

type Outcome = { items: INodeExecutionData[] } | { error: NodeApiError | NodeOperationError };

function operationOf(ctx: IExecuteFunctions, itemIndex: number): OperationModule {
	const resource = itemParameter<string>(ctx, 'resource', itemIndex);
	const operation = itemParameter<string>(ctx, 'operation', itemIndex);
	const module = findOperation(resource, operation);
	if (!module) {
		throw new NodeOperationError(
			ctx.getNode(),
			`The operation "${operation}" of "${resource}" is not known. For a route this node does not offer, use an HTTP Request node with the Postal Service credential ("Custom API Call").`,
			{ itemIndex },
		);
	}
	return module;
}

function asNodeError(ctx: IExecuteFunctions, error: unknown, itemIndex: number): NodeApiError | NodeOperationError {
	return error instanceof NodeApiError || error instanceof NodeOperationError
		? error
		: new NodeOperationError(ctx.getNode(), error as Error, { itemIndex });
}

async function runItem(this: IExecuteFunctions, itemIndex: number): Promise<Outcome> {
	try {
		return { items: await operationOf(this, itemIndex).execute.call(this, itemIndex) };
	} catch (error) {
		return { error: asNodeError(this, error, itemIndex) };
	}
}

/**
 * Without "Continue On Fail" the run stops at the first failing item. For operations that spend
 * credits every item is checked first, so that an invalid item stops the run before any letter
 * of it is sent: a corrected re-run then cannot send the valid ones twice.
 */
async function validateAll(this: IExecuteFunctions, count: number): Promise<void> {
	for (let itemIndex = 0; itemIndex < count; itemIndex++) {
		try {
			const module = operationOf(this, itemIndex);
			if (module.validate) await module.validate.call(this, itemIndex);
		} catch (error) {
			const nodeError = asNodeError(this, error, itemIndex);
			nodeError.description = [nodeError.description, 'No item of this run was sent.'].filter(Boolean).join('\n');
			throw nodeError;
		}
	}
}

/** When a run stops midway, says which items had already gone through, so none is sent twice. */
function withDoneItems(error: NodeApiError | NodeOperationError, outcomes: Outcome[]): NodeApiError | NodeOperationError {
	const done = outcomes.flatMap((outcome, itemIndex) =>
		outcome && 'items' in outcome ? [`item ${itemIndex}${outcome.items[0]?.json.id ? ` (id ${String(outcome.items[0].json.id)})` : ''}`] : [],
	);
	if (done.length > 0) {
		error.description = [
			error.description,
			`Before this error the run had already completed ${done.length} item(s), which are not in the output: ${done.join(', ')}. Do not send them again.`,
		]
			.filter(Boolean)
			.join('\n');
	}
	return error;
}

/**
 * Runs the items through a sliding window of `size` requests: the next item starts as soon as one
 * ends, so a slow answer holds one slot and not the whole batch. With an `interval`, item k starts
 * no earlier than `interval` ms after item k - size started: at most `size` starts in any interval.
 * With `stopOnFailure` no new item starts after a failure; those already in flight are awaited.
 */
async function runWindow(
	this: IExecuteFunctions,
	count: number,
	size: number,
	interval: number,
	stopOnFailure: boolean,
): Promise<Outcome[]> {
	const outcomes: Outcome[] = new Array(count);
	const starts: number[] = [];
	// A count and one waiter rather than Promise.race over the slots: a race per item adds a
	// reaction to every request in flight (50 000 for 1 000 items at 50), all kept until each ends.
	let inFlight = 0;
	let slotFreed: (() => void) | undefined;
	const waitForSlot = () => new Promise<void>((resolve) => (slotFreed = resolve));
	let failed = false;
	for (let itemIndex = 0; itemIndex < count && !failed; itemIndex++) {
		while (inFlight >= size) await waitForSlot();
		if (interval > 0 && itemIndex >= size) {
			const wait = starts[itemIndex - size] + interval - Date.now();
			if (wait > 0) await sleep(wait);
		}
		if (failed) break;
		starts[itemIndex] = Date.now();
		inFlight++;
		void runItem.call(this, itemIndex).then((outcome) => {
			outcomes[itemIndex] = outcome;
			if (stopOnFailure && 'error' in outcome) failed = true;
			inFlight--;
			const wake = slotFreed;
			slotFreed = undefined;
			wake?.();
		});
	}
	while (inFlight > 0) await waitForSlot();
	return outcomes;
}

/**
 * Runs every item, several at a time when the user asks for it, and keeps the output in input
 * order whatever order the answers arrive in. Each item is validated and sent on its own, so with
 * "Continue On Fail" an invalid or refused item does not stop the others.
 */
export async function router(this: IExecuteFunctions, continueOnFail: boolean): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	// Without the option items go one at a time; with it, the defaults the editor shows apply.
	const batching = this.getNodeParameter('options.batching', 0, {}) as { batch?: { batchSize?: number; batchInterval?: number } };
	const batch = batching.batch;
	const batchSize = batch ? Math.max(1, Math.floor(Number(batch.batchSize ?? 50)) || 1) : 1;
	const interval = batch ? Math.max(0, Number(batch.batchInterval ?? 1000) || 0) : 0;
	if (!continueOnFail) await validateAll.call(this, items.length);

	const outcomes = await runWindow.call(this, items.length, batchSize, interval, !continueOnFail);
	if (!continueOnFail) {
		const failed = outcomes.find((o): o is { error: NodeOperationError } => o !== undefined && 'error' in o);
		if (failed) throw withDoneItems(failed.error, outcomes);
	}

	const output: INodeExecutionData[] = [];
	outcomes.forEach((outcome, itemIndex) => {
		if ('items' in outcome) {
			output.push(...outcome.items);
			return;
		}
		const { message, description } = outcome.error;
		output.push({
			json: { error: message, ...(description ? { description } : {}) },
			pairedItem: { item: itemIndex },
		});
	});
	return [output];
}
