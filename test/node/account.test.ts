import { describe, expect, it } from 'vitest';

import { run, TOKEN, useSandbox } from './fixture';

const ctx = useSandbox();

// A refusal of each operation's route, in the service's words, is errors.test.ts's family of wrong tokens;
// each read's answer from a real run (Get Balance, Get Logo, Receipt > Get, Registered E-Mail > Get and
// Download File) is docs/outputs.md's, checked by test/docs/outputs.test.ts. An empty name given to
// Saved Contact > Update is extras.test.ts's, through the same check as the panel's field. Registered
// E-Mail > Cancel is the fault matrix's (cancelled once per item); a second cancellation order-cancel.test.ts's.
describe('Account', () => {
	it('takes a Timeout given by expression from each item', async () => {
		// Parameters without an expression are read once per run; one with an expression still per item.
		ctx.sandbox.control.setLatency(400);
		const result = await run(
			ctx.sandbox,
			{ resource: 'account', operation: 'getBalance', options: { timeout: '={{ $json.timeout }}' } },
			{ items: [{ json: { timeout: 10_000 } }, { json: { timeout: 100 } }, { json: { timeout: 10_000 } }], continueOnFail: true },
		);
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => (item.json.error === undefined ? 'answered' : String(item.json.error)))).toEqual([
			'answered',
			expect.stringMatching(/did not answer in time/),
			'answered',
		]);
	});
});

describe('Saved Contact > Update', () => {
	it('sends only the fields set, and clears the ones chosen', async () => {
		const result = await run(ctx.sandbox, {
			resource: 'savedContact',
			operation: 'update',
			contactId: 1,
			updateFields: { city: 'Campinas', list_whatsapp: true },
			fieldsToClear: ['addr2', 'document'],
		});
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ id: 1, name: 'Maria da Silva', city: 'Campinas', addr2: '', document: '', list_whatsapp: 1, label: 'Fornecedor' });
		const [request] = ctx.sandbox.control.requests({ path: '/api/v2/favorites' });
		expect(request.method).toBe('PUT');
		expect(request.query).toEqual({ userSecurityToken: TOKEN });
		expect(request.fields).toEqual({ id: 1, city: 'Campinas', list_whatsapp: 1, addr2: '', document: '' });
	});
});

describe('Registered E-Mail', () => {
	it('Get refuses a letter id before any request', async () => {
		const result = await run(ctx.sandbox, { resource: 'registeredEmail', operation: 'get', orderId: '100001' });
		expect(result.error?.message).toMatch(/E followed by digits/);
		expect(ctx.sandbox.control.requests()).toHaveLength(0);
	});
});
