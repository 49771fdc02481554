/**
 * Extra Parameters: what is checked is the request as it will be sent, and they can never take over
 * what the node itself owns (the token and where it travels, the test flag of Get Price).
 */
import { describe, expect, it } from 'vitest';

import { CHAT_MESSAGE, LETTER, pdfItem, run, TOKEN, useSandbox } from './fixture';

const ctx = useSandbox();
const extras = (pairs: Record<string, string>) => ({
	options: { extraParameters: { parameter: Object.entries(pairs).map(([name, value]) => ({ name, value })) } },
});

describe('Extra Parameters', () => {
	const TEST_FLAG = /"test".*Extra Parameters|Extra Parameters.*"test"/;
	const OTHER_TOKEN = 'someone-elses-token';
	const TOKEN_OWNED = (name: string) => new RegExp(`"${name}" cannot be set here; the node places the security token`);
	it.each<[string, Record<string, unknown>, Record<string, string>, RegExp]>([
		// Checked as the panel's field would be.
		['Letter > Send, an 80-character name', LETTER, { name: 'N'.repeat(80) }, /"Recipient Name" \(name\) is 80 characters long; the limit is 60/],
		['Chat Message > Send, a phone', { ...CHAT_MESSAGE, phone: '+5511987654321' }, { phone: '123' }, /"Recipient Phone" \(phone\)/],
		['Saved Contact > Update, an empty name', { resource: 'savedContact', operation: 'update', contactId: 1, updateFields: { label: 'Casa' } }, { name: ' ' }, /"Name" \(name\)/],
		// The operation decides whether anything is created.
		['Letter > Get Price, test=0', { ...LETTER, operation: 'getPrice' }, { test: '0' }, TEST_FLAG],
		['Letter > Send, test=1', LETTER, { test: '1' }, TEST_FLAG],
		// The PDF comes from PDF Source.
		['Letter > Send, a pdfFile', LETTER, { pdfFile: 'https://example.com/other.pdf' }, /\(pdfFile\) cannot be set here/],
		// The token, wherever the route takes it.
		['Letter > Send, the token of a form field', LETTER, { userSecurityToken: OTHER_TOKEN }, TOKEN_OWNED('userSecurityToken')],
		['Letter > Get, the token of a path', { resource: 'order', operation: 'get', orderId: '100001' }, { userSecurityToken: OTHER_TOKEN }, TOKEN_OWNED('userSecurityToken')],
		['Account > Get Logo, the token of a header', { resource: 'account', operation: 'getLogo' }, { securityToken: OTHER_TOKEN }, TOKEN_OWNED('securityToken')],
		['Saved Contact > Update, the token of a query', { resource: 'savedContact', operation: 'update', contactId: 1, updateFields: { label: 'x' } }, { USERSECURITYTOKEN: OTHER_TOKEN }, TOKEN_OWNED('USERSECURITYTOKEN')],
	])('%s given as an extra is refused, naming it, and nothing is sent', async (_case, parameters, pairs, says) => {
		const result = await run(ctx.sandbox, { ...parameters, ...extras(pairs) }, { items: [await pdfItem(1)] });
		expect(result.error?.message).toMatch(says);
		expect(ctx.sandbox.control.requests()).toHaveLength(0);
		expect(result.serialized).not.toContain(TOKEN);
	});

	it('an extra that passes the checks replaces the node\'s value', async () => {
		const result = await run(ctx.sandbox, { ...LETTER, ...extras({ name: 'Maria S.' }) }, { items: [await pdfItem(1)] });
		expect(result.error).toBeUndefined();
		expect(ctx.sandbox.control.requests({ path: '/api/v2/post' })[0].fields.name).toBe('Maria S.');
	});

	// [the extras, what the service stores, or the refusal naming what is accepted]
	it.each<[Record<string, string>, { virtualbox: boolean; duplex_printing: number } | string]>([
		[{ virtualbox: 'true' }, { virtualbox: true, duplex_printing: 1 }],
		[{ duplex_printing: 'false' }, { virtualbox: false, duplex_printing: 0 }],
		[{ duplex_printing: 'true' }, { virtualbox: false, duplex_printing: 1 }],
		[{ virtualbox: '1', duplex_printing: '0' }, { virtualbox: true, duplex_printing: 0 }],
		[{ virtualbox: 'yes' }, 'must be one of 0, 1, true; got "yes"'],
		[{ duplex_printing: '2' }, 'must be one of 0, 1, true, false; got "2"'],
	])('virtualbox and duplex_printing %o: a value the interface accepts reaches the service, another is refused locally', async (pairs, expected) => {
		const result = await run(ctx.sandbox, { ...LETTER, ...extras(pairs) }, { items: [await pdfItem(2)] });
		if (typeof expected === 'string') {
			expect(result.error?.message).toContain(expected);
			expect(ctx.sandbox.control.requests({ path: '/api/v2/post' })).toHaveLength(0);
		} else {
			expect(result.error).toBeUndefined();
			expect(ctx.sandbox.control.orders()[0]).toMatchObject(expected);
		}
	});
});
