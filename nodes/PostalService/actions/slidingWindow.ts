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

/** The run's one pacing clock: each request, whatever its phase or attempt, takes a start time here, so no more than `size` start within any `interval` ms; none later than `until`. */
export function pacing(size: number, interval: number): (until: number) => Promise<boolean> {
	const starts: Array<{ at: number }> = [];
	return async (until) => {
		// A start is taken at once, in the order asked, so a wait that would end too late is known before it begins.
		const start = { at: Math.max(Date.now(), interval > 0 && starts.length >= size ? starts[starts.length - size].at + interval : 0) };
		if (start.at > until) return false;
		if (interval > 0 && starts.push(start) > size) starts.shift();
		if (start.at > Date.now()) await sleep(start.at - Date.now());
		// A timer that fires late moves its start, so the starts taken after it keep their distance from the real one.
		start.at = Math.max(start.at, Date.now());
		return true;
	};
}
