import { describe, expect, it } from 'vitest';

import { LETTER, pdfItem, run, TOKEN, useSandbox } from './fixture';

const ctx = useSandbox();

async function createOrders(n: number): Promise<string[]> {
	const items = await Promise.all(Array.from({ length: n }, async (_, i) => await pdfItem(1, { tag: `b${i}` })));
	const result = await run(ctx.sandbox, { ...LETTER, tag: '={{ $json.tag }}' }, { items });
	expect(result.error).toBeUndefined();
	return result.items.map((item) => String(item.json.id));
}

/** Letter > Get of each id, with the given Options. */
function readEach(ids: string[], options: Record<string, unknown>, continueOnFail = false) {
	const parameters = { resource: 'order', operation: 'get', orderId: '={{ $json.id }}', options };
	return run(ctx.sandbox, parameters, { items: ids.map((id) => ({ json: { id } })), continueOnFail });
}
const inBatchesOf = (batchSize: number) => ({ batching: { batch: { batchSize, batchInterval: 0 } } });

/** The most requests the sandbox was answering at once. */
function maxInFlight(log: Array<{ arrived: number; answered?: number }>): number {
	const events = log.flatMap((r) => [
		{ at: r.arrived, step: 1 },
		{ at: r.answered ?? Number.POSITIVE_INFINITY, step: -1 },
	]);
	events.sort((a, b) => a.at - b.at);
	let now = 0;
	let most = 0;
	for (const { step } of events) most = Math.max(most, (now += step));
	return most;
}

// Batch Interval between starts, in every phase of a run, is the pacing family (test/reliability/pacing.suite.ts).
describe('Batching', () => {
	it('keeps at most N requests in flight and starts the next as one ends: a slow answer holds one slot only', async () => {
		const ids = await createOrders(8);
		ctx.sandbox.control.clearRequests();
		ctx.sandbox.control.injectFault({ path: `/api/v2/get/${TOKEN}/${ids[0]}`, kind: 'slow', delayMs: 1500 });
		// Every answer takes a while, so the free slots overlap too.
		ctx.sandbox.control.setLatency(100);
		const result = await readEach(ids, inBatchesOf(3));
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json.id)).toEqual(ids);
		expect(result.items.map((item) => item.pairedItem)).toEqual(ids.map((_, item) => ({ item })));
		const log = ctx.sandbox.control.requests({ path: /^\/api\/v2\/get\// });
		expect(log.map((r) => r.path.split('/').pop())).toEqual(ids);
		expect(maxInFlight(log)).toBe(3);
		// Every other item came and went while the slow one held its slot.
		const slow = log[0].answered!;
		for (const entry of log.slice(1)) expect(entry.answered!).toBeLessThan(slow);
	});

	it('without Continue On Fail starts nothing after a failure, waits for the items in flight and names the completed ones', async () => {
		const ids = await createOrders(5);
		ctx.sandbox.control.clearRequests();
		ctx.sandbox.control.injectFault({ path: `/api/v2/get/${TOKEN}/${ids[0]}`, kind: 'slow', delayMs: 600 });
		const wanted = [ids[0], '9', ids[2], ids[3], ids[4]];
		const result = await readEach(wanted, inBatchesOf(2));
		expect(result.error).toBeDefined();
		const log = ctx.sandbox.control.requests({ path: /^\/api\/v2\/get\// });
		expect(log.map((r) => r.path.split('/').pop())).toEqual([ids[0], '9']);
		expect(log.every((r) => r.answered !== undefined)).toBe(true);
		const error = result.error as { description?: string };
		expect(error.description).toContain(`completed 1 item(s), which are not in the output: item 1 (id ${ids[0]})`);
	});

	it.each([
		['2 at a time, the window sliding', inBatchesOf(2)],
		['without Batching, one item after another, in order', {}],
	])('with Continue On Fail keeps every item in its place, %s', async (_case, options) => {
		const ids = await createOrders(4);
		ctx.sandbox.control.clearRequests();
		const wanted = [ids[0], '9', ids[1], '8', ids[2], ids[3]];
		const result = await readEach(wanted, options, true);
		expect(result.items.map((item) => item.json.id ?? 'error')).toEqual([ids[0], 'error', ids[1], 'error', ids[2], ids[3]]);
		expect(result.items.map((item) => item.pairedItem)).toEqual(wanted.map((_, item) => ({ item })));
		const started = ctx.sandbox.control.requests({ path: /^\/api\/v2\/get\// }).map((r) => r.path.split('/').pop());
		if (!('batching' in options)) expect(started).toEqual(wanted);
	});
});
