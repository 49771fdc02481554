/** The create-order rules as data (the spec's table, rules and limits), checked on every item before any request. */
import { DateTime } from 'luxon';

import { checkAddress, isBrazil, isCepFormat, normalizeCep } from './cep';
import { AR_TYPES, ENVELOPE_TYPES, PAYMENT_METHODS, SHIP_TYPES, shipTypeName, valuesOf } from './lists';

/** Which ship types need or accept what. */
export const SHIP_TYPE_RULES = {
	/** pdfFile is required. */
	pdf: [1, 2, 3, 5, 6, 7],
	/** telegram_msg and the telegram flags. */
	telegram: [4],
	/** ecarta_msg (electronic letters). */
	electronicLetter: [8, 9, 10],
	/** Return receipt exists at all: ar_type, either value, is allowed. */
	returnReceipt: [3, 7, 10],
	/** toAddrOnly is considered; forced to 0 otherwise. */
	toAddrOnly: [2, 3, 6, 7, 10],
	/** use_client_contract is allowed. */
	clientContract: [2, 3, 4, 6, 7, 8, 9, 10],
	/** Accepted only with virtualbox=1 or a sender in the service's own city (not checkable locally). */
	express: [6, 7],
} as const satisfies Record<string, readonly number[]>;

/** The spec's Limits table, per wire field. */
export const FIELD_LIMITS: Record<string, { max?: number; min?: number }> = {
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
};

/** The values each flag takes: 0 or 1, and the words the create-order table accepts besides. */
const FLAG_VALUES: Record<string, readonly string[]> = {
	virtualbox: ['0', '1', 'true'],
	duplex_printing: ['0', '1', 'true', 'false'],
	toAddrOnly: ['0', '1'],
	test: ['0', '1'],
	use_client_contract: ['0', '1'],
	telegram_post_dated: ['0', '1'],
	telegram_sender_copy: ['0', '1'],
	telegram_delivery_confirmation: ['0', '1'],
};

/** Recipient fields the create-order table marks as required for every ship type. */
const REQUIRED_RECIPIENT = ['name', 'addr1', 'street_number', 'zip', 'city', 'state', 'country'] as const;

/** How the PDF reaches the service, with what the node could tell of it for sure. */
export interface PdfSource {
	kind: 'binary' | 'url' | 'base64' | 'none';
	url?: string;
	/** Its first bytes hold no `%PDF-` header (a binary or base64 PDF); what else is wrong, the service says. */
	notPdf?: boolean;
}

export interface ValidationProblem {
	field: string;
	message: string;
}

const has = (list: readonly number[], value: number) => list.includes(value);

/** Ship types as the panel names them: "Telegram, Direct Mail (shipType 4, 5)". */
const namesOf = (types: readonly number[]) =>
	`${types.map((type) => SHIP_TYPES.find(({ value }) => value === type)?.name).join(', ')} (shipType ${types.join(', ')})`;

/** Today in the service's time zone, as yyyy-MM-dd. */
export function todayInSaoPaulo(now: Date = new Date()): string {
	return DateTime.fromJSDate(now).setZone('America/Sao_Paulo').toISODate()!;
}

/** A date given as yyyy-MM-dd or an ISO date-time, reduced to yyyy-MM-dd; undefined if not a date. */
const toIsoDate = (value: string) => DateTime.fromISO(value.trim().slice(0, 10)).toISODate() ?? undefined;

/** What the node can tell is wrong with one order on its own; what only the service knows (its city, rendered pages, the plan) is its to judge. */
export function validateOrder(
	fields: Record<string, string>,
	pdf: PdfSource,
	now: Date = new Date(),
): ValidationProblem[] {
	const problems: ValidationProblem[] = [];
	const shipType = Number(fields.shipType);
	if (!valuesOf<number>(SHIP_TYPES).includes(shipType)) {
		const [first, last] = [SHIP_TYPES[0].value, SHIP_TYPES[SHIP_TYPES.length - 1].value];
		problems.push({ field: 'shipType', message: `"shipType" must be a whole number from ${first} to ${last}; got "${fields.shipType}"` });
		return problems;
	}

	for (const field of REQUIRED_RECIPIENT) {
		if (!fields[field]?.trim()) problems.push({ field, message: `"${field}" is required and is empty` });
	}

	for (const [field, limit] of Object.entries(FIELD_LIMITS)) {
		const value = fields[field];
		if (value === undefined || value === '') continue;
		const length = [...value].length;
		if (limit.max !== undefined && length > limit.max) {
			problems.push({ field, message: `"${field}" is ${length} characters long; the limit is ${limit.max} characters` });
		}
		if (limit.min !== undefined && length < limit.min) {
			problems.push({ field, message: `"${field}" is ${length} characters long; the minimum is ${limit.min} characters` });
		}
	}

	const enums: Array<[string, readonly string[]]> = [
		['paymentMethod', valuesOf(PAYMENT_METHODS)],
		['ar_type', valuesOf(AR_TYPES)],
		['envelope_type', valuesOf(ENVELOPE_TYPES)],
		...Object.entries(FLAG_VALUES),
	];
	for (const [field, allowed] of enums) {
		const value = fields[field];
		if (value !== undefined && value !== '' && !allowed.includes(value)) {
			problems.push({ field, message: `"${field}" must be one of ${allowed.join(', ')}; got "${value}"` });
		}
	}

	if (fields.paymentMethod === 'team' && !/^[1-9]\d*$/.test(fields.team_member_id ?? '')) {
		problems.push({
			field: 'team_member_id',
			message: `"team_member_id" (the positive whole-number ID of a team member) is required when paymentMethod is team; got "${fields.team_member_id ?? ''}"`,
		});
	}
	if (fields.ar_type && !has(SHIP_TYPE_RULES.returnReceipt, shipType)) {
		problems.push({
			field: 'ar_type',
			message: `"ar_type" ${fields.ar_type} asks for a return receipt, which only ${namesOf(SHIP_TYPE_RULES.returnReceipt)} carry; this item's Ship Type is ${shipTypeName(shipType)}: choose one of those or remove the return receipt`,
		});
	}
	if (fields.use_client_contract === '1' && !has(SHIP_TYPE_RULES.clientContract, shipType)) {
		problems.push({
			field: 'use_client_contract',
			message: `"use_client_contract" is allowed only for ${namesOf(SHIP_TYPE_RULES.clientContract)}; this item's Ship Type is ${shipTypeName(shipType)}`,
		});
	}

	if (has(SHIP_TYPE_RULES.pdf, shipType)) {
		if (pdf.kind === 'none') {
			problems.push({ field: 'pdfFile', message: `"pdfFile" is required for ${shipTypeName(shipType)}: give a file from a previous node, a link or base64` });
		} else if (pdf.kind === 'url' && !/^https?:\/\/\S+$/i.test(pdf.url ?? '')) {
			problems.push({ field: 'pdfFile', message: `"pdfFile" URL must start with http:// or https://; got "${pdf.url}"` });
		} else if (pdf.notPdf) {
			problems.push({ field: 'pdfFile', message: '"pdfFile" is not a PDF (no %PDF- header in its first 1024 bytes)' });
		}
	}
	if (has(SHIP_TYPE_RULES.telegram, shipType)) {
		if (!fields.telegram_msg) problems.push({ field: 'telegram_msg', message: '"telegram_msg" is required for a telegram (shipType 4)' });
		if (fields.telegram_post_dated === '1') {
			const date = toIsoDate(fields.telegram_post_dated_date ?? '');
			const today = todayInSaoPaulo(now);
			if (!fields.telegram_post_dated_date) {
				problems.push({ field: 'telegram_post_dated_date', message: '"telegram_post_dated_date" is required when telegram_post_dated is 1' });
			} else if (!date) {
				problems.push({ field: 'telegram_post_dated_date', message: `"telegram_post_dated_date" must be a date (yyyy-MM-dd); got "${fields.telegram_post_dated_date}"` });
			} else if (date <= today) {
				problems.push({
					field: 'telegram_post_dated_date',
					message: `"telegram_post_dated_date" must be in the future (tomorrow or later, São Paulo time; today is ${today}); got ${date}`,
				});
			}
		}
	}
	if (has(SHIP_TYPE_RULES.electronicLetter, shipType) && !fields.ecarta_msg) {
		problems.push({ field: 'ecarta_msg', message: `"ecarta_msg" is required for ${shipTypeName(shipType)}` });
	}

	checkAddress(fields, '', problems);
	const hasSender = ['zip_sender', 'state_sender'].some((f) => fields[f]);
	if (hasSender) checkAddress(fields, '_sender', problems);
	return problems;
}

/** The wire fields after the spec's forcing rules, applied here so that what the node sends is what the service will do. */
export function applyForcing(fields: Record<string, string>): Record<string, string> {
	const out = { ...fields };
	const shipType = Number(out.shipType);
	if (out.toAddrOnly !== undefined && !has(SHIP_TYPE_RULES.toAddrOnly, shipType)) out.toAddrOnly = '0';
	if (out.zip && isBrazil(out.country) && isCepFormat(out.zip)) out.zip = normalizeCep(out.zip);
	if (out.zip_sender && isBrazil(out.country_sender) && isCepFormat(out.zip_sender)) out.zip_sender = normalizeCep(out.zip_sender);
	if (out.state && isBrazil(out.country) && out.state.trim().length === 2) out.state = out.state.trim().toUpperCase();
	return out;
}

/** An amount in reais (30, 30.5, 30,00, R$ 30); anything else, empty included, is none, since a cap read as none would send unpriced. */
export function readReais(value: unknown): number | undefined {
	if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value : undefined;
	const match = typeof value === 'string' ? /^\s*(?:R\$\s*)?(\d+)(?:[.,](\d{1,2}))?\s*$/i.exec(value) : null;
	return match ? Number(`${match[1]}.${match[2] ?? '0'}`) : undefined;
}
