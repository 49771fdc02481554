import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { operationOf } from './operationOf';

/** What one item came to: its output items, or the error that stopped it. */
export type ItemOutcome = { items: INodeExecutionData[] } | { error: NodeApiError | NodeOperationError };

export function asNodeError(ctx: IExecuteFunctions, error: unknown, itemIndex: number): NodeApiError | NodeOperationError {
	return error instanceof NodeApiError || error instanceof NodeOperationError
		? error
		: new NodeOperationError(ctx.getNode(), error as Error, { itemIndex });
}

/** Runs one item's operation; never throws, so one failing item does not end the others. */
export async function runItem(ctx: IExecuteFunctions, itemIndex: number): Promise<ItemOutcome> {
	try {
		return { items: await operationOf(ctx, itemIndex).execute.call(ctx, itemIndex) };
	} catch (error) {
		return { error: asNodeError(ctx, error, itemIndex) };
	}
}

/** When a run stops midway, says which items had already gone through, so none is sent twice. */
export function withCompletedItems(
	error: NodeApiError | NodeOperationError,
	outcomes: ItemOutcome[],
): NodeApiError | NodeOperationError {
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

/** "Continue On Fail" output: each item's own results, or its error as an item paired to it. */
export function continueOnFailOutput(outcomes: ItemOutcome[]): INodeExecutionData[] {
	return outcomes.flatMap((outcome, itemIndex) => {
		if ('items' in outcome) return outcome.items;
		const { message, description } = outcome.error;
		return [{ json: { error: message, ...(description ? { description } : {}) }, pairedItem: { item: itemIndex } }];
	});
}
