import { z } from 'zod';

import { AR_TYPES, ENVELOPE_TYPES, PAYMENT_METHODS, SHIP_TYPES, valuesOf, type ShipType } from '../nodes/PostalService/contract/lists';
import { round2 } from './util';

// The create route's rules as data: page and text limits, the ship-type sets, the field constraints and the prices.

export const MAX_PDF_PAGES = 150;
/** Characters that fit the spec's 10 rendered pages of telegram or electronic-letter text. */
export const MAX_RENDERED_CHARS = 30_000;

// The sandbox's own reading of the ship-type rules (the node has its own in its contract; a test
// holds the two readings together).
export const PDF_SHIP_TYPES = [1, 2, 3, 5, 6, 7];
export const ECARTA_SHIP_TYPES = [8, 9, 10];
export const TO_ADDR_ONLY_SHIP_TYPES = [2, 3, 6, 7, 10];
export const CLIENT_CONTRACT_SHIP_TYPES = [2, 3, 4, 6, 7, 8, 9, 10];
export const ELECTRONIC_AR_SHIP_TYPES = [3, 7, 10];
export const EXPRESS_SHIP_TYPES = [6, 7];

/**
 * The sandbox's own price table (BRL). The service's prices are not part of its interface; these
 * only make `value`, `shipping_cost` and the balance move plausibly.
 */
export const PRICE_TABLE = {
	shipping: { 1: 2.85, 2: 8.75, 3: 13.95, 4: 11.2, 5: 1.9, 6: 24.5, 7: 29.6, 8: 1.5, 9: 5.9, 10: 9.9 } satisfies Record<
		ShipType,
		number
	> as Record<number, number>,
	firstSheet: 1.2,
	extraSheet: 0.45,
	autoenvelope: 0.3,
	electronicReturnReceiptDiscount: 1.5,
	virtualboxShippingFactor: 0.9,
	clientContractFee: 1.0,
	telegramSenderCopy: 2.0,
	telegramDeliveryConfirmation: 3.0,
	telegramPostDated: 1.0,
};

export interface PriceInput {
	shipType: number;
	sheets: number;
	envelopeType: string;
	arType: string;
	virtualbox: boolean;
	useClientContract: boolean;
	/** A telegram's options as the order keeps them (`1` when chosen); empty for other ship types. */
	telegram: { sender_copy?: unknown; delivery_confirmation?: unknown; post_dated?: unknown };
}

export function computePrice(input: PriceInput): { value: number; shippingCost: number } {
	let shipping = PRICE_TABLE.shipping[input.shipType];
	if (input.virtualbox) shipping *= PRICE_TABLE.virtualboxShippingFactor;
	if (input.arType === 'electronic') shipping -= PRICE_TABLE.electronicReturnReceiptDiscount;
	let other = 0;
	if (PDF_SHIP_TYPES.includes(input.shipType)) {
		other += PRICE_TABLE.firstSheet + Math.max(0, input.sheets - 1) * PRICE_TABLE.extraSheet;
		if (input.envelopeType === 'autoenvelope') other += PRICE_TABLE.autoenvelope;
	}
	if (input.telegram.sender_copy === 1) other += PRICE_TABLE.telegramSenderCopy;
	if (input.telegram.delivery_confirmation === 1) other += PRICE_TABLE.telegramDeliveryConfirmation;
	if (input.telegram.post_dated === 1) other += PRICE_TABLE.telegramPostDated;
	if (input.useClientContract) {
		// The shipment is billed to the account's own postal contract; the service keeps a fee.
		shipping = 0;
		other += PRICE_TABLE.clientContractFee;
	}
	return { value: round2(shipping + other), shippingCost: round2(shipping) };
}

const oneOf = <T extends string>(field: string, values: readonly [T, ...T[]]) =>
	z.enum(values, { errorMap: () => ({ message: `${field}: valor inválido (aceitos: ${values.join(', ')})` }) });
/** One of the values of a list of the contract. */
const inList = <T extends string>(field: string, list: ReadonlyArray<{ readonly value: T }>) =>
	oneOf(field, valuesOf(list) as [T, ...T[]]);
const SHIP_TYPE_VALUES = valuesOf(SHIP_TYPES).map(String);
const maxLen = (field: string, max: number) => z.string().max(max, `${field}: máximo de ${max} caracteres`);
const flag = (field: string) => oneOf(field, ['0', '1']);
const bool = (field: string) => oneOf(field, ['0', '1', 'true', 'false']);

/** Field-level constraints of the create-order table; the rules across fields follow in code. */
export const createSchema = z.object({
	shipType: z
		.string()
		.refine((value) => SHIP_TYPE_VALUES.includes(value), `shipType: use um inteiro de ${SHIP_TYPE_VALUES[0]} a ${SHIP_TYPE_VALUES.at(-1)}`),
	paymentMethod: inList('paymentMethod', PAYMENT_METHODS).optional(),
	team_member_id: z.string().regex(/^\d+$/, 'team_member_id: deve ser um número inteiro').optional(),
	ar_type: inList('ar_type', AR_TYPES).optional(),
	// `0`, `1`, "also accepts true": the table lists no `false` here, as it does for duplex_printing.
	virtualbox: oneOf('virtualbox', ['0', '1', 'true']).optional(),
	name: maxLen('name', 60),
	addr1: maxLen('addr1', 60),
	street_number: maxLen('street_number', 15),
	addr2: maxLen('addr2', 40).optional(),
	zip: z.string(),
	city: maxLen('city', 40),
	state: maxLen('state', 40),
	country: maxLen('country', 60),
	name_sender: maxLen('name_sender', 60).optional(),
	addr1_sender: maxLen('addr1_sender', 60).optional(),
	street_number_sender: maxLen('street_number_sender', 15).optional(),
	addr2_sender: maxLen('addr2_sender', 40).optional(),
	zip_sender: z.string().optional(),
	city_sender: maxLen('city_sender', 40).optional(),
	state_sender: maxLen('state_sender', 40).optional(),
	country_sender: maxLen('country_sender', 60).optional(),
	toAddrOnly: flag('toAddrOnly').optional(),
	tag: z.string().optional(),
	test: flag('test').optional(),
	duplex_printing: bool('duplex_printing').optional(),
	envelope_type: inList('envelope_type', ENVELOPE_TYPES).optional(),
	telegram_msg: z
		.string()
		.min(10, 'telegram_msg: mínimo de 10 caracteres')
		.max(MAX_RENDERED_CHARS, 'telegram_msg: o conteúdo excede 10 páginas')
		.optional(),
	telegram_post_dated: flag('telegram_post_dated').optional(),
	telegram_post_dated_date: z.string().optional(),
	telegram_sender_copy: flag('telegram_sender_copy').optional(),
	telegram_delivery_confirmation: flag('telegram_delivery_confirmation').optional(),
	ecarta_msg: z.string().min(10, 'ecarta_msg: mínimo de 10 caracteres').optional(),
	use_client_contract: flag('use_client_contract').optional(),
});

export type CreateFields = z.infer<typeof createSchema>;
