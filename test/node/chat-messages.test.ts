/**
 * Chat Message > Send and Reprocess through n8n: HTTP Basic, the variables by name or mapped. The
 * service's refusals in its own words are errors.test.ts's.
 */
import { describe, expect, it } from 'vitest';

import { startSandbox } from '../../sandbox';
import { CHAT_BASIC as BASIC, CHAT_SEND as SEND, EMAIL, run, TOKEN, useFakeService, useSandbox } from './fixture';

const ctx = useSandbox();
const fake = useFakeService();

describe('Chat Message > Send', () => {
	it('takes a payment method the service names through Extra Parameters, the documented way around the guessed values', async () => {
		// A service whose payment methods are not the letters' ones: the node sends what it is given and lets the service judge.
		const renamed = await startSandbox({ port: 0, token: TOKEN, email: EMAIL, quiet: true, balance: 1000, renamedAssumptions: ['chatPaymentMethods'] });
		try {
			const extras = { options: { extraParameters: { parameter: [{ name: 'paymentMethod', value: 'creditos' }] } } };
			const result = await run(renamed, { ...SEND, ...extras });
			expect(result.error).toBeUndefined();
			expect(renamed.control.requests({ path: '/api/chat/v1/post' }).map((request) => request.fields.paymentMethod)).toEqual(['creditos']);
			expect(renamed.control.chatMessages()).toHaveLength(1);
		} finally {
			await renamed.stop();
		}
	});

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

	it('refuses a malformed phone before any request', async () => {
		const result = await run(ctx.sandbox, { ...SEND, phone: '12345' }, { continueOnFail: true });
		expect(result.items[0].json.error).toMatch(/^"Recipient Phone" \(phone\) must be a phone number.*\. Nothing was sent\.$/);
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

		it.each([
			['an item without one of them, naming it', AUTO, { nome: 'Maria', valor: 'R$ 1,00' }, /input field of the same name; this item has no "vencimento".*Nothing was sent\.$/],
			[
				'when the variables are not known (the template is an expression)',
				{ ...AUTO, variables: { mappingMode: 'autoMapInputData', value: null, schema: [] } },
				{ nome: 'Maria', valor: 'R$ 1,00', vencimento: '30/11' },
				/Map Automatically, but the template's variables are not known here/,
			],
		])('refuses %s, and sends nothing', async (_case, parameters, json, says) => {
			const result = await run(ctx.sandbox, parameters, { items: [{ json }], continueOnFail: true });
			expect(result.items[0].json.error).toMatch(says);
			expect(ctx.sandbox.control.requests({ path: '/api/chat/v1/post' })).toHaveLength(0);
		});
	});
});

describe('Chat Message > Reprocess', () => {
	it('re-queues a message stuck for credits after a top-up, then reports no change', async () => {
		ctx.sandbox.control.setBalance(0);
		const sent = await run(ctx.sandbox, SEND);
		const messageId = sent.items[0].json.message_id as number;
		expect(sent.items[0].json.status).toBe('2');
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

	// Where the interface puts `no_change` is not shown: the guessed place, beside `data`, and an answer with no data.
	it.each([
		['at the guessed place, data.result', { result: 'no_change' }, undefined],
		['beside data', { message_id: 9001 }, 'no_change'],
		['beside a data of null', null, 'no_change'],
	])('reads no_change %s and outputs the service\'s message', async (_case, data, result) => {
		fake.answer.body = JSON.stringify({ status: 200, status_message: 'Mensagem já está na fila', data, ...(result ? { result } : {}) });
		const outcome = await run(fake, { resource: 'chatMessage', operation: 'reprocess', messageId: '9001' });
		expect(outcome.error).toBeUndefined();
		expect(outcome.items[0].json).toMatchObject({ result: 'no_change', message: 'Mensagem já está na fila' });
	});
});
