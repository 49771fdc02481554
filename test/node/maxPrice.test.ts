import { describe, expect, it } from 'vitest';

import { LETTER, pdfItem, run, useSandbox } from './fixture';

const ctx = useSandbox();

/** LETTER's price in the sandbox (a 1-page registered letter) from Get Price, which asks with test=1 and creates nothing. */
async function priceOfLetter(): Promise<number> {
	const priced = await run(ctx.sandbox, { ...LETTER, operation: 'getPrice' }, { items: [await pdfItem(1)] });
	expect(priced.error).toBeUndefined();
	expect(ctx.sandbox.control.requests({ path: '/api/v2/post' }).map((request) => request.fields.test)).toEqual(['1']);
	expect(ctx.sandbox.control.orders()).toEqual([]);
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
			`Tag "capped-no": The price of this letter, R$ ${price.toFixed(2)}, is above "Maximum Price (BRL)" (R$ ${max.toFixed(2)}). Nothing was sent.`,
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

	it('refuses a PDF given as a link before anything is sent: the service would download it again for the send', async () => {
		const linked = { ...LETTER, pdfSource: 'url', pdfUrl: 'https://example.com/carta.pdf', additionalFields: { maxPrice: 30 } };
		const result = await run(ctx.sandbox, linked, { items: [{ json: {} }] });
		expect(result.error?.message).toMatch(/^"PDF Source" \(pdfFile\) is a link, which "Maximum Price \(BRL\)" cannot hold to: .*Nothing was sent\.$/);
		expect(ctx.sandbox.control.requests()).toEqual([]);
	});

	// One deadline for the price and the send, and no send started with less than a second of it
	// left: the timeouts family (test/reliability/timeouts.suite.ts).
	// An expression gives whatever its input holds; the Maximum Price family (test/reliability/caps.suite.ts)
	// runs every kind of value, read as an amount or refused; here the wording, and separators it does not take.
	const refused: Array<[string, unknown, string]> = [
		['empty text', '', '""'],
		['no value (a missing column)', '={{ $json.missing }}', 'no value'],
		['thousands separators', '1.234,56', '"1.234,56"'],
		['three decimals', '30.000', '"30.000"'],
	];
	it.each(refused)('refuses %s before any request, naming the field and what it got', async (_case, maxPrice, got) => {
		const result = await run(ctx.sandbox, { ...LETTER, tag: 'cap-bad', additionalFields: { maxPrice } }, { items: [await pdfItem(1)] });
		expect(result.error?.message).toBe(
			`Tag "cap-bad": "Maximum Price (BRL)" (maxPrice) must be an amount in reais of 0 or more, like 30 or 30,00; got ${got}. Fix it, or remove the field to send without a cap. Nothing was sent.`,
		);
		expect(ctx.sandbox.control.requests()).toEqual([]);
	});
});
