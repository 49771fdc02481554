import { describe, expect, it } from 'vitest';

import { LETTER, pdfItem, run, TOKEN, useSandbox } from './fixture';

const ctx = useSandbox();

async function createOrders(n: number): Promise<string[]> {
	const items = await Promise.all(Array.from({ length: n }, async (_, i) => await pdfItem(1, { tag: `b${i}` })));
	const result = await run(ctx.sandbox, { ...LETTER, additionalFields: { tag: '={{ $json.tag }}' } }, { items });
	expect(result.error).toBeUndefined();
	return result.items.map((item) => String(item.json.id));
}

describe('Batching', () => {
	it('sends the items of a batch together, pauses between batches, and keeps the input order', async () => {
		const ids = await createOrders(4);
		ctx.sandbox.control.clearRequests();
		// The first item's answer comes last within its batch.
		ctx.sandbox.control.injectFault({ path: `/api/v2/get/${TOKEN}/${ids[0]}`, kind: 'slow', delayMs: 400 });
		const started = Date.now();
		const result = await run(
			ctx.sandbox,
			{
				resource: 'order',
				operation: 'get',
				orderId: '={{ $json.id }}',
				options: { batching: { batch: { batchSize: 2, batchInterval: 300 } } },
			},
			{ items: ids.map((id) => ({ json: { id } })) },
		);
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json.id)).toEqual(ids);
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }, { item: 3 }]);
		// Batch one waits for its slow item (400 ms), then the interval (300 ms) passes before batch two.
		expect(Date.now() - started).toBeGreaterThanOrEqual(700);
		const log = ctx.sandbox.control.requests({ path: /^\/api\/v2\/get\// });
		const answered = log.map((r) => r.path.split('/').pop());
		expect(answered.slice(0, 2).sort()).toEqual([ids[0], ids[1]].sort());
		expect(answered.slice(2).sort()).toEqual([ids[2], ids[3]].sort());
		const at = log.map((r) => Date.parse(r.at));
		expect(Math.min(at[2], at[3]) - Math.max(at[0], at[1])).toBeGreaterThanOrEqual(250);
	});

	it('without batching sends one item after another, in order, and a failure keeps its place', async () => {
		const ids = await createOrders(2);
		ctx.sandbox.control.clearRequests();
		const result = await run(
			ctx.sandbox,
			{ resource: 'order', operation: 'get', orderId: '={{ $json.id }}' },
			{ items: [{ json: { id: ids[1] } }, { json: { id: '9' } }, { json: { id: ids[0] } }], continueOnFail: true },
		);
		expect(result.items.map((item) => item.json.id ?? 'error')).toEqual([ids[1], 'error', ids[0]]);
		expect(result.items[1]).toMatchObject({ json: { error: expect.any(String) }, pairedItem: { item: 1 } });
		expect(ctx.sandbox.control.requests({ path: /^\/api\/v2\/get\// }).map((r) => r.path.split('/').pop())).toEqual([ids[1], '9', ids[0]]);
	});
});
