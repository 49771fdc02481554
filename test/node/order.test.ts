import { createHash } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import { SHIP_TYPES, valuesOf } from '../../nodes/PostalService/contract/lists';
import { EMAIL_ID, LETTER_ID, type OrderIdKind } from '../../nodes/PostalService/actions/shared/orderIds';
import { binaryBuffer } from '../harness/engine';
import { startHttpServer } from '../harness/httpServer';
import { LETTER, makePdf, pdfItem, run, TOKEN, useSandbox } from './fixture';

const ctx = useSandbox();
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

async function createLetter(extra: Record<string, unknown> = {}, pages = 1): Promise<string> {
	const result = await run(ctx.sandbox, { ...LETTER, ...extra }, { items: [await pdfItem(pages)] });
	expect(result.error).toBeUndefined();
	return String(result.items[0].json.id);
}

describe('Order > Create', () => {
	it('uploads a three-page PDF from the previous node, and its download brings the same bytes back', async () => {
		const { sandbox } = ctx;
		const pdf = await makePdf(3);
		const created = await run(sandbox, { ...LETTER, tag: 'contrato-42' }, {
			items: [{ json: {}, binary: { data: { data: pdf, fileName: 'contrato.pdf', mimeType: 'application/pdf' } } }],
		});
		expect(created.error).toBeUndefined();
		expect(created.items).toHaveLength(1);
		const { id } = created.items[0].json;
		expect(id).toMatch(/^\d+$/);
		expect(created.items[0]).toMatchObject({ json: { shipType: 2, tag: 'contrato-42' }, pairedItem: { item: 0 } });

		const [request] = sandbox.control.requests({ path: '/api/v2/post' });
		expect(request.method).toBe('POST');
		expect(request.fields).toMatchObject({
			userSecurityToken: TOKEN,
			shipType: '2',
			name: 'Maria da Silva',
			zip: '01310200',
			state: 'SP',
			tag: 'contrato-42',
			paymentMethod: 'service_credits',
		});
		expect(request.query.userSecurityToken).toBeUndefined();
		expect(request.files).toEqual([
			expect.objectContaining({ field: 'pdfFile', fileName: 'contrato.pdf', size: pdf.length, sha256: sha256(pdf) }),
		]);
		expect(sandbox.control.order(String(id))).toMatchObject({ id, numPages: 3 });

		const downloaded = await run(sandbox, { resource: 'order', operation: 'downloadFile', orderId: String(id), fileType: 'pdf' });
		expect(downloaded.error).toBeUndefined();
		const [item] = downloaded.items;
		expect(item.binary?.data).toMatchObject({ mimeType: 'application/pdf' });
		// n8n's default binary mode keeps files on disk, so the upload above read the PDF through the
		// binary helpers rather than from base64 inside the item.
		expect(item.binary?.data.id).toMatch(/^filesystem/);
		expect(item.binary?.data.fileName).toMatch(/\.pdf$/);
		expect((await binaryBuffer(item)).equals(pdf)).toBe(true);
		expect(sandbox.control.requests({ path: /^\/api\/v2\/download\// }).map((r) => r.path)).toEqual([
			`/api/v2/download/${TOKEN}/${id}/pdf`,
		]);
	});

	// One case per ship type of the contract, each with the fields it needs.
	const SHIP_TYPE_CASES: Array<[number, Record<string, unknown>]> = [
		[1, {}],
		[2, {}],
		[3, { returnReceiptType: 'electronic' }],
		[4, { telegramMessage: 'Comunicamos o vencimento do contrato.', telegramPostDated: true, telegramPostDatedDate: '2099-01-15' }],
		[5, {}],
		[6, { additionalFields: { virtualBox: true } }],
		[7, { additionalFields: { virtualBox: true }, returnReceiptType: 'physical' }],
		[8, { electronicLetterMessage: '<p>Prezada Maria, segue a notificação.</p>' }],
		[9, { electronicLetterMessage: '<p>Prezada Maria, segue a notificação.</p>' }],
		[10, { electronicLetterMessage: '<p>Prezada Maria, segue a notificação.</p>', returnReceiptType: 'electronic' }],
	];

	it('has a create case for every ship type of the contract', () => {
		expect(SHIP_TYPE_CASES.map(([shipType]) => shipType)).toEqual(valuesOf(SHIP_TYPES));
	});

	it.each(SHIP_TYPE_CASES)('creates ship type %i with its own fields', async (shipType, extra) => {
		const result = await run(ctx.sandbox, { ...LETTER, shipType, ...extra }, { items: [await pdfItem(1)] });
		expect(result.error).toBeUndefined();
		const id = String(result.items[0].json.id);
		expect(ctx.sandbox.control.order(id)).toMatchObject({ shipType });
		const [request] = ctx.sandbox.control.requests({ path: '/api/v2/post' });
		const hasPdf = [1, 2, 3, 5, 6, 7].includes(shipType);
		expect(request.files.length).toBe(hasPdf ? 1 : 0);
		if (shipType === 4) {
			expect(request.fields).toMatchObject({
				telegram_msg: 'Comunicamos o vencimento do contrato.',
				telegram_post_dated: '1',
				telegram_post_dated_date: '2099-01-15',
				telegram_sender_copy: '0',
				telegram_delivery_confirmation: '0',
			});
		}
		if (shipType >= 8) expect(request.fields.ecarta_msg).toContain('Prezada Maria');
		if ([3, 7, 10].includes(shipType)) expect(request.fields.ar_type).toBe(extra.returnReceiptType);
		else expect(request.fields.ar_type).toBeUndefined();
		if ([6, 7].includes(shipType)) expect(request.fields.virtualbox).toBe('1');
	});

	it('takes the PDF from a URL or from base64', async () => {
		const pdf = await makePdf(2);
		const server = await startHttpServer((_req, res) => {
			res.setHeader('content-type', 'application/pdf');
			res.end(pdf);
		});
		try {
			const byUrl = await run(ctx.sandbox, { ...LETTER, pdfSource: 'url', pdfUrl: `${server.url}/carta.pdf` });
			expect(byUrl.error).toBeUndefined();
			const byBase64 = await run(ctx.sandbox, { ...LETTER, pdfSource: 'base64', pdfBase64: pdf.toString('base64') });
			expect(byBase64.error).toBeUndefined();
			const posts = ctx.sandbox.control.requests({ path: '/api/v2/post' });
			expect(posts[0].fields.pdfFile).toBe(`${server.url}/carta.pdf`);
			expect(posts[1].fields.pdfFile).toBe(pdf.toString('base64'));
			for (const item of [byUrl.items[0], byBase64.items[0]]) {
				expect(ctx.sandbox.control.order(String(item.json.id))).toMatchObject({ numPages: 2 });
			}
		} finally {
			await server.close();
		}
	});

	it('sends sender, payment by team member, client contract, address-only, duplex and envelope choices', async () => {
		const result = await run(
			ctx.sandbox,
			{
				...LETTER,
				shipType: 3,
				toAddrOnly: true,
				paymentMethod: 'team',
				teamMemberId: 7,
				sender: { name: 'Empresa Exemplo', addr1: 'Rua do Ouvidor', streetNumber: '50', zip: '20040-030', city: 'Rio de Janeiro', state: 'RJ', country: 'Brasil' },
				additionalFields: { duplexPrinting: false, envelopeType: 'regular', useClientContract: true },
			},
			{ items: [await pdfItem(2)] },
		);
		expect(result.error).toBeUndefined();
		const [request] = ctx.sandbox.control.requests({ path: '/api/v2/post' });
		expect(request.fields).toMatchObject({
			shipType: '3',
			toAddrOnly: '1',
			paymentMethod: 'team',
			team_member_id: '7',
			name_sender: 'Empresa Exemplo',
			zip_sender: '20040030',
			state_sender: 'RJ',
			duplex_printing: '0',
			envelope_type: 'regular',
			use_client_contract: '1',
		});
	});

	it('forces toAddrOnly to 0 for ship types that ignore it, and passes extra parameters', async () => {
		const result = await run(
			ctx.sandbox,
			{
				...LETTER,
				shipType: '={{ $json.shipType }}',
				toAddrOnly: '={{ $json.addressOnly }}',
				options: { extraParameters: { parameter: [{ name: 'campo_novo', value: 'x1' }] } },
			},
			{ items: [await pdfItem(1, { shipType: 1, addressOnly: true })] },
		);
		expect(result.error).toBeUndefined();
		const [request] = ctx.sandbox.control.requests({ path: '/api/v2/post' });
		expect(request.fields).toMatchObject({ shipType: '1', toAddrOnly: '0', campo_novo: 'x1' });
	});

	it('reports a refusal of the service with its own message', async () => {
		// An express parcel without virtual box: the node cannot know the service's city, the service refuses.
		const result = await run(ctx.sandbox, { ...LETTER, shipType: 6 }, { items: [await pdfItem(1)] });
		expect(result.error?.message).toMatch(/refused the request/i);
		expect(result.error?.description).toMatch(/Service message: .+/);
		expect(ctx.sandbox.control.requests({ path: '/api/v2/post' })).toHaveLength(1);
		expect(ctx.sandbox.control.orders()).toHaveLength(0);
	});
});

describe('Order > Get Price', () => {
	it('quotes with test=1 and creates nothing', async () => {
		const result = await run(ctx.sandbox, { ...LETTER, operation: 'getPrice' }, { items: [await pdfItem(2)] });
		expect(result.error).toBeUndefined();
		expect(result.items[0].json.value).toEqual(expect.any(Number));
		expect(result.items[0].json.value).toBeGreaterThan(0);
		const [request] = ctx.sandbox.control.requests({ path: '/api/v2/post' });
		expect(request.fields).toMatchObject({ test: '1', userSecurityToken: TOKEN });
		expect(ctx.sandbox.control.orders()).toHaveLength(0);
	});

	it('fails on a wrong token with advice to check it', async () => {
		const result = await run(ctx.sandbox, { ...LETTER, operation: 'getPrice' }, { items: [await pdfItem(1)], token: 'wrong-token-123' });
		expect(result.error?.message).toMatch(/check the security token/i);
		expect(result.error?.description).toContain('Token inválido');
		expect(result.serialized).not.toContain('wrong-token-123');
	});
});

describe('Order > Get', () => {
	it('reads an order, simplified or whole, with the token in the path', async () => {
		const id = await createLetter({ tag: 't1' });
		const simple = await run(ctx.sandbox, { resource: 'order', operation: 'get', orderId: id });
		expect(simple.error).toBeUndefined();
		expect(simple.items[0].json).toMatchObject({ id, status: 0, statusText: 'Processing', shipType: 2, tag: 't1' });
		expect(simple.items[0].json.tracking_records).toBeUndefined();
		const raw = await run(ctx.sandbox, { resource: 'order', operation: 'get', orderId: id, simplify: false });
		expect(raw.items[0].json).toMatchObject({ id, name: 'Maria da Silva', zip: expect.any(String) });
		expect(Object.keys(raw.items[0].json).length).toBeGreaterThan(Object.keys(simple.items[0].json).length);
		expect(ctx.sandbox.control.requests({ path: /^\/api\/v2\/get\// }).map((r) => r.path)).toEqual([
			`/api/v2/get/${TOKEN}/${id}`,
			`/api/v2/get/${TOKEN}/${id}`,
		]);
	});

	it('fails for an unknown order with the service message, and refuses a malformed id without a request', async () => {
		const unknown = await run(ctx.sandbox, { resource: 'order', operation: 'get', orderId: '999999' });
		expect(unknown.error?.description).toContain('Pedido não encontrado');
		const malformed = await run(ctx.sandbox, { resource: 'order', operation: 'get', orderId: '12/../balance' });
		expect(malformed.error?.message).toMatch(/orderId/);
		expect(ctx.sandbox.control.requests({ path: /^\/api\/v2\/get\// })).toHaveLength(1);
	});

	it('reads the id from its By ID locator, whose editor check agrees with the run-time check', async () => {
		const id = await createLetter();
		const located = await run(ctx.sandbox, { resource: 'order', operation: 'get', orderId: { __rl: true, mode: 'id', value: id } });
		expect(located.error).toBeUndefined();
		expect(located.items[0].json).toMatchObject({ id });
		// n8n itself refuses a typed value its check rejects, before the node runs
		await expect(
			run(ctx.sandbox, { resource: 'order', operation: 'get', orderId: { __rl: true, mode: 'id', value: 'E5001' } }),
		).rejects.toThrow(/A letter ID is made of digits/);
		// an expression is only known at run time, where the node checks it again
		const fromExpression = await run(ctx.sandbox, {
			resource: 'order',
			operation: 'get',
			orderId: { __rl: true, mode: 'id', value: '={{ "E" + "5001" }}' },
		});
		expect(fromExpression.error?.message).toMatch(/orderId/);
		expect(ctx.sandbox.control.requests({ path: /^\/api\/v2\/get\/.*E5001/ })).toHaveLength(0);

		const editorCheck = (kind: OrderIdKind) => {
			const validation = kind.property.modes?.[0].validation?.[0];
			const regex = validation && typeof validation === 'object' ? (validation.properties as { regex?: string }).regex : undefined;
			return new RegExp(regex ?? '$^');
		};
		for (const [kind, good, bad] of [
			[LETTER_ID, ['123456', ' 42 '], ['E123456', '12a', '', '12/../balance']],
			[EMAIL_ID, ['E123456', 'E1'], ['123456', 'e123', 'E', 'E12/x']],
		] as const) {
			for (const value of [...good, ...bad]) {
				expect(editorCheck(kind).test(value), `${kind.property.displayName}: ${value}`).toBe(kind.pattern.test.test(value.trim()));
			}
			for (const value of good) expect(editorCheck(kind).test(value)).toBe(true);
			for (const value of bad) expect(editorCheck(kind).test(value)).toBe(false);
		}
	});
});

describe('Order > Download File', () => {
	it('picks one return receipt by name', async () => {
		const id = await createLetter({ shipType: 3 });
		const first = await makePdf(1);
		const second = await makePdf(2);
		ctx.sandbox.control.addReturnReceipt(id, { rrType: 'rr', pdf: first });
		ctx.sandbox.control.addReturnReceipt(id, { rrType: 'rr', pdf: second });
		const files = (ctx.sandbox.control.order(id)?.files as Array<{ name: string; type: string }>).filter((f) => f.type === 'rr');
		const result = await run(ctx.sandbox, {
			resource: 'order',
			operation: 'downloadFile',
			orderId: id,
			fileType: 'rr',
			returnReceiptFileName: files[0].name,
			binaryPropertyName: 'receipt',
		});
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ file_name: files[0].name, file_type: 'rr', id_job: id });
		expect((await binaryBuffer(result.items[0], 'receipt')).equals(first)).toBe(true);
		const [request] = ctx.sandbox.control.requests({ path: /^\/api\/v2\/download\// });
		expect(request.query).toMatchObject({ file_name: files[0].name });
	});

	it('fails when the order has no such file', async () => {
		const id = await createLetter();
		const result = await run(ctx.sandbox, { resource: 'order', operation: 'downloadFile', orderId: id, fileType: 'sender_copy' });
		expect(result.error?.description).toMatch(/Service message: .*sender_copy/);
		expect(result.serialized).not.toContain(TOKEN);
	});
});

describe('Order > Cancel', () => {
	it('cancels with a reason, refuses a second time, and forces', async () => {
		const id = await createLetter();
		const cancelled = await run(ctx.sandbox, { resource: 'order', operation: 'cancel', orderId: id, reason: 'Endereço errado' });
		expect(cancelled.error).toBeUndefined();
		expect(cancelled.items[0].json).toMatchObject({ id, status: 5, status_text: 'Cancelado', message: 'Endereço errado' });

		const again = await run(ctx.sandbox, { resource: 'order', operation: 'cancel', orderId: id });
		expect(again.error?.description).toContain('já está cancelado');

		const posted = await createLetter();
		ctx.sandbox.control.setOrderStatus(posted, 4);
		const forced = await run(ctx.sandbox, { resource: 'order', operation: 'cancel', orderId: posted, force: true });
		expect(forced.error).toBeUndefined();
		expect(ctx.sandbox.control.order(posted)).toMatchObject({ status: 5 });

		const requests = ctx.sandbox.control.requests({ method: 'DELETE' });
		expect(requests.map((r) => [r.path, r.query])).toEqual([
			[`/api/v2/delete/${TOKEN}/${id}`, { reason: 'Endereço errado' }],
			[`/api/v2/delete/${TOKEN}/${id}`, {}],
			[`/api/v2/delete/${TOKEN}/${posted}`, { force: 'yes' }],
		]);
	});
});
