import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { checkEveryItemFirst } from './run/checkEveryItemFirst';
import { continueOnFailOutput, runItem, withCompletedItems, type ItemOutcome } from './run/itemOutcome';
import { runInSlidingWindow } from './run/slidingWindow';

/**
 * Runs every item through its operation, several at a time when the Batching option asks for it,
 * and keeps the output in input order whatever order the answers arrive in. With Continue On Fail
 * (read by the node's execute()) a failing item becomes an output item and the others go on.
 */
export async function router(this: IExecuteFunctions, continueOnFail: boolean): Promise<INodeExecutionData[][]> {
	const count = this.getInputData().length;
	// Without the option items go one at a time; with it, the defaults the editor shows apply.
	const { batch } = this.getNodeParameter('options.batching', 0, {}) as { batch?: { batchSize?: number; batchInterval?: number } };
	const size = batch ? Math.max(1, Math.floor(Number(batch.batchSize ?? 50)) || 1) : 1;
	const interval = batch ? Math.max(0, Number(batch.batchInterval ?? 1000) || 0) : 0;

	if (!continueOnFail) await checkEveryItemFirst(this, count);
	const outcomes = await runInSlidingWindow<ItemOutcome>(
		count,
		{ size, interval, stopWhen: continueOnFail ? undefined : (outcome) => 'error' in outcome },
		async (itemIndex) => await runItem(this, itemIndex),
	);
	if (!continueOnFail) {
		const failed = outcomes.find((outcome) => outcome !== undefined && 'error' in outcome);
		if (failed && 'error' in failed) throw withCompletedItems(failed.error, outcomes);
	}
	return [continueOnFailOutput(outcomes)];
}
