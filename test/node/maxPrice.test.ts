import { describe, expect, it } from 'vitest';

import { LETTER, pdfItem, run, useSandbox } from './fixture';

const ctx = useSandbox();

/** LETTER's price in the sandbox (a 1-page registered letter), read the way the node reads it. */
async function priceOfLetter(): Promise<number> {
	const priced = await run(ctx.sandbox, { ...LETTER, operation: 'getPrice' }, { items: [await pdfItem(1)] });
	expect(priced.error).toBeUndefined();
	return priced.items[0].json.value as number;
}

describe('Letter > Send with "Maximum Price (BRL)"', () => {
	it('prices the letter first and sends it when the price is at most the maximum', async () => {
		const price = await priceOfLetter();
		ctx.sandbox.control.clearRequests();
		const sent = await run(ctx.sandbox, { ...LETTER, tag: 'capped-ok', additionalFields: { maxPrice: price } }, { items: [await pdfItem(1)] });
		expect(sent.error).toBeUndefined();
		expect(sent.items[0].json.id).toMatch(/^\d+$/);
		const posts = ctx.sandbox.control.requests({ path: '/api/v2/post' });
		expect(posts.map((request) => request.fields.test ?? '0')).toEqual(['1', '0']);
		expect(ctx.sandbox.control.orders().filter((order) => order.tag === 'capped-ok')).toHaveLength(1);
	});

	it('sends nothing above the maximum, naming the field, the price and what to do', async () => {
		const price = await priceOfLetter();
		const max = Math.round((price - 0.01) * 100) / 100;
		const refused = await run(ctx.sandbox, { ...LETTER, tag: 'capped-no', additionalFields: { maxPrice: max } }, { items: [await pdfItem(1)] });
		expect(refused.error?.message).toBe(
			`The price of this letter, R$ ${price.toFixed(2)}, is above "Maximum Price (BRL)" (R$ ${max.toFixed(2)}). Nothing was sent.`,
		);
		expect(refused.error?.description).toMatch(/Raise "Maximum Price \(BRL\)"/);
		expect(ctx.sandbox.control.orders().filter((order) => order.tag === 'capped-no')).toHaveLength(0);
	});

	it('with Continue On Fail, refuses only the items above the maximum', async () => {
		const price = await priceOfLetter();
		const parameters = { ...LETTER, tag: '={{ $json.tag }}', additionalFields: { maxPrice: '={{ $json.max }}' } };
		const result = await run(ctx.sandbox, parameters, {
			continueOnFail: true,
			items: [await pdfItem(1, { tag: 'cof-cheap', max: price + 1 }), await pdfItem(1, { tag: 'cof-dear', max: price - 1 })],
		});
		expect(result.items[0].json.id).toMatch(/^\d+$/);
		expect(result.items[1].json.error).toMatch(/is above "Maximum Price \(BRL\)".*Nothing was sent\./);
		expect(result.items[1].pairedItem).toEqual({ item: 1 });
		const tags = ctx.sandbox.control.orders().map((order) => order.tag);
		expect(tags).toContain('cof-cheap');
		expect(tags).not.toContain('cof-dear');
	});
});
