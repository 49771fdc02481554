/**
 * The node and the sandbox read the spec separately; where both hold a table of it, the two
 * readings must agree, or one of them misread the spec.
 */
import { describe, expect, it } from 'vitest';

import { CEP_RANGES as NODE_CEP_RANGES } from '../../nodes/PostalService/contract/cep';
import { FIELD_LIMITS, SHIP_TYPE_RULES } from '../../nodes/PostalService/contract/order';
import { CEP_RANGES } from '../../sandbox/cep';
import {
	CLIENT_CONTRACT_SHIP_TYPES,
	ECARTA_SHIP_TYPES,
	ELECTRONIC_AR_SHIP_TYPES,
	EXPRESS_SHIP_TYPES,
	PDF_SHIP_TYPES,
	TO_ADDR_ONLY_SHIP_TYPES,
} from '../../sandbox/rules';
import { createOrder, letter, pdfWithPages, useSandbox } from './support';

const ctx = useSandbox();

describe('Limits › the sandbox and the node agree', () => {
	it('on the CEP ranges per state', () => {
		const widened = Object.fromEntries(
			Object.entries(NODE_CEP_RANGES).map(([state, ranges]) => [state, ranges.map(([lo, hi]) => [lo * 1000, hi * 1000 + 999])]),
		);
		expect(CEP_RANGES).toEqual(widened);
	});

	it('on which ship types need or accept what', () => {
		expect(PDF_SHIP_TYPES).toEqual(SHIP_TYPE_RULES.pdf);
		expect(ECARTA_SHIP_TYPES).toEqual(SHIP_TYPE_RULES.electronicLetter);
		expect(TO_ADDR_ONLY_SHIP_TYPES).toEqual(SHIP_TYPE_RULES.toAddrOnly);
		expect(CLIENT_CONTRACT_SHIP_TYPES).toEqual(SHIP_TYPE_RULES.clientContract);
		expect(ELECTRONIC_AR_SHIP_TYPES).toEqual(SHIP_TYPE_RULES.returnReceipt);
		expect(EXPRESS_SHIP_TYPES).toEqual(SHIP_TYPE_RULES.express);
	});

	// FIELD_LIMITS is pinned to the spec's table by test/node/contract.test.ts: this is the sandbox's one proof of the lengths.
	it('on every maximum length of the create-order table', async () => {
		const pdf = await pdfWithPages(1);
		for (const [field, { max }] of Object.entries(FIELD_LIMITS)) {
			if (max === undefined) continue;
			const foreign = field.endsWith('_sender') ? { country_sender: 'Portugal' } : { country: 'Portugal' };
			const extra = field === 'country' ? {} : foreign;
			const at = await createOrder(ctx.base, letter({ ...extra, test: '1', [field]: 'x'.repeat(max) }), pdf);
			expect(at.status, `${field} at ${max}: ${JSON.stringify(at.body)}`).toBe(200);
			const over = await createOrder(ctx.base, letter({ ...extra, test: '1', [field]: 'x'.repeat(max + 1) }), pdf);
			expect(over.status, `${field} at ${max + 1}`).toBe(400);
			expect(over.body.status_message).toContain(`${field}: máximo de ${max} caracteres`);
		}
	});
});
