import { sleep } from 'n8n-workflow';

/** Runs `count` tasks, at most `size` in flight, starting none after a result `stopWhen` matches; results in task order. */
export async function runInSlidingWindow<T>(
	count: number,
	options: { size: number; stopWhen?: (result: T) => boolean },
	task: (index: number) => Promise<T>,
): Promise<T[]> {
	const { size, stopWhen } = options;
	const results: T[] = new Array(count);
	// A count and one waiter, since Promise.race over the slots would keep a reaction per request in flight for every item.
	let inFlight = 0;
	let slotFreed: (() => void) | undefined;
	const waitForSlot = () => new Promise<void>((resolve) => (slotFreed = resolve));
	let stopped = false;
	for (let index = 0; index < count && !stopped; index++) {
		while (inFlight >= size) await waitForSlot();
		if (stopped) break;
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

/** The run's one pacing clock: every request, whatever its phase or attempt, waits here, so no more than `size` start within any `interval` ms. */
export function pacing(size: number, interval: number): () => Promise<void> {
	const starts: number[] = [];
	let last = Promise.resolve();
	const next = async () => {
		if (starts.length === size) {
			const wait = starts.shift()! + interval - Date.now();
			if (wait > 0) await sleep(wait);
		}
		starts.push(Date.now());
	};
	return async () => {
		if (interval <= 0) return;
		last = last.then(next);
		await last;
	};
}
