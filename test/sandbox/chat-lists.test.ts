/** The chat routes that list: the account's templates and its senders. */
import { describe, expect, it } from 'vitest';

import { TEMPLATE_STATUSES, valuesOf } from '../../nodes/PostalService/contract/lists';
import { call, chatAuth, chatRoutes, useSandbox, welcome } from './support';

const ctx = useSandbox();
const { send } = chatRoutes(ctx);

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
	});
});
