/** The chat routes that send: a template message, and the reprocessing of one stuck for credits. */
import { describe, expect, it } from 'vitest';

import { startSandbox } from '../../sandbox';
import { call, chatAuth, chatRoutes, EMAIL, TOKEN, useSandbox, welcome } from './support';

const ctx = useSandbox();
const { send, reprocess } = chatRoutes(ctx);

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
});
