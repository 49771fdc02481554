import { describe, expect, it } from 'vitest';

import { SAMPLE_RECIPIENT } from '../../sandbox/recipient';
import type { TestItem } from '../harness/engine';
import { pdfItem, run, useSandbox } from './fixture';

const ctx = useSandbox();

/** Every create parameter read from the item, so one run can hold valid and invalid items. */
const FROM_ITEM = {
	resource: 'order',
	operation: 'create',
	shipType: '={{ $json.shipType }}',
	recipientName: '={{ $json.name }}',
	recipientAddr1: '={{ $json.addr1 }}',
	recipientStreetNumber: '={{ $json.street_number }}',
	recipientAddr2: '={{ $json.addr2 ?? "" }}',
	recipientZip: '={{ $json.zip }}',
	recipientCity: '={{ $json.city }}',
	recipientState: '={{ $json.state }}',
	recipientCountry: '={{ $json.country }}',
	pdfSource: '={{ $json.pdfSource ?? "binary" }}',
	binaryPropertyName: 'data',
	pdfBase64: '={{ $json.pdfBase64 ?? "" }}',
	telegramMessage: '={{ $json.telegram_msg ?? "" }}',
	telegramPostDated: '={{ $json.telegram_post_dated ?? false }}',
	telegramPostDatedDate: '={{ $json.telegram_post_dated_date ?? "" }}',
	electronicLetterMessage: '={{ $json.ecarta_msg ?? "" }}',
	returnReceiptType: '={{ $json.ar_type ?? "" }}',
	paymentMethod: '={{ $json.paymentMethod ?? "service_credits" }}',
	teamMemberId: '={{ $json.team_member_id ?? "" }}',
	sender: {
		name: '={{ $json.name_sender ?? "" }}',
		addr1: '={{ $json.addr1_sender ?? "" }}',
		streetNumber: '={{ $json.street_number_sender ?? "" }}',
		addr2: '={{ $json.addr2_sender ?? "" }}',
		zip: '={{ $json.zip_sender ?? "" }}',
		city: '={{ $json.city_sender ?? "" }}',
		state: '={{ $json.state_sender ?? "" }}',
		country: '={{ $json.country_sender ?? "" }}',
	},
	tag: '={{ $json.tag }}',
	additionalFields: {
		envelopeType: '={{ $json.envelope_type ?? "regular" }}',
		useClientContract: '={{ $json.use_client_contract ?? false }}',
		virtualBox: '={{ $json.virtualbox ?? false }}',
	},
};

const VALID = { shipType: 2, ...SAMPLE_RECIPIENT };

/** Items with the given fields and a one-page PDF each. */
const letters = async (...fields: Array<Record<string, unknown>>) => await Promise.all(fields.map(async (json) => await pdfItem(1, json)));

const long = (n: number) => 'x'.repeat(n);
const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date());

/**
 * [what the rule is, the item's departure from VALID, the field the error must name, what else it must say].
 * Every field's limit and the telegram date's day in São Paulo are test/node/contract.test.ts's family; here one
 * limit of each collection through the node.
 */
const RULES: Array<[string, Record<string, unknown>, string, RegExp]> = [
	['recipient name limit', { name: long(61) }, 'name', /limit is 60/],
	['sender name limit', { name_sender: long(61) }, 'name_sender', /limit is 60/],
	['telegram minimum', { shipType: 4, telegram_msg: 'curta' }, 'telegram_msg', /minimum is 10/],
	['electronic letter minimum', { shipType: 8, ecarta_msg: 'oi' }, 'ecarta_msg', /minimum is 10/],
	['required recipient field', { city: '' }, 'city', /required/],
	['required PDF', { pdfSource: 'base64', pdfBase64: '' }, 'pdfFile', /required for Registered Letter \(shipType 2\)/],
	['required telegram text', { shipType: 4 }, 'telegram_msg', /required/],
	['required electronic letter text', { shipType: 10 }, 'ecarta_msg', /required/],
	['ship type enum', { shipType: 11 }, 'shipType', /1 to 10/],
	['payment method enum', { paymentMethod: 'pix' }, 'paymentMethod', /service_credits, invoice, team/],
	['envelope type enum', { envelope_type: 'caixa' }, 'envelope_type', /regular, autoenvelope/],
	['team member with team payment', { paymentMethod: 'team' }, 'team_member_id', /required when paymentMethod is team/],
	['electronic return receipt only for 3, 7, 10', { shipType: 2, ar_type: 'electronic' }, 'ar_type', /3, 7, 10/],
	['client contract ship types', { shipType: 1, use_client_contract: true }, 'use_client_contract', /2, 3, 4, 6, 7, 8, 9, 10/],
	['zip format', { zip: '1310-20' }, 'zip', /8 digits/],
	['state against zip', { state: 'RJ' }, 'state', /belongs to SP/],
	['state code', { state: 'São Paulo' }, 'state', /2-letter code/],
	['sender state against zip', { zip_sender: '20040-030', state_sender: 'SP' }, 'state_sender', /belongs to RJ/],
	[
		'telegram date today',
		{ shipType: 4, telegram_msg: 'Mensagem do telegrama', telegram_post_dated: true, telegram_post_dated_date: today },
		'telegram_post_dated_date',
		/in the future/,
	],
	['not a PDF', { pdfSource: 'base64', pdfBase64: Buffer.from('texto simples').toString('base64') }, 'pdfFile', /not a PDF/],
];

describe('validation before any request', () => {
	it('fails each invalid item naming the field, the limit and the item, sends none of them, and creates the valid ones', async () => {
		const cases: Array<{ json: Record<string, unknown>; field?: string; says?: RegExp; rule?: string; noFile?: true }> = [
			{ json: { ...VALID, tag: 'valid-first' } },
			...RULES.map(([rule, change, field, says]) => ({ json: { ...VALID, ...change, tag: `invalid-${rule}` }, field, says, rule })),
			{ json: { ...VALID, shipType: 3, ar_type: 'electronic', tag: 'valid-last' } },
			// An item whose previous node produced no file.
			{ json: { ...VALID, tag: 'invalid-no-binary' }, noFile: true, field: 'pdfFile', says: /no binary field "data"/, rule: 'missing binary' },
		];
		const items = await Promise.all(cases.map(async ({ json, noFile }) => (noFile ? { json: json as TestItem['json'] } : await pdfItem(1, json))));

		const result = await run(ctx.sandbox, FROM_ITEM, { items, continueOnFail: true });
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(items.length);

		for (const [index, { field, says, rule }] of cases.entries()) {
			const out = result.items[index];
			expect(out.pairedItem).toEqual({ item: index });
			if (!field) {
				expect(out.json.error, `item ${index}`).toBeUndefined();
				expect(out.json.id).toMatch(/^\d+$/);
				continue;
			}
			const message = String(out.json.error);
			expect(message, rule).toContain(`Item ${index + 1} of ${items.length}`);
			// the wire name, quoted alone or next to the node field's name
			expect(message.includes(`"${field}"`) || message.includes(`(${field})`), `${rule}: ${message}`).toBe(true);
			expect(message, rule).toMatch(/Nothing was sent\.$/);
			expect(message, rule).toMatch(says!);
			expect(String(out.json.message), rule).toMatch(/Nothing was sent/);
		}

		// Check With the Service First (Auto, more than one item): each valid item is priced, then sent.
		const sent = ctx.sandbox.control.requests({ path: '/api/v2/post' });
		expect(sent.filter((r) => r.fields.test === '1').map((r) => r.fields.tag)).toEqual(['valid-first', 'valid-last']);
		expect(sent.filter((r) => r.fields.test !== '1').map((r) => r.fields.tag)).toEqual(['valid-first', 'valid-last']);
		expect(ctx.sandbox.control.orders().map((o) => o.tag).sort()).toEqual(['valid-first', 'valid-last']);
	});

	it('without Continue On Fail checks every item first: an invalid one stops the run before any is sent', async () => {
		const result = await run(ctx.sandbox, FROM_ITEM, {
			items: await letters(
				{ ...VALID, tag: 'a' },
				{ ...VALID, name: long(75), tag: 'b' },
				{ ...VALID, tag: 'c' },
			),
		});
		expect(result.error?.message).toBe('Item 2 of 3, tag "b": "Recipient Name" (name) is 75 characters long; the limit is 60 characters. Nothing was sent.');
		expect(result.error?.description).toMatch(/No item of this run was sent/);
		expect(ctx.sandbox.control.requests({ path: '/api/v2/post' })).toEqual([]);
		expect(ctx.sandbox.control.orders()).toEqual([]);
	});

	it('a run stopped by the service names the items it had already sent, with their ids (Check With the Service First: Never)', async () => {
		const never = { ...FROM_ITEM, additionalFields: { ...FROM_ITEM.additionalFields, checkWithService: 'never' } };
		// The third is valid for the node and refused by the service (an express parcel outside its city).
		const items = await letters({ ...VALID, tag: 'a' }, { ...VALID, tag: 'b' }, { ...VALID, shipType: 7, tag: 'c' }, { ...VALID, tag: 'd' });
		const result = await run(ctx.sandbox, never, { items });
		const ids = ctx.sandbox.control.orders().map((o) => o.id);
		expect(ids).toHaveLength(2);
		expect(result.error?.message).toMatch(/The service refused /);
		expect(result.error?.description).toContain(`item 1 (id ${ids[0]}), item 2 (id ${ids[1]})`);
		expect(result.error?.description).toMatch(/Do not send them again/);
		expect(ctx.sandbox.control.requests({ path: '/api/v2/post' }).map((r) => r.fields.tag)).toEqual(['a', 'b', 'c']);
	});
});
