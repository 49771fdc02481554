/**
 * POST /api/v2/post: the field table (required fields, lengths, enumerations) and the fields
 * allowed for some ship types only.
 */
import { describe, expect, it } from 'vitest';

import { createOrder, letter, orderOutcomes, pdfWithPages, useSandbox } from './support';

const ctx = useSandbox();
const { created, refused } = orderOutcomes(ctx);

describe('Endpoints › POST /api/v2/post › field table', () => {
	it('names every missing required field', async () => {
		await refused(
			letter({ name: undefined, zip: undefined, country: undefined }),
			await pdfWithPages(1),
			'Requisição incompleta - campos obrigatórios não preenchidos: name, zip, country',
		);
		await refused(letter({ shipType: undefined }), await pdfWithPages(1), 'shipType');
	});

	it.each([
		['name', 60],
		['addr1', 60],
		['street_number', 15],
		['addr2', 40],
		['city', 40],
		['country', 60],
		['name_sender', 60],
		['addr1_sender', 60],
		['street_number_sender', 15],
		['addr2_sender', 40],
		['city_sender', 40],
		['state_sender', 40],
		['country_sender', 60],
	])('limits %s to %i characters', async (field, max) => {
		const pdf = await pdfWithPages(1);
		// A foreign sender keeps the zip rule out of the way of the sender fields.
		const base = field.endsWith('_sender') ? { country_sender: 'Portugal' } : {};
		const ok = await createOrder(ctx.base, letter({ ...base, test: '1', [field]: 'x'.repeat(max) }), pdf);
		expect(ok.status, JSON.stringify(ok.body)).toBe(200);
		await refused(letter({ ...base, [field]: 'x'.repeat(max + 1) }), pdf, `${field}: máximo de ${max} caracteres`);
	});

	it('limits state to 40 characters', async () => {
		await refused(letter({ country: 'Portugal', state: 'x'.repeat(41) }), await pdfWithPages(1), 'state: máximo de 40');
	});

	it.each([
		['shipType', '11'],
		['paymentMethod', 'cash'],
		['ar_type', 'digital'],
		['virtualbox', 'yes'],
		['toAddrOnly', '2'],
		['test', '2'],
		['duplex_printing', 'maybe'],
		['envelope_type', 'window'],
		['use_client_contract', 'true'],
	])('refuses %s=%s outside its enumeration', async (field, value) => {
		await refused(letter({ [field]: value }), await pdfWithPages(1), field);
	});

	it('requires team_member_id when paymentMethod=team', async () => {
		await refused(letter({ paymentMethod: 'team' }), await pdfWithPages(1), 'team_member_id');
		const order = await created(letter({ paymentMethod: 'team', team_member_id: '7' }), await pdfWithPages(1));
		expect(order).toMatchObject({ paymentMethod: 'team', team_member_id: 7, status: 0 });
	});

	it('requires pdfFile for shipType 1, 2, 3, 5, 6, 7', async () => {
		for (const shipType of ['1', '2', '3', '5', '6', '7']) {
			await refused(letter({ shipType, virtualbox: '1' }), undefined, 'pdfFile');
		}
	});
});

describe('Endpoints › POST /api/v2/post › ar_type, toAddrOnly, use_client_contract', () => {
	it('allows ar_type=electronic only for shipType 3, 7 and 10', async () => {
		const pdf = await pdfWithPages(1);
		await refused(letter({ shipType: '2', ar_type: 'electronic' }), pdf, 'ar_type');
		expect((await created(letter({ shipType: '3', ar_type: 'electronic' }), pdf)).ar_type).toBe('electronic');
		await created(letter({ shipType: '7', ar_type: 'electronic', virtualbox: '1' }), pdf);
		await created(letter({ shipType: '10', ar_type: 'electronic', ecarta_msg: 'Mensagem eletrônica' }));
	});

	it('forces toAddrOnly to 0 outside shipType 2, 3, 6, 7, 10', async () => {
		const pdf = await pdfWithPages(1);
		expect((await created(letter({ shipType: '1', toAddrOnly: '1' }), pdf)).toAddrOnly).toBe(0);
		expect((await created(letter({ shipType: '5', toAddrOnly: '1' }), pdf)).toAddrOnly).toBe(0);
		expect((await created(letter({ shipType: '2', toAddrOnly: '1' }), pdf)).toAddrOnly).toBe(1);
	});

	it('allows use_client_contract only for shipType 2, 3, 4, 6, 7, 8, 9, 10', async () => {
		const pdf = await pdfWithPages(1);
		await refused(letter({ shipType: '1', use_client_contract: '1' }), pdf, 'use_client_contract');
		await refused(letter({ shipType: '5', use_client_contract: '1' }), pdf, 'use_client_contract');
		const order = await created(letter({ shipType: '2', use_client_contract: '1' }), pdf);
		expect(order).toMatchObject({ use_client_contract: true, shipping_cost: 0 });
	});

	it('answers 403 for use_client_contract when the account has no contract of its own', async () => {
		ctx.sandbox.control.setClientContract(false);
		const answer = await createOrder(ctx.base, letter({ shipType: '2', use_client_contract: '1' }), await pdfWithPages(1));
		expect(answer.status).toBe(403);
		expect(answer.body).toMatchObject({ status: 403, data: null, status_message: expect.stringContaining('use_client_contract') });
	});
});
