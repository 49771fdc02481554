/**
 * Where the sandbox used to accept what the interface refuses (docs/sandbox.md, "Never kinder than
 * the interface"): each fix, over the whole family of cases it belongs to. Then each route's refusals
 * and the interface's rules that no run of the node reaches, one row or one test each.
 */
import { describe, expect, it } from 'vitest';

import { SHIP_TYPES } from '../../nodes/PostalService/contract/lists';
import { call, chatAuth, chatRoutes, controlOverHttp, createOrder, createOrderForm, formData, letter, newLetter, orderRoutes, pdfWithPages, TOKEN, useSandbox, useWebhookRigs, welcome, type Answer } from './support';

const ctx = useSandbox();
const { setup } = useWebhookRigs();
const { send, reprocess } = chatRoutes(ctx);
const { get, download, cancel } = orderRoutes(ctx);

/** The fields a valid order of each ship type needs besides the recipient (express parcels through the virtual box). */
function fieldsFor(shipType: number, arType?: string): Record<string, string | undefined> {
	const base = { shipType: String(shipType), ar_type: arType };
	if (shipType === 4) return { ...base, telegram_msg: 'Mensagem do telegrama', telegram_post_dated: '0', telegram_sender_copy: '0', telegram_delivery_confirmation: '0' };
	if ([8, 9, 10].includes(shipType)) return { ...base, ecarta_msg: 'Mensagem da carta eletrônica' };
	if ([6, 7].includes(shipType)) return { ...base, virtualbox: '1' };
	return base;
}

// Read from the interface's own names: the ship types "+ return receipt" are the ones with AR.
const WITH_AR = SHIP_TYPES.filter((s) => /return receipt/i.test(s.name)).map((s) => s.value as number);
const AR_TYPES = ['physical', 'electronic', undefined] as const;
const ASKED = [undefined, 'rr', 'rr_electronic'] as const;

const receiptFamily = SHIP_TYPES.flatMap(({ value: shipType, name }) =>
	AR_TYPES.filter((arType) => arType !== 'electronic' || WITH_AR.includes(shipType)).flatMap((arType) =>
		ASKED.map((asked) => {
			const produced = arType === 'electronic' ? 'rr_electronic' : 'rr';
			const expected = !WITH_AR.includes(shipType) ? 'no AR' : asked === undefined || asked === produced ? produced : 'wrong type';
			return { label: `${name} (${shipType}), ar_type ${arType ?? 'not sent'}, ${asked ?? 'no type'} asked: ${expected}`, shipType, arType, asked, expected };
		}),
	),
);

describe('Return receipts only where the service makes them', () => {
	it('knows the ship types with AR from the interface (3, 7, 10), and covers every ship type', () => {
		expect(WITH_AR).toEqual([3, 7, 10]);
		expect(new Set(receiptFamily.map((c) => c.shipType)).size).toBe(SHIP_TYPES.length);
	});

	// In process: control.test.ts proves /_sandbox/ passes a method's arguments on and its refusal back as a 400.
	it.each(receiptFamily)('$label', async ({ shipType, arType, asked, expected }) => {
		const id = await newLetter(ctx.base, fieldsFor(shipType, arType));
		const before = ctx.sandbox.control.deliveries().length;
		ctx.sandbox.control.registerWebhook({ url: 'http://127.0.0.1:9/', events: ['rr.created'] });
		const add = () => ctx.sandbox.control.addReturnReceipt(id, { rrType: asked });
		const events = () => ctx.sandbox.control.deliveries().slice(before).filter((d) => d.event === 'rr.created');
		if (expected === 'no AR' || expected === 'wrong type') {
			expect(add).toThrow(expected === 'no AR' ? new RegExp(`shipType ${shipType}\\b.*no return receipt.*shipType 3, 7, 10`) : new RegExp(`ar_type ${arType ?? 'physical'}.*never as ${asked}`));
			const order = ctx.sandbox.control.order(id)!;
			expect(order).toMatchObject({ rr_count: 0, rr_available: false });
			expect(events()).toEqual([]);
			if (expected === 'no AR') expect(order.return_receipt).toEqual({ refused: expect.stringContaining('no return receipt') });
			return;
		}
		add();
		const order = ctx.sandbox.control.order(id)!;
		expect(order).toMatchObject({ rr_count: 1, rr_available: true, return_receipt: { type: expected } });
		expect((order.files as Array<{ type: string }>).map((f) => f.type)).toContain(expected);
		expect(events().map((d) => (d.payload.data as { rr_type: string }).rr_type)).toEqual([expected]);
	});

	it('refuses on a registered e-mail, which has no return receipt either', () => {
		const email = ctx.sandbox.control.createEmailOrder({ email: 'ana@example.com' });
		expect(() => ctx.sandbox.control.addReturnReceipt(String(email.id))).toThrow(/registered e-mail, not a letter/);
	});
});

describe('A chat message status is a string, as the interface types it', () => {
	const outcomes = [
		{ label: 'accepted', before: () => undefined, expected: 'processing' },
		{ label: 'held for lack of credits', before: () => ctx.sandbox.control.setBalance(0), expected: '2' },
		{ label: 'to a number off the test environment allow-list', before: () => undefined, phone: '+5511955554444', expected: 'failed' },
	];
	it.each(outcomes)('$label: "$expected"', async ({ before, phone, expected }) => {
		before();
		const answer = await send({ ...welcome, ...(phone ? { phone } : {}) });
		expect(answer.status).toBe(200);
		expect(answer.body.data.status).toBe(expected);
		expect(typeof answer.body.data.status).toBe('string');
		expect(ctx.sandbox.control.chatMessages().at(-1)!.status).toBe(expected);
	});

	it('stays a string when the panel moves a message, given 2 as a number or as text', async () => {
		const { message_id } = (await send(welcome)).body.data;
		for (const status of [2, '2'] as const) {
			expect(ctx.sandbox.control.setChatMessageStatus(message_id, status).status).toBe('2');
			ctx.sandbox.control.setChatMessageStatus(message_id, 'processing');
		}
	});
});

describe('Reprocess takes a JSON body {message_id: integer}, as the interface says', () => {
	async function heldMessage(): Promise<number> {
		ctx.sandbox.control.setBalance(0);
		const { message_id } = (await send(welcome)).body.data;
		ctx.sandbox.control.topUp(50);
		return message_id;
	}
	const process = (body: NonNullable<RequestInit['body']>, contentType: string | undefined) =>
		call(`${ctx.base}/api/chat/v1/process`, { method: 'POST', headers: { ...chatAuth, ...(contentType ? { 'content-type': contentType } : {}) }, body });
	const bodies: Array<{ label: string; body: (id: number) => [NonNullable<RequestInit['body']>, string | undefined]; accepted: boolean; message?: RegExp }> = [
		{ label: 'JSON, an integer', body: (id) => [JSON.stringify({ message_id: id }), 'application/json'], accepted: true },
		{ label: 'JSON, the id as text', body: (id) => [JSON.stringify({ message_id: String(id) }), 'application/json'], accepted: false, message: /message_id: deve ser um número inteiro/ },
		{ label: 'JSON, a fraction', body: (id) => [JSON.stringify({ message_id: id + 0.5 }), 'application/json'], accepted: false, message: /message_id: deve ser um número inteiro/ },
		{ label: 'JSON, true', body: () => [JSON.stringify({ message_id: true }), 'application/json'], accepted: false, message: /message_id: deve ser um número inteiro/ },
		{ label: 'JSON, null', body: () => [JSON.stringify({ message_id: null }), 'application/json'], accepted: false, message: /^Campos obrigatórios não preenchidos$/ },
		{ label: 'JSON, no message_id', body: () => ['{}', 'application/json'], accepted: false, message: /^Campos obrigatórios não preenchidos$/ },
		{ label: 'a form', body: (id) => [new URLSearchParams({ message_id: String(id) }), undefined], accepted: false, message: /application\/json/ },
		{ label: 'multipart', body: (id) => [formData({ message_id: String(id) }), undefined], accepted: false, message: /application\/json/ },
	];
	it.each(bodies)('$label: $accepted', async ({ body, accepted, message }) => {
		const id = await heldMessage();
		const answer = await process(...body(id));
		if (accepted) {
			expect(answer.body).toMatchObject({ status: 200, data: { success: true, message_id: id } });
			return;
		}
		expect(answer.status).toBe(400);
		expect(answer.body).toMatchObject({ status: 400, data: null });
		expect(answer.body.status_message).toMatch(message!);
		expect(ctx.sandbox.control.chatMessages().find((m) => m.message_id === id)!.status).toBe('2');
		// The same message through the route as the interface describes it still goes.
		expect((await reprocess(id)).body.data).toMatchObject({ success: true });
	});
});

describe('virtualbox takes 0, 1 or true, as the create-order table lists', () => {
	const values = ['0', '1', 'true', 'false', 'yes', 'TRUE', '2'];
	it.each(values)('virtualbox=%s', async (value) => {
		const accepted = ['0', '1', 'true'].includes(value);
		const fields = letter({ test: '1', virtualbox: value });
		for (const answer of [await createOrder(ctx.base, fields, await pdfWithPages(1)), await createOrderForm(ctx.base, { ...fields, pdfFile: (await pdfWithPages(1)).toString('base64') })]) {
			expect(answer.status, JSON.stringify(answer.body)).toBe(accepted ? 200 : 400);
			if (!accepted) expect(answer.body.status_message).toBe('virtualbox: valor inválido (aceitos: 0, 1, true)');
		}
	});
});

/** Saved Contact > Update's route, the body sent as given. */
const putFavorite = (body: string, contentType: string) =>
	call(`${ctx.base}/api/v2/favorites?userSecurityToken=${TOKEN}`, { method: 'PUT', headers: { 'content-type': contentType }, body });

describe('A saved contact list flag takes 0 or 1, the integer the interface types it as', () => {
	const values: Array<[unknown, boolean]> = [[0, true], [1, true], ['0', true], ['1', true], [true, false], [false, false], ['true', false], ['false', false], ['yes', false], [2, false], [-1, false]];
	const cases = values.flatMap(([value, accepted]) =>
		(['list_letter', 'list_email', 'list_whatsapp'] as const).flatMap((field) =>
			(['json', 'form'] as const).filter((kind) => kind === 'json' || typeof value !== 'boolean').map((kind) => ({ label: `${field}=${JSON.stringify(value)} as ${kind}: ${accepted ? 'taken' : 'refused'}`, field, value, kind, accepted })),
		),
	);
	it.each(cases)('$label', async ({ field, value, kind, accepted }) => {
		const before = ctx.sandbox.control.favorites().find((f) => f.id === 2)![field];
		const answer = kind === 'json' ? await putFavorite(JSON.stringify({ id: 2, [field]: value }), 'application/json') : await putFavorite(new URLSearchParams({ id: '2', [field]: String(value) }).toString(), 'application/x-www-form-urlencoded');
		const after = ctx.sandbox.control.favorites().find((f) => f.id === 2)![field];
		if (accepted) {
			expect(answer.body).toMatchObject({ success: true, favorite: { [field]: Number(value) } });
			expect(after).toBe(Number(value));
			return;
		}
		expect(answer.status).toBe(400);
		expect(answer.body).toEqual({ success: false, message: `${field}: use 0 ou 1` });
		expect(after).toBe(before);
	});
});

const favorite = (fields: Record<string, unknown>) => putFavorite(JSON.stringify(fields), 'application/json');
const overHttp = controlOverHttp(ctx);
const control = (method: string, args: unknown[]) => overHttp(method, { args });
async function produced(status: number): Promise<string> {
	const id = await newLetter(ctx.base);
	ctx.sandbox.control.setOrderStatus(id, status);
	return id;
}
async function held(paymentMethod?: string): Promise<number> {
	ctx.sandbox.control.setBalance(0);
	const { message_id } = (await send({ ...welcome, paymentMethod })).body.data;
	ctx.sandbox.control.setChatMessageStatus(message_id, 2);
	return message_id;
}

// The refusals no run of the node reaches, one row each: the call, and the words of its 400. An unknown
// order id and a receipt without order_id are test/check/checkService.test.ts's; a status or a
// status_delivery off the list, given to the control, control.test.ts's.
const REFUSALS: Array<[string, () => Promise<Answer>, RegExp]> = [
	['a file type the interface does not list', async () => download(await newLetter(ctx.base), 'invoice'), /^Tipo de arquivo inválido/],
	['a file the order does not have yet', async () => download(await newLetter(ctx.base), 'letter_front'), /não disponível/],
	['a return receipt by a name the order does not have', async () => download(await newLetter(ctx.base, { shipType: '3' }), 'rr', '?file_name=nope.pdf'), /nope\.pdf/],
	['a letter past status 2 cancelled without force=yes', async () => cancel(await produced(3)), /force=yes/],
	['a create in another content type', () => call(`${ctx.base}/api/v2/post?userSecurityToken=${TOKEN}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(letter()) }), /^Requisição incompleta - envie multipart/],
	['a chat message without phone', () => send({ template_id: 101 }), /^Campos obrigatórios não preenchidos$/],
	['a chat message to a number not on the chat app', () => send({ ...welcome, phone: '+55 11 3333-4444' }), /aplicativo de chat/],
	['a chat template not approved', () => send({ ...welcome, template_id: 103, variables: { pedido: '1' } }), /template não aprovado/],
	['a chat message without its variables', () => send({ ...welcome, variables: {} }), /^Campos obrigatórios não preenchidos/],
	['a reprocess while the credits are short', async () => reprocess(await held()), /^Créditos insuficientes/],
	['a reprocess of a message paid otherwise', async () => reprocess(await held('invoice')), /^Somente mensagens pagas com service_credits/],
	['a template status outside the list', () => call(`${ctx.base}/api/chat/v1/templates/get?status=gone`, { headers: chatAuth }), /^status: valor inválido/],
	['a saved contact without id', () => favorite({ name: 'X' }), /: id$/],
	['a saved contact whose name is emptied', () => favorite({ id: 1, name: '' }), /name não pode ficar vazio/],
	['a template of no sender, from the control', async () => control('addTemplate', [{ senderId: 9, name: 'x' }]), /no sender 9/],
	['a template status the interface does not have, from the control', async () => control('addTemplate', [{ senderId: 2, name: 'x', status: 'gone' }]), /status must be one of/],
];

describe('Each route refuses what the interface refuses', () => {
	it.each(REFUSALS)('%s: 400', async (_rule, request, words) => {
		const answer = await request();
		expect(answer.status, JSON.stringify(answer.body)).toBe(400);
		expect(answer.body.status_message ?? answer.body.message ?? answer.body.error).toMatch(words);
	});
});

describe('The rules of the interface no run of the node reaches', () => {
	it('a letter cancels at status 0 or 2 with the default note, its credits back, a registered e-mail to status 4; one the balance cannot pay is status 2; invoice charges nothing', async () => {
		await newLetter(ctx.base, { paymentMethod: 'invoice' });
		expect(ctx.sandbox.control.balance()).toBe(1000);
		expect((await cancel(await newLetter(ctx.base))).body.data).toMatchObject({ status: 5, message: 'Cancelado via API' });
		expect(ctx.sandbox.control.balance()).toBe(1000);
		expect((await cancel(String(ctx.sandbox.control.createEmailOrder({ email: 'ana@example.com' }).id))).body.data.status).toBe(4);
		ctx.sandbox.control.setBalance(1);
		const unpaid = await newLetter(ctx.base);
		expect(ctx.sandbox.control.order(unpaid)).toMatchObject({ status: 2 });
		expect(ctx.sandbox.control.balance()).toBe(1);
		expect((await cancel(unpaid)).body.data.status).toBe(5);
	});

	it('a return receipt downloaded without file_name is the latest', async () => {
		const id = await newLetter(ctx.base, { shipType: '3' });
		ctx.sandbox.control.addReturnReceipt(id);
		ctx.sandbox.control.addReturnReceipt(id);
		const names = (ctx.sandbox.control.order(id)!.files as Array<{ name: string; type: string }>).filter((f) => f.type === 'rr').map((f) => f.name);
		expect((await download(id, 'rr')).body.data.file_name).toBe(names[1]);
	});

	it('tracking: the code first, then the postal events newest first, each a tracking.updated of its kind', async () => {
		const id = await newLetter(ctx.base);
		ctx.sandbox.control.registerWebhook({ url: 'http://127.0.0.1:9/', events: ['tracking.updated'] });
		ctx.sandbox.control.addTrackingEvent(id);
		expect((await get(id)).body.data.tracking_records).toEqual({ codObjeto: expect.stringMatching(/^[A-Z]{2}\d{9}BR$/), eventos: [] });
		ctx.sandbox.control.addTrackingEvent(id);
		ctx.sandbox.control.addTrackingEvent(id, { codigo: 'BDE', descricao: 'Objeto entregue', statusDelivery: 'delivered' });
		expect((await get(id)).body.data.tracking_records.eventos.map((e: { codigo: string }) => e.codigo)).toEqual(['BDE', 'PO']);
		const kinds = ctx.sandbox.control.deliveries().map((d) => d.payload.event_detail_type);
		expect(kinds).toEqual(['new_tracking_code', 'new_tracking_record', 'new_tracking_record']);
	});

	it('a registered e-mail off the test allow-list is status 5 with the reason; one the balance cannot pay, status 2', () => {
		expect(ctx.sandbox.control.createEmailOrder({ email: 'someone@elsewhere.test' })).toMatchObject({ status: 5, failure_reason: expect.stringContaining('lista de permissões') });
		ctx.sandbox.control.addEmailRecipient('@elsewhere.test');
		expect(ctx.sandbox.control.createEmailOrder({ email: 'someone@elsewhere.test' }).status).toBe(1);
		ctx.sandbox.control.setBalance(0);
		expect(ctx.sandbox.control.createEmailOrder({ email: 'ana@example.com' }).status).toBe(2);
	});

	it('a chat message comes as JSON, a form (variables[name]) or multipart (variables as JSON)', async () => {
		const form = new URLSearchParams({ phone: '11987654321', template_id: '101', 'variables[nome]': 'João' });
		const multipart = formData({ phone: '11987654321', template_id: '101', variables: JSON.stringify({ nome: 'Ana' }) });
		for (const body of [form, multipart]) {
			expect((await call(`${ctx.base}/api/chat/v1/post`, { method: 'POST', headers: chatAuth, body })).body.data.status).toBe('processing');
		}
	});

	it('a chat message to a number off the allow-list costs nothing; a reprocessed one is paid when it goes', async () => {
		await send({ ...welcome, phone: '+5511955554444' });
		expect(ctx.sandbox.control.balance()).toBe(1000);
		const id = await held();
		ctx.sandbox.control.topUp(10);
		expect((await reprocess(id)).body.data).toMatchObject({ success: true });
		expect(ctx.sandbox.control.balance()).toBe(9.5);
	});

	it('production has no chat allow-list', async () => {
		const production = await setup({ environment: 'production' });
		const body = JSON.stringify({ ...welcome, phone: '+55 11 95555-4444' });
		const answer = await call(`${production.baseUrl}/api/chat/v1/post`, { method: 'POST', headers: { ...chatAuth, 'content-type': 'application/json' }, body });
		expect(answer.body.data.status).toBe('processing');
	});

	it('a saved contact field sent as null is cleared', async () => {
		expect((await favorite({ id: 1, document: null, list_email: null })).body.favorite).toMatchObject({ name: 'Maria da Silva', document: '', list_email: 0 });
	});

	it('a subscription gets only its events: an e-mail says whether it was opened, a cancellation is a status event, an unreadable receipt has file null', async () => {
		ctx.sandbox.control.registerWebhook({ url: 'http://127.0.0.1:9/', events: ['order.status_updated', 'rr.created'] });
		const email = String(ctx.sandbox.control.createEmailOrder({ email: 'ana@example.com' }).id);
		ctx.sandbox.control.setOrderStatus(email, 3, { opened: true });
		const id = await newLetter(ctx.base, { shipType: '3' });
		ctx.sandbox.control.addReturnReceipt(id, { unreadable: true });
		await cancel(id);
		const data = ctx.sandbox.control.deliveries().map((d) => ({ event: d.event, ...(d.payload.data as object) }));
		expect(data).toEqual([
			{ event: 'order.status_updated', id: email, type: 'email', status: { old: 1, new: 3 }, updated_at: expect.any(String), opened: true, date_opened: expect.any(String) },
			expect.objectContaining({ event: 'rr.created', id, file: null }),
			expect.objectContaining({ event: 'order.status_updated', id, status: { old: 0, new: 5 } }),
		]);
	});
});
