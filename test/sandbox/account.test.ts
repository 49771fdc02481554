/**
 * The account routes beside the orders: the balance, the logo, and the saved contacts (favorites)
 * changed in place.
 */
import { describe, expect, it } from 'vitest';

import { call, TOKEN, useSandbox } from './support';

const ctx = useSandbox();

describe('Endpoints › GET /api/v2/logo', () => {
	// Each place the token may take, and the refusals, are authentication.test.ts's.
	it('answers envelope B without request_id', async () => {
		const answer = await call(`${ctx.base}/api/v2/logo`, { headers: { securityToken: TOKEN } });
		expect(answer.body).toEqual({ code: 200, status: 'success', message: expect.any(String), data: { logo_url: expect.stringMatching(/^http/) } });
	});
});

describe('Endpoints › PUT /api/v2/favorites', () => {
	const put = (body: string, contentType: string) =>
		call(`${ctx.base}/api/v2/favorites?userSecurityToken=${TOKEN}`, { method: 'PUT', headers: { 'content-type': contentType }, body });

	it('changes only the keys present (JSON), returning the saved contact', async () => {
		const answer = await put(JSON.stringify({ id: 1, city: 'Santos', list_whatsapp: 1 }), 'application/json');
		expect(answer.status).toBe(200);
		expect(answer.body).toMatchObject({ success: true, message: expect.any(String) });
		expect(answer.body.favorite).toMatchObject({ id: 1, id_user: 1, name: 'Maria da Silva', city: 'Santos', list_whatsapp: 1, email: 'maria@example.com' });
	});

	it('clears a field sent as null or empty string (urlencoded and JSON)', async () => {
		const form = await put(new URLSearchParams({ id: '1', addr2: '', phone: '' }).toString(), 'application/x-www-form-urlencoded');
		expect(form.body.favorite).toMatchObject({ addr2: '', phone: '', name: 'Maria da Silva' });
		const json = await put(JSON.stringify({ id: 1, document: null, list_email: null }), 'application/json');
		expect(json.body.favorite).toMatchObject({ document: '', list_email: 0 });
	});

	it('requires id and refuses to empty name', async () => {
		const noId = await put(JSON.stringify({ name: 'X' }), 'application/json');
		expect(noId.status).toBe(400);
		expect(noId.body).toEqual({ success: false, message: expect.stringContaining('id') });
		const emptyName = await put(JSON.stringify({ id: 1, name: '' }), 'application/json');
		expect(emptyName.status).toBe(400);
		expect(emptyName.body.success).toBe(false);
		expect(ctx.sandbox.control.favorites()[0].name).toBe('Maria da Silva');
	});
});

describe('Endpoints › GET /api/v2/balance/{securityToken}', () => {
	it('answers envelope A with the assumed balance fields', async () => {
		const answer = await call(`${ctx.base}/api/v2/balance/${TOKEN}`);
		expect(answer.body).toEqual({ status: 200, status_message: 'Sucesso', data: { balance: 1000, currency: 'BRL' } });
		ctx.sandbox.control.topUp(50);
		expect((await call(`${ctx.base}/api/v2/balance/${TOKEN}`)).body.data.balance).toBe(1050);
	});
});
