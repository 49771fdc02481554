/**
 * A return receipt is asked for only where one exists, and a file a letter does not have is said so.
 * Generated: every ship type × every return-receipt value × every way it reaches the node (the
 * panel's field, fixed or by an expression, with the ship type fixed or by an expression, and
 * Options > Extra Parameters), each sent with its ship type's own fields; then every file type
 * downloaded from letters with and without one.
 */
import { describe, expect, it } from 'vitest';

import { AR_TYPES, FILE_TYPES, SHIP_TYPES, valuesOf } from '../../nodes/PostalService/contract/lists';
import { SHIP_TYPE_RULES } from '../../nodes/PostalService/contract/order';
import { LETTER, pdfItem, run, TOKEN, useSandbox } from './fixture';

const ctx = useSandbox();

const LETTER_TEXT = '<p>Prezada Maria, segue a notificação.</p>';
const TELEGRAM = { telegramMessage: 'Comunicamos o vencimento do contrato.', telegramPostDated: true, telegramPostDatedDate: '2099-01-15' };
/** What each ship type needs besides the letter's fields to be accepted. */
const NEEDS: Record<number, Record<string, unknown>> = {
	4: TELEGRAM,
	6: { additionalFields: { virtualBox: true } },
	7: { additionalFields: { virtualBox: true } },
	8: { electronicLetterMessage: LETTER_TEXT },
	9: { electronicLetterMessage: LETTER_TEXT },
	10: { electronicLetterMessage: LETTER_TEXT },
};
/** Those fields as the service names them. */
const SENT: Record<number, Record<string, string>> = {
	4: {
		telegram_msg: TELEGRAM.telegramMessage,
		telegram_post_dated: '1',
		telegram_post_dated_date: '2099-01-15',
		telegram_sender_copy: '0',
		telegram_delivery_confirmation: '0',
	},
	6: { virtualbox: '1' },
	7: { virtualbox: '1' },
	8: { ecarta_msg: LETTER_TEXT },
	9: { ecarta_msg: LETTER_TEXT },
	10: { ecarta_msg: LETTER_TEXT },
};

/** Each way a return-receipt value reaches the node, as the parameters it gives; the panel shows the field on a ship type without a receipt only when the ship type is an expression. */
const WAYS: Record<string, (shipType: number, value: string) => Record<string, unknown>> = {
	'panel, ship type fixed': (shipType, value) => ({ shipType, returnReceiptType: value }),
	'panel, ship type by expression': (shipType, value) => ({ shipType: `={{ ${shipType} }}`, returnReceiptType: value }),
	'panel by expression, ship type by expression': (shipType, value) => ({ shipType: `={{ ${shipType} }}`, returnReceiptType: `={{ "${value}" }}` }),
	'Extra Parameters': (shipType, value) => ({ shipType, options: { extraParameters: { parameter: [{ name: 'ar_type', value }] } } }),
};

/** What must happen: sent with ar_type, refused, or sent without (n8n drops a field the panel hides, and fills Physical in where it shows it). */
function expected(shipType: number, value: string, way: string): 'sent with it' | 'refused' | 'sent without it' {
	if ((SHIP_TYPE_RULES.returnReceipt as readonly number[]).includes(shipType)) return 'sent with it';
	if (way === 'panel, ship type fixed') return 'sent without it';
	if (way === 'panel, ship type by expression' && value === 'physical') return 'sent without it';
	return 'refused';
}

const CASES = valuesOf(SHIP_TYPES).flatMap((shipType) =>
	valuesOf(AR_TYPES).flatMap((value) => Object.keys(WAYS).map((way) => [shipType, value, way, expected(shipType, value, way)] as const)),
);
const AR_NAMES = 'Registered Letter + Return Receipt, Express Parcel + Return Receipt, Registered Electronic Letter + Return Receipt (shipType 3, 7, 10)';

describe('a return receipt on every ship type', () => {
	it.each(CASES)('ship type %i, ar_type %s, from the %s: %s', async (shipType, value, way, outcome) => {
		const result = await run(ctx.sandbox, { ...LETTER, ...NEEDS[shipType], ...WAYS[way](shipType, value) }, { items: [await pdfItem(1)] });
		const sent = ctx.sandbox.control.requests({ method: 'POST', path: '/api/v2/post' });
		if (outcome === 'refused') {
			expect(result.error?.message).toContain(`"Return Receipt Type" (ar_type) ${value} asks for a return receipt, which only ${AR_NAMES} carry`);
			expect(result.error?.message).toMatch(/Nothing was sent\.$/);
			expect(sent).toHaveLength(0);
			return;
		}
		expect(result.error).toBeUndefined();
		expect(sent).toHaveLength(1);
		expect(sent[0].fields.ar_type).toBe(outcome === 'sent with it' ? value : undefined);
		// Each ship type with its own fields, and a PDF only where it takes one.
		expect(sent[0].fields).toMatchObject({ shipType: String(shipType), ...SENT[shipType] });
		expect(sent[0].files).toHaveLength((SHIP_TYPE_RULES.pdf as readonly number[]).includes(shipType) ? 1 : 0);
	});

	it('the family covers every ship type, every value and every way', () => {
		expect(CASES).toHaveLength(SHIP_TYPES.length * AR_TYPES.length * Object.keys(WAYS).length);
	});
});

describe('a file the letter does not have', () => {
	it.each([2, 3])('ship type %i: each file type it has downloads; each it lacks says which it has, in English, then the service\'s words', async (shipType) => {
		const created = await run(ctx.sandbox, { ...LETTER, shipType }, { items: [await pdfItem(1)] });
		const id = String(created.items[0].json.id);
		if (shipType === 3) ctx.sandbox.control.addReturnReceipt(id);
		const read = (await (await fetch(`${ctx.sandbox.baseUrl}/api/v2/get/${TOKEN}/${id}`)).json()) as { data: { files: Array<{ type: string }> } };
		const has = new Set(read.data.files.map((file) => file.type));
		const named = [...has].map((type) => `${FILE_TYPES.find((t) => t.value === type)!.name} (${type})`).join(', ');
		for (const { value: fileType, name } of FILE_TYPES) {
			const result = await run(ctx.sandbox, { resource: 'order', operation: 'downloadFile', orderId: id, fileType }, { continueOnFail: true });
			if (has.has(fileType)) {
				expect(result.items[0].json.error, fileType).toBeUndefined();
				continue;
			}
			const message = String(result.items[0].json.error);
			expect(message, fileType).toContain(`Letter ${id} has no ${name} (${fileType}) file: its files are ${named}. Choose one of those in "File Type".`);
			expect(message, fileType).toMatch(new RegExp(`The service said: Arquivo não disponível para este pedido: ${fileType}$`));
		}
	});
});
