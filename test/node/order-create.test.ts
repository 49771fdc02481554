/**
 * Order > Create through n8n: the fields as the service names them. Every ship type with its own
 * fields is order-create-returnReceipt.test.ts's family. The PDF from every source is
 * test/releases/behaviours.test.ts's family; the service's refusals errors.test.ts's. Get Price's
 * answer is docs/outputs.md's from a real run (test/docs/outputs.test.ts), and its test=1 is
 * maxPrice.test.ts's price read first.
 */
import { createHash } from 'node:crypto';

import { describe, expect, it } from 'vitest';

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
