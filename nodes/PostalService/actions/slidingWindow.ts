import { sleep } from 'n8n-workflow';

/**
 * Runs `count` tasks, at most `size` in flight (a slow one holds one slot), task k no earlier than
 * `interval` ms after task k - size; after a result `stopWhen` matches, nothing new starts. Results in task order.
 */
export async function runInSlidingWindow<T>(
	count: number,
	options: { size: number; interval: number; stopWhen?: (result: T) => boolean },
	task: (index: number) => Promise<T>,
): Promise<T[]> {
	const { size, interval, stopWhen } = options;
	const results: T[] = new Array(count);
	const starts: number[] = [];
	// A count and one waiter rather than Promise.race over the slots, which would keep a reaction
	// per request in flight for every item.
	let inFlight = 0;
	let slotFreed: (() => void) | undefined;
	const waitForSlot = () => new Promise<void>((resolve) => (slotFreed = resolve));
	let stopped = false;
	for (let index = 0; index < count && !stopped; index++) {
		while (inFlight >= size) await waitForSlot();
		if (interval > 0 && index >= size) {
			const wait = starts[index - size] + interval - Date.now();
			if (wait > 0) await sleep(wait);
		}
		if (stopped) break;
		starts[index] = Date.now();
		inFlight++;
		void task(index).then((result) => {
			results[index] = result;
			if (stopWhen?.(result)) stopped = true;
			inFlight--;
			const wake = slotFreed;
			slotFreed = undefined;
			wake?.();
		});
	}
	while (inFlight > 0) await waitForSlot();
	return results;
}
