import { describe, expect, it } from 'vitest';

import { listSearch, resourceMapping, runNode } from '../harness/engine';
import { credentials, EMAIL, NODE, run, TOKEN, useSandbox } from './fixture';

const ctx = useSandbox();
const BASIC = `Basic ${Buffer.from(`${EMAIL}:${TOKEN}`).toString('base64')}`;

const SEND = {
	resource: 'chatMessage',
	operation: 'send',
	senderId: { __rl: true, mode: 'list', value: '2' },
	templateId: { __rl: true, mode: 'id', value: '102' },
	phone: '+55 11 98765-4321',
	variables: {
		mappingMode: 'defineBelow',
		value: { nome: 'Maria', valor: 'R$ 120,00', vencimento: '30/11' },
	},
};

describe('Chat Message > Send', () => {
	it('sends a template message with HTTP Basic and the variables by name', async () => {
		const result = await run(ctx.sandbox, SEND);
		expect(result.error).toBeUndefined();
		expect(result.items[0]).toMatchObject({
			json: { message_id: expect.any(Number), status: 'processing', template_id: 102, sender_id: 2, paymentMethod: 'service_credits' },
			pairedItem: { item: 0 },
		});
		const [request] = ctx.sandbox.control.requests({ path: '/api/chat/v1/post' });
		expect(request.method).toBe('POST');
		expect(request.headers.authorization).toBe(BASIC);
		expect(request.fields).toEqual({
			phone: '+5511987654321',
			sender_id: 2,
			template_id: 102,
			variables: { nome: 'Maria', valor: 'R$ 120,00', vencimento: '30/11' },
			paymentMethod: 'service_credits',
		});
		expect(ctx.sandbox.control.chatMessages()).toHaveLength(1);
	});

	it('pays by team member when asked', async () => {
		const result = await run(ctx.sandbox, { ...SEND, paymentMethod: 'team', teamMemberId: 12 });
		expect(result.error).toBeUndefined();
		const [request] = ctx.sandbox.control.requests({ path: '/api/chat/v1/post' });
		expect(request.fields).toMatchObject({ paymentMethod: 'team', team_member_id: 12 });
	});

	it('reports a number that is not on the chat app with the service message', async () => {
		const result = await run(ctx.sandbox, { ...SEND, phone: '+5511933332222' });
		expect(result.error?.message).toMatch(/refused the request/);
		expect(result.error?.description).toMatch(/não é um número do aplicativo de chat/);
		expect(ctx.sandbox.control.chatMessages()).toHaveLength(0);
	});

	it('refuses a malformed phone before any request', async () => {
		const result = await run(ctx.sandbox, { ...SEND, phone: '12345' }, { continueOnFail: true });
		expect(result.items[0].json.error).toMatch(/^Item 0: "Recipient Phone" \(phone\) must be a phone number.*\. Nothing was sent\.$/);
		expect(ctx.sandbox.control.requests({ path: '/api/chat/v1/post' })).toHaveLength(0);
	});

	describe('Template Variables set to Map Automatically', () => {
		const schema = ['nome', 'valor', 'vencimento'].map((id) => ({ id, displayName: id, required: true, display: true }));
		const AUTO = { ...SEND, variables: { mappingMode: 'autoMapInputData', value: null, schema } };

		it("takes each of the template's variables from the input field of the same name, and nothing else", async () => {
			const items = [{ json: { nome: 'Maria', valor: 'R$ 1,00', vencimento: '30/11', phone: '+5511999998888', pedido: 7 } }];
			const result = await run(ctx.sandbox, AUTO, { items });
			expect(result.error).toBeUndefined();
			const [request] = ctx.sandbox.control.requests({ path: '/api/chat/v1/post' });
			expect(request.fields).toMatchObject({ variables: { nome: 'Maria', valor: 'R$ 1,00', vencimento: '30/11' } });
			expect(Object.keys((request.fields as { variables: object }).variables)).toEqual(['nome', 'valor', 'vencimento']);
		});

		it('refuses an item without one of them, naming it, and sends nothing', async () => {
			const items = [{ json: { nome: 'Maria', valor: 'R$ 1,00' } }];
			const result = await run(ctx.sandbox, AUTO, { items, continueOnFail: true });
			expect(result.items[0].json.error).toMatch(/input field of the same name; this item has no "vencimento".*Nothing was sent\.$/);
			expect(ctx.sandbox.control.requests({ path: '/api/chat/v1/post' })).toHaveLength(0);
		});

		it('refuses when the variables are not known (the template is an expression), and sends nothing', async () => {
			const result = await run(ctx.sandbox, { ...AUTO, variables: { mappingMode: 'autoMapInputData', value: null, schema: [] } }, {
				items: [{ json: { nome: 'Maria', valor: 'R$ 1,00', vencimento: '30/11' } }],
				continueOnFail: true,
			});
			expect(result.items[0].json.error).toMatch(/Map Automatically, but the template's variables are not known here/);
			expect(ctx.sandbox.control.requests({ path: '/api/chat/v1/post' })).toHaveLength(0);
		});
	});

	it('tells a wrong account e-mail or token apart from other failures, without leaking them', async () => {
		const result = await runWithChatCredentials({ email: EMAIL, securityToken: 'nope-token-1' });
		expect(result.error?.message).toMatch(/Check the security token \(and, for chat, the account e-mail\)/);
		expect(result.error?.description).toContain('Unauthorized - invalid credentials');
		expect(result.serialized).not.toContain('nope-token-1');
		expect(result.serialized).not.toContain(Buffer.from(`${EMAIL}:nope-token-1`).toString('base64'));
	});
});

async function runWithChatCredentials(chat: { email: string; securityToken: string }) {
	return await runNode({
		type: NODE,
		parameters: SEND,
		credentials: { postalServiceChatApi: { baseUrl: ctx.sandbox.baseUrl, ...chat } },
	});
}

describe('Chat Message > Reprocess', () => {
	it('re-queues a message stuck for credits after a top-up, then reports no change', async () => {
		ctx.sandbox.control.setBalance(0);
		const sent = await run(ctx.sandbox, SEND);
		const messageId = sent.items[0].json.message_id as number;
		expect(sent.items[0].json.status).toBe(2);
		ctx.sandbox.control.topUp(50);

		const first = await run(ctx.sandbox, { resource: 'chatMessage', operation: 'reprocess', messageId });
		expect(first.error).toBeUndefined();
		expect(first.items[0].json).toMatchObject({ success: true, message_id: messageId, result: 'queued' });
		const second = await run(ctx.sandbox, { resource: 'chatMessage', operation: 'reprocess', messageId });
		expect(second.items[0].json).toMatchObject({ result: 'no_change' });

		const requests = ctx.sandbox.control.requests({ path: '/api/chat/v1/process' });
		expect(requests.map((r) => [r.fields, r.headers.authorization])).toEqual([
			[{ message_id: messageId }, BASIC],
			[{ message_id: messageId }, BASIC],
		]);
	});

	it('fails for an unknown message with the service message', async () => {
		const result = await run(ctx.sandbox, { resource: 'chatMessage', operation: 'reprocess', messageId: 424242 });
		expect(result.error?.description).toMatch(/Service message: .*424242/);
	});
});

describe('Chat Template > Get Many', () => {
	it('filters by status and active system sender, and limits', async () => {
		const approved = await run(ctx.sandbox, {
			resource: 'chatTemplate',
			operation: 'getMany',
			returnAll: true,
			filters: { status: 'approved' },
		});
		expect(approved.items.map((i) => i.json.id)).toEqual([101, 102]);
		expect(approved.items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 0 }]);

		const system = await run(ctx.sandbox, {
			resource: 'chatTemplate',
			operation: 'getMany',
			returnAll: true,
			filters: { systemSenderOnly: true },
		});
		expect(system.items.map((i) => i.json.sender_id)).toEqual(expect.arrayContaining([1]));
		expect(new Set(system.items.map((i) => i.json.sender_id))).toEqual(new Set([1]));

		const limited = await run(ctx.sandbox, { resource: 'chatTemplate', operation: 'getMany', returnAll: false, limit: 2 });
		expect(limited.items).toHaveLength(2);

		const requests = ctx.sandbox.control.requests({ path: '/api/chat/v1/templates/get' });
		expect(requests.map((r) => r.query)).toEqual([{ status: 'approved' }, { system_sender: '1' }, {}]);
		expect(requests.every((r) => r.headers.authorization === BASIC)).toBe(true);
	});

	it('simplifies to what sending needs unless Simplify is off', async () => {
		const approved = await run(ctx.sandbox, { resource: 'chatTemplate', operation: 'getMany', returnAll: true });
		expect(approved.items[1].json).toEqual({
			id: 102,
			name: 'lembrete_pagamento',
			display_name: 'Lembrete pagamento',
			status: 'approved',
			language: 'pt_BR',
			category: 'UTILITY',
			sender_id: 2,
			sender_name: 'Loja Exemplo',
			variable_names: ['nome', 'valor', 'vencimento'],
		});
		const raw = await run(ctx.sandbox, { resource: 'chatTemplate', operation: 'getMany', returnAll: true, simplify: false });
		expect(raw.items[1].json).toMatchObject({ id: 102, body_text: expect.any(String), components: expect.any(String) });
	});

	it('reports a refused filter with the service message and request id', async () => {
		const result = await run(ctx.sandbox, {
			resource: 'chatTemplate',
			operation: 'getMany',
			options: { extraParameters: { parameter: [{ name: 'system_sender', value: '7' }] } },
		});
		expect(result.error?.description).toMatch(/Service message: system_sender/);
		expect(result.error?.description).toMatch(/Request id: \S+/);
	});
});

describe('Chat Sender > Get Many', () => {
	it('lists senders', async () => {
		const result = await run(ctx.sandbox, { resource: 'chatSender', operation: 'getMany', returnAll: true });
		expect(result.items.map((i) => i.json.id)).toEqual([1, 2]);
		expect(ctx.sandbox.control.requests({ path: '/api/chat/v1/senders/get' })[0].headers.authorization).toBe(BASIC);
	});

	it('fails on a wrong token', async () => {
		const result = await run(ctx.sandbox, { resource: 'chatSender', operation: 'getMany' }, { token: 'bad-chat-token' });
		expect(result.error?.message).toMatch(/did not accept the credentials/);
		expect(result.serialized).not.toContain('bad-chat-token');
	});
});

describe('lists the editor loads from the service', () => {
	const creds = () => credentials(ctx.sandbox.baseUrl);

	it('senders, searchable by name as the user types', async () => {
		const all = await listSearch({ type: NODE, method: 'searchSenders', parameters: SEND, credentials: creds() });
		expect(all.results.map((s) => s.value)).toEqual(['1', '2']);
		expect(all.results[1].name).toContain('Loja Exemplo');
		const typed = await listSearch({ type: NODE, method: 'searchSenders', parameters: SEND, credentials: creds(), filter: 'loja' });
		expect(typed.results.map((s) => s.value)).toEqual(['2']);
	});

	it('templates of the chosen sender, approved first, the others saying why they cannot be sent', async () => {
		const { results } = await listSearch({ type: NODE, method: 'searchTemplates', parameters: SEND, credentials: creds() });
		expect(results.map((t) => t.value)).toEqual(['102', '103', '104', '106']);
		expect(results[0].name).toBe('Lembrete pagamento');
		expect(results[1].name).toBe('Aviso entrega (pending: not approved yet)');
		expect(results[2].name).toMatch(/^Promocao relampago \(rejected: /);
		const typed = await listSearch({ type: NODE, method: 'searchTemplates', parameters: SEND, credentials: creds(), filter: 'AVISO' });
		expect(typed.results.map((t) => t.value)).toEqual(['103']);
		const anySender = await listSearch({
			type: NODE,
			method: 'searchTemplates',
			parameters: { ...SEND, senderId: { __rl: true, mode: 'id', value: '={{ $json.sender }}' } },
			credentials: creds(),
		});
		expect(anySender.results).toHaveLength(6);
	});

	it('the mapper offers the chosen template variables, each required', async () => {
		const { fields } = await resourceMapping({ type: NODE, method: 'getTemplateVariableFields', parameters: SEND, credentials: creds() });
		expect(fields.map((f) => [f.id, f.required])).toEqual([
			['nome', true],
			['valor', true],
			['vencimento', true],
		]);
		const none = await resourceMapping({
			type: NODE,
			method: 'getTemplateVariableFields',
			parameters: { ...SEND, templateId: { __rl: true, mode: 'id', value: '={{ $json.template }}' } },
			credentials: creds(),
		});
		expect(none.fields).toEqual([]);
		expect(none.emptyFieldsNotice).toContain('Choose the template from the list');
	});

	it('a failing list shows the service message, and never the token', async () => {
		const wrong = credentials(ctx.sandbox.baseUrl, 'wrong-token-123');
		const error = await listSearch({ type: NODE, method: 'searchTemplates', parameters: SEND, credentials: wrong }).catch((e: Error) => e);
		expect(error).toBeInstanceOf(Error);
		const text = JSON.stringify({ message: (error as Error).message, description: (error as { description?: string }).description });
		expect(text).toContain('credenciais inválidas');
		expect(text).not.toContain('wrong-token-123');
	});
});
