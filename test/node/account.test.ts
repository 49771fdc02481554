import { describe, expect, it } from 'vitest';

import { binaryBuffer } from '../harness/engine';
import { LETTER, pdfItem, run, TOKEN, useSandbox } from './fixture';

const ctx = useSandbox();

// A refusal of each operation's route, in the service's words, is errors.test.ts's family of wrong tokens.
describe('Account', () => {
	it('Get Balance reads the balance with the token in the path', async () => {
		const result = await run(ctx.sandbox, { resource: 'account', operation: 'getBalance' });
		expect(result.items).toEqual([{ json: { balance: 1000, currency: 'BRL' }, pairedItem: { item: 0 } }]);
		expect(ctx.sandbox.control.requests({ path: /^\/api\/v2\/balance\// })[0].path).toBe(`/api/v2/balance/${TOKEN}`);
	});

	it('takes a Timeout given by expression from each item', async () => {
		// Parameters without an expression are read once per run; one with an expression still per item.
		ctx.sandbox.control.setLatency(400);
		try {
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
		} finally {
			ctx.sandbox.control.setLatency(0);
		}
	});

	it('Get Logo sends the token as the securityToken header', async () => {
		const result = await run(ctx.sandbox, { resource: 'account', operation: 'getLogo' });
		expect(result.error).toBeUndefined();
		expect(result.items[0].json.logo_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
		const [request] = ctx.sandbox.control.requests({ path: '/api/v2/logo' });
		expect(request.headers.securitytoken).toBe(TOKEN);
		expect(request.query).toEqual({});
	});
});

describe('Receipt > Get', () => {
	it('outputs the receipt file as binary data', async () => {
		const created = await run(ctx.sandbox, LETTER, { items: [await pdfItem(1)] });
		const id = String(created.items[0].json.id);
		const result = await run(ctx.sandbox, { resource: 'receipt', operation: 'get', orderId: id });
		expect(result.error).toBeUndefined();
		const [item] = result.items;
		expect(item.json).toMatchObject({ id_job: id, file_name: `recibo-${id}.pdf` });
		expect(item.json.file_base64).toBeUndefined();
		expect(item.binary?.data).toMatchObject({ mimeType: 'application/pdf', fileName: `recibo-${id}.pdf` });
		expect((await binaryBuffer(item)).subarray(0, 5).toString()).toBe('%PDF-');
		const [request] = ctx.sandbox.control.requests({ path: '/api/receipts/v1/get' });
		expect(request.query).toEqual({ order_id: id });
		expect(request.headers.securitytoken).toBe(TOKEN);
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

	it('refuses an empty name before any request', async () => {
		const empty = await run(ctx.sandbox, { resource: 'savedContact', operation: 'update', contactId: 1, updateFields: { name: '  ' } });
		expect(empty.error?.message).toMatch(/"Name" \(name\), when sent, cannot be empty/);
		expect(ctx.sandbox.control.requests({ path: '/api/v2/favorites' })).toHaveLength(0);
	});
});

describe('Registered E-Mail', () => {
	function emailOrder(): string {
		return String(ctx.sandbox.control.createEmailOrder({ email: 'joao@example.com', name: 'João', subject: 'Notificação' }).id);
	}

	it('Get reads an E id through the order route', async () => {
		const id = emailOrder();
		const result = await run(ctx.sandbox, { resource: 'registeredEmail', operation: 'get', orderId: id });
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ id, status: 1, statusText: 'Paid, awaiting send', subject: 'Notificação' });
		expect(ctx.sandbox.control.requests({ path: /^\/api\/v2\/get\// })[0].path).toBe(`/api/v2/get/${TOKEN}/${id}`);
	});

	it('Get refuses a letter id before any request', async () => {
		const result = await run(ctx.sandbox, { resource: 'registeredEmail', operation: 'get', orderId: '100001' });
		expect(result.error?.message).toMatch(/E followed by digits/);
		expect(ctx.sandbox.control.requests()).toHaveLength(0);
	});

	it('Download File returns the certificate of a sent e-mail as binary', async () => {
		const id = emailOrder();
		ctx.sandbox.control.setOrderStatus(id, 3);
		const result = await run(ctx.sandbox, { resource: 'registeredEmail', operation: 'downloadFile', orderId: id, fileType: 'pdf' });
		expect(result.error).toBeUndefined();
		expect(result.items[0].binary?.data.mimeType).toBe('application/pdf');
		expect((await binaryBuffer(result.items[0])).subarray(0, 5).toString()).toBe('%PDF-');
		expect(ctx.sandbox.control.requests({ path: /^\/api\/v2\/download\// })[0].path).toBe(`/api/v2/download/${TOKEN}/${id}/pdf`);
	});

	it('Cancel cancels, then reports the second attempt', async () => {
		const id = emailOrder();
		const first = await run(ctx.sandbox, { resource: 'registeredEmail', operation: 'cancel', orderId: id });
		expect(first.error).toBeUndefined();
		expect(first.items[0].json).toMatchObject({ id, status_text: 'Cancelado' });
		const second = await run(ctx.sandbox, { resource: 'registeredEmail', operation: 'cancel', orderId: id });
		expect(second.error?.description).toContain('já está cancelado');
		expect(ctx.sandbox.control.requests({ method: 'DELETE' }).map((r) => r.path)).toEqual([
			`/api/v2/delete/${TOKEN}/${id}`,
			`/api/v2/delete/${TOKEN}/${id}`,
		]);
	});
});
