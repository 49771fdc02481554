import { sleep } from 'n8n-workflow';

/**
 * Runs `count` tasks with at most `size` in flight: the next starts as soon as one ends, so a slow
 * answer holds one slot and not the whole batch. With an `interval`, task k starts no earlier than
 * `interval` ms after task k - size started (at most `size` starts in any interval). With
 * `stopWhen`, no new task starts once a finished result matches it; those in flight are awaited.
 * Returns the results in task order; a task never started leaves its slot empty.
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
