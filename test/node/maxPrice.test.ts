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

	it('prices and sends under one deadline: a send that would end after the Timeout is stopped there', async () => {
		// Each answer takes 2.5 s of a 4 s Timeout: the price fits and leaves time to start the send, which does not fit.
		ctx.sandbox.control.injectFault({ path: '/api/v2/post', kind: 'slow', delayMs: 2500, count: 2 });
		const result = await run(ctx.sandbox, { ...LETTER, tag: 'one-deadline', additionalFields: { maxPrice: 1000 }, options: { timeout: 4000 } }, { items: [await pdfItem(1)] });
		expect(result.error?.message).toMatch(/did not answer in time; the request may have been accepted\. It was not sent again/);
		expect(ctx.sandbox.control.requests({ path: '/api/v2/post' }).map((request) => request.fields.test ?? '0')).toEqual(['1', '0']);
	});

	it('does not start the send when the price left less than a second of the Timeout: nothing was sent', async () => {
		ctx.sandbox.control.injectFault({ path: '/api/v2/post', kind: 'slow', delayMs: 1300, count: 1 });
		const result = await run(ctx.sandbox, { ...LETTER, tag: 'deadline-spent', additionalFields: { maxPrice: 1000 }, options: { timeout: 2000 } }, { items: [await pdfItem(1)] });
		expect(result.error?.message).toBe(
			'Tag "deadline-spent": Options > "Timeout (Ms)" (2000 ms) was used up by this item\'s earlier requests before this one could start. Nothing was sent.',
		);
		expect(ctx.sandbox.control.requests({ path: '/api/v2/post' }).map((request) => request.fields.test ?? '0')).toEqual(['1']);
		expect(ctx.sandbox.control.orders().filter((order) => order.tag === 'deadline-spent')).toEqual([]);
	});

	// An expression gives whatever its input holds: a blank cell, a renamed column, a Brazilian "30,00".
	const refused: Array<[string, unknown, string]> = [
		['empty text', '', '""'],
		['spaces', ' ', '" "'],
		['null', null, 'null'],
		['no value (a missing column)', '={{ $json.missing }}', 'no value'],
		['not a number', 'trinta', '"trinta"'],
		['NaN', '={{ NaN }}', 'NaN'],
		['a negative amount', -1, '-1'],
		['Infinity', '={{ Infinity }}', 'Infinity'],
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

	const read: Array<[unknown, number]> = [
		[30, 30],
		['30', 30],
		['30.5', 30.5],
		['30,00', 30],
		['R$ 30', 30],
		['r$30,5', 30.5],
		[' 0 ', 0],
	];
	it.each(read)('reads %j as R$ %d', async (maxPrice, reais) => {
		const result = await run(ctx.sandbox, { ...LETTER, tag: 'cap-read', additionalFields: { maxPrice }, options: {} }, { items: [await pdfItem(1)] });
		const price = await priceOfLetter();
		if (price <= reais) expect(result.items[0]?.json.id).toMatch(/^\d+$/);
		else expect(result.error?.message).toContain(`above "Maximum Price (BRL)" (R$ ${reais.toFixed(2)})`);
	});
});
