/**
 * The chat lists through n8n: templates and senders as operations, and as the lists the editor loads.
 * Each list's answer from a real run, Simplify on and off, is docs/outputs.md's (test/docs/outputs.test.ts).
 */
import { describe, expect, it } from 'vitest';

import { listSearch, resourceMapping } from '../harness/engine';
import { CHAT_BASIC as BASIC, CHAT_SEND as SEND, credentials, NODE, run, useSandbox } from './fixture';

const ctx = useSandbox();

describe('Chat Template > Get Many', () => {
	it('filters by status and active system sender, and limits', async () => {
		const getMany = async (parameters: Record<string, unknown>) => await run(ctx.sandbox, { resource: 'chatTemplate', operation: 'getMany', ...parameters });
		const approved = await getMany({ returnAll: true, filters: { status: 'approved' } });
		expect(approved.items.map((i) => i.json.id)).toEqual([101, 102]);
		expect(approved.items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 0 }]);

		const system = await getMany({ returnAll: true, filters: { systemSenderOnly: true } });
		expect(new Set(system.items.map((i) => i.json.sender_id))).toEqual(new Set([1]));

		const limited = await getMany({ returnAll: false, limit: 2 });
		expect(limited.items).toHaveLength(2);

		const requests = ctx.sandbox.control.requests({ path: '/api/chat/v1/templates/get' });
		expect(requests.map((r) => r.query)).toEqual([{ status: 'approved' }, { system_sender: '1' }, {}]);
		expect(requests.every((r) => r.headers.authorization === BASIC)).toBe(true);
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
