import { describe, expect, it } from 'vitest';

import { CEP_RANGES, stateOfCep } from '../../nodes/PostalService/contract/cep';
import {
	AR_TYPES,
	ENVELOPE_TYPES,
	FILE_TYPES,
	PAYMENT_METHODS,
	SHIP_TYPES,
	TEMPLATE_STATUSES,
	valuesOf,
} from '../../nodes/PostalService/contract/lists';
import { SAMPLE_RECIPIENT } from '../../sandbox/recipient';
import {
	FIELD_LIMITS,
	SHIP_TYPE_RULES,
	todayInSaoPaulo,
	validateOrder,
} from '../../nodes/PostalService/contract/order';

const PDF = { kind: 'binary' as const, bytes: Buffer.from('%PDF-1.7\n%fake\n') };
const base = { shipType: '2', ...SAMPLE_RECIPIENT };
const fieldsOf = (problems: ReturnType<typeof validateOrder>) => problems.map((p) => p.field);

// Each rule of a letter, through the node, is validation.test.ts's family; here the tables against the spec.
describe('create-order contract', () => {
	it('holds the lists of values of the spec', () => {
		// Written out again, as the spec has them: every other test, the node and the sandbox read
		// these lists from the contract, so this is where a change of one meets the spec. The statuses
		// meet it in the guides' Statuses table, which test/docs/guides.test.ts holds to the lists.
		expect(SHIP_TYPES.map(({ value, name }) => [value, name])).toEqual([
			[1, 'Simple Letter'],
			[2, 'Registered Letter'],
			[3, 'Registered Letter + Return Receipt'],
			[4, 'Telegram'],
			[5, 'Direct Mail'],
			[6, 'Express Parcel'],
			[7, 'Express Parcel + Return Receipt'],
			[8, 'Simple Electronic Letter'],
			[9, 'Registered Electronic Letter'],
			[10, 'Registered Electronic Letter + Return Receipt'],
		]);
		expect(valuesOf(PAYMENT_METHODS)).toEqual(['service_credits', 'invoice', 'team']);
		expect(valuesOf(AR_TYPES)).toEqual(['physical', 'electronic']);
		expect(valuesOf(ENVELOPE_TYPES)).toEqual(['regular', 'autoenvelope']);
		expect(valuesOf(FILE_TYPES)).toEqual(['pdf', 'letter_front', 'rr', 'rr_electronic', 'sender_copy']);
		expect(valuesOf(TEMPLATE_STATUSES)).toEqual(['approved', 'pending', 'rejected', 'paused', 'disabled']);
	});

	it('holds the Limits table of the spec', () => {
		// The spec's Limits table, written out again so that a change of the contract table is a
		// deliberate act checked against the spec.
		expect(FIELD_LIMITS).toEqual({
			name: { max: 60 },
			name_sender: { max: 60 },
			addr1: { max: 60 },
			addr1_sender: { max: 60 },
			country: { max: 60 },
			country_sender: { max: 60 },
			street_number: { max: 15 },
			street_number_sender: { max: 15 },
			addr2: { max: 40 },
			addr2_sender: { max: 40 },
			city: { max: 40 },
			city_sender: { max: 40 },
			state: { max: 40 },
			state_sender: { max: 40 },
			telegram_msg: { min: 10 },
			ecarta_msg: { min: 10 },
		});
		expect(SHIP_TYPE_RULES.returnReceipt).toEqual([3, 7, 10]);
		expect(SHIP_TYPE_RULES.toAddrOnly).toEqual([2, 3, 6, 7, 10]);
		expect(SHIP_TYPE_RULES.clientContract).toEqual([2, 3, 4, 6, 7, 8, 9, 10]);
		expect(SHIP_TYPE_RULES.pdf).toEqual([1, 2, 3, 5, 6, 7]);
	});

	it.each(Object.entries(FIELD_LIMITS).filter(([, l]) => l.max))('refuses %s one character over its limit', (field, limit) => {
		const fields = { ...base, [field]: 'x'.repeat(limit.max! + 1) };
		const problems = validateOrder(fields, PDF);
		expect(problems.find((p) => p.field === field)?.message).toContain(`limit is ${limit.max}`);
		expect(validateOrder({ ...base, [field]: 'x'.repeat(limit.max!) }, PDF).filter((p) => p.field === field && /limit/.test(p.message))).toEqual([]);
	});

	// A postal code's format and its state against the recipient's and the sender's, through the node: validation.test.ts;
	// the table read as the sandbox reads it: test/sandbox/contract.test.ts.
	it('checks Brazilian postal codes and their state', () => {
		expect(fieldsOf(validateOrder({ ...base, state: 'XX' }, PDF))).toEqual(['state']);
		expect(fieldsOf(validateOrder({ ...base, country: 'Portugal', zip: '1000-001', state: 'Lisboa' }, PDF))).toEqual([]);
		expect(stateOfCep('69301000')).toBe('RR');
		expect(stateOfCep('73800000')).toBe('GO');
		expect(Object.keys(CEP_RANGES)).toHaveLength(27);
	});

	it('wants a post-dated telegram date of tomorrow or later, in São Paulo time', () => {
		const now = new Date('2026-11-22T01:00:00Z'); // 21 November, 22:00 in São Paulo
		expect(todayInSaoPaulo(now)).toBe('2026-11-21');
		const telegram = { ...base, shipType: '4', telegram_msg: 'Mensagem do telegrama', telegram_post_dated: '1' };
		expect(fieldsOf(validateOrder({ ...telegram, telegram_post_dated_date: '2026-11-21' }, { kind: 'none' }, now))).toEqual([
			'telegram_post_dated_date',
		]);
		expect(fieldsOf(validateOrder({ ...telegram, telegram_post_dated_date: '2026-11-22' }, { kind: 'none' }, now))).toEqual([]);
		expect(fieldsOf(validateOrder({ ...telegram, telegram_post_dated_date: '2026-02-30' }, { kind: 'none' }, now))).toEqual([
			'telegram_post_dated_date',
		]);
		expect(fieldsOf(validateOrder({ ...telegram }, { kind: 'none' }, now))).toEqual(['telegram_post_dated_date']);
	});

	it('refuses content that is not a PDF, and a link that is not http or https', () => {
		expect(fieldsOf(validateOrder(base, { kind: 'base64', notPdf: true }))).toEqual(['pdfFile']);
		expect(fieldsOf(validateOrder(base, { kind: 'binary', notPdf: true }))).toEqual(['pdfFile']);
		expect(fieldsOf(validateOrder(base, { kind: 'binary', notPdf: false }))).toEqual([]);
		expect(fieldsOf(validateOrder(base, { kind: 'url', url: 'ftp://x/y.pdf' }))).toEqual(['pdfFile']);
	});
});
