import { describe, expect, it } from 'vitest';

import { TEMPLATE_STATUSES, valuesOf } from '../../nodes/PostalService/contract/lists';
import { startSandbox } from '../../sandbox';
import { basic, call, EMAIL, TOKEN, useSandbox } from './support';

const ctx = useSandbox({ authFailureLimit: 3 });
const chatAuth = { authorization: basic(EMAIL, TOKEN) };

const send = (body: Record<string, unknown>, headers: Record<string, string> = chatAuth) =>
	call(`${ctx.base}/api/chat/v1/post`, {
		method: 'POST',
		headers: { ...headers, 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
const reprocess = (messageId: number) =>
	call(`${ctx.base}/api/chat/v1/process`, {
		method: 'POST',
		headers: { ...chatAuth, 'content-type': 'application/json' },
		body: JSON.stringify({ message_id: messageId }),
	});
const welcome = { phone: '(11) 98765-4321', template_id: 101, variables: { nome: 'Ana' } };

describe('Endpoints › GET /api/v2/logo', () => {
	it('answers envelope B without request_id for each token style', async () => {
		for (const init of [
			{ headers: { securityToken: TOKEN } },
			{ headers: { authorization: `Bearer ${TOKEN}` } },
			{ query: `?userSecurityToken=${TOKEN}` },
		]) {
			const answer = await call(`${ctx.base}/api/v2/logo${'query' in init ? init.query : ''}`, 'headers' in init ? init : {});
			expect(answer.status).toBe(200);
			expect(answer.body).toEqual({ code: 200, status: 'success', message: expect.any(String), data: { logo_url: expect.stringMatching(/^http/) } });
		}
	});

	it('answers 401 Token de segurança inválido', async () => {
		const answer = await call(`${ctx.base}/api/v2/logo`, { headers: { authorization: 'Bearer nope' } });
		expect(answer.status).toBe(401);
		expect(answer.body).toEqual({ code: 401, status: 'error', message: 'Token de segurança inválido', data: null });
	});
});

describe('Endpoints › PUT /api/v2/favorites', () => {
	const put = (body: string, contentType: string, token = TOKEN) =>
		call(`${ctx.base}/api/v2/favorites?userSecurityToken=${token}`, { method: 'PUT', headers: { 'content-type': contentType }, body });

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

	it('answers {success:false, message:"Não autorizado"} with a wrong token', async () => {
		const answer = await put(JSON.stringify({ id: 1, name: 'X' }), 'application/json', 'nope');
		expect(answer.status).toBe(401);
		expect(answer.body).toEqual({ success: false, message: 'Não autorizado' });
	});
});

describe('Endpoints › POST /api/chat/v1/post', () => {
	it('accepts a message: recipient normalized to E.164, status processing, the response shape', async () => {
		const answer = await send(welcome);
		expect(answer.status).toBe(200);
		expect(answer.body.status).toBe(200);
		expect(answer.body.data).toEqual({
			message_id: expect.any(Number),
			visual_id: expect.stringMatching(/^\d+$/),
			status: 'processing',
			paymentMethod: 'service_credits',
			stored_payment_method: 'service_credits',
			team_member_id: 0,
			template_id: 101,
			template_name: 'boas_vindas',
			sender_id: 1,
		});
		expect(ctx.sandbox.control.chatMessages()[0]).toMatchObject({ phone: '+5511987654321', variables: { nome: 'Ana' } });
	});

	it('accepts urlencoded and multipart bodies too', async () => {
		const form = new URLSearchParams({ phone: '+55 21 99999-0000', template_id: '102', 'variables[nome]': 'João', 'variables[valor]': 'R$ 10', 'variables[vencimento]': '10/12' });
		const urlencoded = await call(`${ctx.base}/api/chat/v1/post`, { method: 'POST', headers: chatAuth, body: form });
		expect(urlencoded.body.data).toMatchObject({ status: 'processing', sender_id: 2 });
		const multipart = new FormData();
		multipart.append('phone', '11987654321');
		multipart.append('template_id', '101');
		multipart.append('variables', JSON.stringify({ nome: 'Ana' }));
		const answer = await call(`${ctx.base}/api/chat/v1/post`, { method: 'POST', headers: chatAuth, body: multipart });
		expect(answer.body.data.status).toBe('processing');
	});

	it('refuses a number not on the chat app with 400, until it is added', async () => {
		const refused = await send({ ...welcome, phone: '+55 11 3333-4444' });
		expect(refused.status).toBe(400);
		expect(refused.body.data).toBeNull();
		ctx.sandbox.control.addChatNumber('1133334444');
		expect((await send({ ...welcome, phone: '+55 11 3333-4444' })).status).toBe(200);
	});

	it('test environment: a chat-app number not on the allow-list is refused, the message marked failed with the reason, nothing charged', async () => {
		const before = ctx.sandbox.control.balance();
		const refused = await send({ ...welcome, phone: '+55 11 95555-4444' });
		expect(refused.status).toBe(200);
		expect(refused.body.status_message).toMatch(/lista de permissões/);
		expect(refused.body.data).toMatchObject({ status: 'failed' });
		expect(ctx.sandbox.control.chatMessages()[0]).toMatchObject({ phone: '+5511955554444', status: 'failed', failure_reason: expect.stringMatching(/\+5511955554444.*lista de permissões/) });
		expect(ctx.sandbox.control.balance()).toBe(before);
		ctx.sandbox.control.addChatRecipient('+5511955554444');
		expect((await send({ ...welcome, phone: '+55 11 95555-4444' })).body.data.status).toBe('processing');
	});

	it('production has no allow-list: the same number is sent', async () => {
		const production = await startSandbox({ port: 0, token: TOKEN, email: EMAIL, environment: 'production', quiet: true });
		try {
			const answer = await call(`${production.baseUrl}/api/chat/v1/post`, {
				method: 'POST',
				headers: { ...chatAuth, 'content-type': 'application/json' },
				body: JSON.stringify({ ...welcome, phone: '+55 11 95555-4444' }),
			});
			expect(answer.body.data.status).toBe('processing');
		} finally {
			await production.stop();
		}
	});

	it('answers 400 Campos obrigatórios não preenchidos for missing fields', async () => {
		const answer = await send({ template_id: 101 });
		expect(answer.status).toBe(400);
		expect(answer.body).toEqual({ status: 400, status_message: 'Campos obrigatórios não preenchidos', data: null });
		expect((await send({ ...welcome, paymentMethod: 'team' })).body.status_message).toBe('Campos obrigatórios não preenchidos');
	});

	it('refuses templates that are not approved and missing variables', async () => {
		expect((await send({ ...welcome, template_id: 103, variables: { pedido: '1' } })).status).toBe(400);
		expect((await send({ ...welcome, variables: {} })).body.status_message).toMatch(/^Campos obrigatórios não preenchidos/);
	});

	it('answers 401 Unauthorized - invalid credentials for wrong Basic credentials', async () => {
		const answer = await send(welcome, { authorization: basic(EMAIL, 'wrong') });
		expect(answer.status).toBe(401);
		expect(answer.body).toEqual({ status: 401, status_message: 'Unauthorized - invalid credentials', data: null });
	});

	it('status 2 when the balance cannot pay', async () => {
		ctx.sandbox.control.setBalance(0);
		const answer = await send(welcome);
		expect(answer.status).toBe(200);
		expect(answer.body.data.status).toBe(2);
	});
});

describe('Endpoints › POST /api/chat/v1/process', () => {
	it('re-queues a status-2 message paid with service_credits after a top-up', async () => {
		ctx.sandbox.control.setBalance(0);
		const { message_id, visual_id } = (await send(welcome)).body.data;
		expect((await reprocess(message_id)).status).toBe(400);
		ctx.sandbox.control.topUp(10);
		const answer = await reprocess(message_id);
		expect(answer.status).toBe(200);
		expect(answer.body.data).toMatchObject({ success: true, message_id, visual_id });
		expect(ctx.sandbox.control.balance()).toBe(9.5);
	});

	it('answers result no_change (at data.result) for a message queued or processing', async () => {
		const { message_id } = (await send(welcome)).body.data;
		const answer = await reprocess(message_id);
		expect(answer.status).toBe(200);
		expect(answer.body.data).toMatchObject({ message_id, result: 'no_change' });
	});

	it('refuses status-2 messages paid otherwise', async () => {
		const { message_id } = (await send({ ...welcome, paymentMethod: 'invoice' })).body.data;
		ctx.sandbox.control.setChatMessageStatus(message_id, 2);
		expect((await reprocess(message_id)).status).toBe(400);
	});

	it('answers 400 without message_id and 401 with wrong credentials', async () => {
		const incomplete = await call(`${ctx.base}/api/chat/v1/process`, { method: 'POST', headers: { ...chatAuth, 'content-type': 'application/json' }, body: '{}' });
		expect(incomplete.body.status_message).toBe('Campos obrigatórios não preenchidos');
		const denied = await call(`${ctx.base}/api/chat/v1/process`, { method: 'POST', headers: { authorization: basic('x', 'y'), 'content-type': 'application/json' }, body: '{"message_id":1}' });
		expect(denied.body.status_message).toBe('Unauthorized - invalid credentials');
	});
});

describe('Endpoints › GET /api/chat/v1/templates/get', () => {
	it('answers envelope B with count and request_id, templates in every status with variable_names', async () => {
		const answer = await call(`${ctx.base}/api/chat/v1/templates/get`, { headers: chatAuth });
		expect(answer.body).toMatchObject({ code: 200, status: 'success', request_id: expect.any(String), count: 6 });
		expect(new Set(answer.body.data.map((t: { status: string }) => t.status))).toEqual(new Set(valuesOf(TEMPLATE_STATUSES)));
		expect(answer.body.data[1]).toMatchObject({ variables_count: 3, variable_names: ['nome', 'valor', 'vencimento'], category: 'UTILITY', header_format: 'NONE' });
	});

	it('filters by status and by the system sender (system_sender=1)', async () => {
		const approved = await call(`${ctx.base}/api/chat/v1/templates/get?status=approved`, { headers: chatAuth });
		expect(approved.body.count).toBe(2);
		const system = await call(`${ctx.base}/api/chat/v1/templates/get?system_sender=1`, { headers: chatAuth });
		expect(system.body.data.every((t: { sender_is_system: boolean }) => t.sender_is_system)).toBe(true);
		const bad = await call(`${ctx.base}/api/chat/v1/templates/get?status=gone`, { headers: chatAuth });
		expect(bad.status).toBe(400);
		expect(bad.body).toMatchObject({ code: 400, status: 'error', data: null });
	});

	it('answers 401 Não autorizado — credenciais inválidas', async () => {
		const answer = await call(`${ctx.base}/api/chat/v1/templates/get`, { headers: { authorization: basic(EMAIL, 'x') } });
		expect(answer.status).toBe(401);
		expect(answer.body).toMatchObject({ code: 401, status: 'error', message: 'Não autorizado — credenciais inválidas', data: null, request_id: expect.any(String) });
	});

	it('lists a template added through the control after the seeded ones, and can send it once approved', async () => {
		const added = ctx.sandbox.control.addTemplate({ senderId: 2, name: 'entrega_confirmada', variableNames: ['nome', 'pedido'] });
		expect(added).toMatchObject({ id: 107, sender_id: 2, sender_name: 'Loja Exemplo', display_name: 'Entrega confirmada', status: 'approved', body_text: '{{1}} {{2}}' });
		const answer = await call(`${ctx.base}/api/chat/v1/templates/get`, { headers: chatAuth });
		expect(answer.body.count).toBe(7);
		expect(answer.body.data.at(-1)).toMatchObject({ id: 107, variable_names: ['nome', 'pedido'] });
		const sent = await send({ ...welcome, sender_id: 2, template_id: 107, variables: { nome: 'Ana', pedido: '100001' } });
		expect(sent.body).toMatchObject({ status: 200 });
		expect(() => ctx.sandbox.control.addTemplate({ senderId: 9, name: 'x' })).toThrow(/no sender 9/);
		expect(() => ctx.sandbox.control.addTemplate({ senderId: 2, name: 'x', status: 'gone' as never })).toThrow(/status must be one of/);
	});
});

describe('Endpoints › GET /api/chat/v1/senders/get', () => {
	it('answers envelope A with the senders, one of them the system sender', async () => {
		const answer = await call(`${ctx.base}/api/chat/v1/senders/get`, { headers: chatAuth });
		expect(answer.body.status).toBe(200);
		expect(answer.body.data.filter((s: { is_system: boolean }) => s.is_system)).toHaveLength(1);
		expect(answer.body.data[0]).toEqual({ id: 1, name: expect.any(String), phone: expect.stringMatching(/^\+\d+$/), is_system: true, status: 'active', created_at: expect.any(String) });
		expect((await call(`${ctx.base}/api/chat/v1/senders/get`, { headers: { authorization: basic('E', 'x') } })).body.status_message).toBe(
			'Unauthorized - invalid credentials',
		);
	});
});

describe('Errors › status codes', () => {
	it('405 for a wrong method on a known route, 404 for an unknown one', async () => {
		const wrong = await call(`${ctx.base}/api/v2/post`, { method: 'GET' });
		expect(wrong.status).toBe(405);
		expect(wrong.headers.get('allow')).toBe('POST');
		expect((await call(`${ctx.base}/api/chat/v1/templates/get`, { method: 'POST', headers: chatAuth })).body).toMatchObject({ code: 405 });
		expect((await call(`${ctx.base}/api/v2/favorites`, { method: 'GET' })).body).toEqual({ success: false, message: expect.any(String) });
		expect((await call(`${ctx.base}/api/v9/nothing`)).status).toBe(404);
	});

	it('429 after repeated failed authentication from one client; a success resets the count', async () => {
		const statuses: number[] = [];
		for (let i = 0; i < 5; i++) statuses.push((await call(`${ctx.base}/api/v2/balance/wrong`)).status);
		expect(statuses).toEqual([401, 401, 401, 429, 429]);
		expect((await call(`${ctx.base}/api/v2/balance/${TOKEN}`)).status).toBe(200);
		expect((await call(`${ctx.base}/api/v2/balance/wrong`)).status).toBe(401);
	});

	it('503 during maintenance on letter and e-mail routes only', async () => {
		ctx.sandbox.control.setMaintenance(true);
		const answer = await call(`${ctx.base}/api/v2/balance/${TOKEN}`);
		expect(answer.status).toBe(503);
		expect(answer.body).toMatchObject({ status: 503, data: null });
		expect((await call(`${ctx.base}/api/v2/get/${TOKEN}/1`)).status).toBe(503);
		expect((await call(`${ctx.base}/api/chat/v1/senders/get`, { headers: chatAuth })).status).toBe(200);
		ctx.sandbox.control.setMaintenance(false);
		expect((await call(`${ctx.base}/api/v2/balance/${TOKEN}`)).status).toBe(200);
	});

	it('injected faults: 500, 503, slow, drop, dropAfterAccept', async () => {
		ctx.sandbox.control.injectFault({ path: '/api/v2/balance', kind: '500' });
		expect((await call(`${ctx.base}/api/v2/balance/${TOKEN}`)).status).toBe(500);
		expect((await call(`${ctx.base}/api/v2/balance/${TOKEN}`)).status).toBe(200);
		ctx.sandbox.control.injectFault({ path: '/api/v2/balance', kind: '503', count: 2 });
		expect((await call(`${ctx.base}/api/v2/balance/${TOKEN}`)).status).toBe(503);
		expect((await call(`${ctx.base}/api/v2/balance/${TOKEN}`)).status).toBe(503);
		ctx.sandbox.control.injectFault({ path: '/api/v2/balance', kind: 'slow', delayMs: 150 });
		const started = Date.now();
		await call(`${ctx.base}/api/v2/balance/${TOKEN}`);
		expect(Date.now() - started).toBeGreaterThanOrEqual(140);
		ctx.sandbox.control.injectFault({ path: '/api/v2/balance', kind: 'drop' });
		await expect(fetch(`${ctx.base}/api/v2/balance/${TOKEN}`)).rejects.toThrow();
		ctx.sandbox.control.injectFault({ method: 'POST', path: '/api/chat/v1/post', kind: 'dropAfterAccept' });
		await expect(send(welcome)).rejects.toThrow();
		expect(ctx.sandbox.control.chatMessages()).toHaveLength(1);
	});

	it('injected faults: skip, redirect, html, empty, trickle', async () => {
		ctx.sandbox.control.injectFault({ path: '/api/v2/balance', kind: '500', skip: 1 });
		expect((await call(`${ctx.base}/api/v2/balance/${TOKEN}`)).status).toBe(200);
		expect((await call(`${ctx.base}/api/v2/balance/${TOKEN}`)).status).toBe(500);
		ctx.sandbox.control.injectFault({ path: '/api/v2/balance', kind: 'redirect', status: 302, location: 'http://127.0.0.1:9/elsewhere' });
		const moved = await fetch(`${ctx.base}/api/v2/balance/${TOKEN}`, { redirect: 'manual' });
		expect([moved.status, moved.headers.get('location')]).toEqual([302, 'http://127.0.0.1:9/elsewhere']);
		expect(() => ctx.sandbox.control.injectFault({ path: '/', kind: 'redirect' })).toThrow(/location/);

		// The three others do the work, then answer with something that is not the envelope.
		ctx.sandbox.control.injectFault({ method: 'POST', path: '/api/chat/v1/post', kind: 'html' });
		const page = await send(welcome);
		expect([page.status, page.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
		ctx.sandbox.control.injectFault({ method: 'POST', path: '/api/chat/v1/post', kind: 'empty' });
		const empty = await send(welcome);
		expect([empty.status, empty.body]).toEqual([200, '']);
		expect(ctx.sandbox.control.chatMessages()).toHaveLength(2);

		ctx.sandbox.control.injectFault({ path: '/api/v2/balance', kind: 'trickle', delayMs: 20 });
		const response = await fetch(`${ctx.base}/api/v2/balance/${TOKEN}`);
		const reader = response.body!.getReader();
		const chunks: Uint8Array[] = [];
		for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) chunks.push(chunk.value);
		// One byte per pause: the reader sees the answer in many small pieces.
		expect(chunks.length).toBeGreaterThan(10);
		expect(JSON.parse(Buffer.concat(chunks).toString('utf8'))).toMatchObject({ status: 200, data: { balance: expect.any(Number) } });
	});
});
