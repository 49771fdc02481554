/**
 * Order > Create and Get Price through n8n: every ship type with its own fields. The PDF from every
 * source is test/releases/pdfSources.test.ts's family; the service's refusals errors.test.ts's.
 */
import { createHash } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import { SHIP_TYPES, valuesOf } from '../../nodes/PostalService/contract/lists';
import { LETTER, makePdf, pdfItem, run, TOKEN, useSandbox } from './fixture';

const ctx = useSandbox();
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('Order > Create', () => {
	// The PDF and its download byte for byte, in each binary mode of each tested release: test/releases/behaviours.test.ts.
	it('uploads a three-page PDF from the previous node with the fields as the service names them', async () => {
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

	it('sends sender, payment by team member, client contract, address-only, duplex and envelope choices', async () => {
		const result = await run(
			ctx.sandbox,
			{
				...LETTER,
				shipType: 3,
				paymentMethod: 'team',
				teamMemberId: 7,
				sender: { name: 'Empresa Exemplo', addr1: 'Rua do Ouvidor', streetNumber: '50', zip: '20040-030', city: 'Rio de Janeiro', state: 'RJ', country: 'Brasil' },
				additionalFields: { duplexPrinting: false, envelopeType: 'regular', useClientContract: true, toAddrOnly: true },
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
				additionalFields: { toAddrOnly: '={{ $json.addressOnly }}' },
				options: { extraParameters: { parameter: [{ name: 'campo_novo', value: 'x1' }] } },
			},
			{ items: [await pdfItem(1, { shipType: 1, addressOnly: true })] },
		);
		expect(result.error).toBeUndefined();
		const [request] = ctx.sandbox.control.requests({ path: '/api/v2/post' });
		expect(request.fields).toMatchObject({ shipType: '1', toAddrOnly: '0', campo_novo: 'x1' });
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
});
