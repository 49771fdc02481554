/**
 * Answers that are not the service's, and a Timeout the node cannot hold to. Redirects, a token
 * echoed in any encoding, an HTML page or an empty body after a write, and a server that never
 * quite finishes are the reliability suite's families (the token scan, the fault matrix, timeouts).
 */
import { describe, expect, it } from 'vitest';

import { LETTER, pdfItem, run, useFakeService, useSandbox } from './fixture';

const ctx = useSandbox();

describe('an answer that is not the service\'s is an error', () => {
	const fake = useFakeService();

	it('a create answered with envelope A and data null', async () => {
		fake.answer.body = JSON.stringify({ status: 200, status_message: 'Sucesso - pedido aceito', data: null });
		const result = await run(fake, LETTER, { items: [await pdfItem(1)] });
		expect(result.error?.message).toMatch(/may have been accepted.*not sent again/);
		expect(result.items).toHaveLength(0);
		expect(fake.requests).toHaveLength(1);
	});

	it('a read answered with the wrong types: an error that names what was expected, no output', async () => {
		fake.answer.body = JSON.stringify({ status: 200, status_message: 'ok', data: { id: 5, status: 'posted' } });
		const result = await run(fake, { resource: 'order', operation: 'get', orderId: '100001' });
		expect(result.error?.message).toMatch(/not the service's usual answer/);
		expect(result.error?.description).toMatch(/data\.id/);
		expect(result.error?.message).not.toMatch(/may have been accepted/);
	});

	it('a read from a base URL that serves a web page', async () => {
		Object.assign(fake.answer, { type: 'text/html', body: '<!doctype html><title>Panel</title>' });
		const result = await run(fake, { resource: 'account', operation: 'getBalance' });
		expect(result.error?.message).toMatch(/not the service's usual answer/);
		expect(result.error?.description).toMatch(/base URL/);
	});
});

describe('Timeout', () => {
	it.each([2 ** 31, 2 ** 32 + 5, 1.5])('a Timeout of %s ms is refused before anything is sent, naming the field', async (timeout) => {
		const result = await run(ctx.sandbox, { ...LETTER, options: { timeout } }, { items: [await pdfItem(1)] });
		expect(result.error?.message).toMatch(/"Timeout \(Ms\)" must be a whole number of milliseconds from 1 to 3600000.*Nothing was sent/);
		expect(result.error?.message).not.toMatch(/not sent again/);
		expect(ctx.sandbox.control.requests({ path: '/api/v2/post' })).toHaveLength(0);
	});
});
