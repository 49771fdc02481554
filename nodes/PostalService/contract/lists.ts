/** Every list of values the interface defines, once: the node's options and checks, the sandbox and the tests read them here. */

/** shipType of the create-order table. */
export const SHIP_TYPES = [
	{ value: 1, name: 'Simple Letter' },
	{ value: 2, name: 'Registered Letter' },
	{ value: 3, name: 'Registered Letter + Return Receipt' },
	{ value: 4, name: 'Telegram' },
	{ value: 5, name: 'Direct Mail' },
	{ value: 6, name: 'Express Parcel' },
	{ value: 7, name: 'Express Parcel + Return Receipt' },
	{ value: 8, name: 'Simple Electronic Letter' },
	{ value: 9, name: 'Registered Electronic Letter' },
	{ value: 10, name: 'Registered Electronic Letter + Return Receipt' },
] as const;

export type ShipType = (typeof SHIP_TYPES)[number]['value'];

/** A ship type as the panel names it, with the service's number for it: "Registered Letter (shipType 2)". */
export function shipTypeName(shipType: number): string {
	const name = SHIP_TYPES.find(({ value }) => value === shipType)?.name;
	return name ? `${name} (shipType ${shipType})` : `shipType ${shipType}`;
}

/** paymentMethod of a create-order or a chat message; the first is the service's default. */
export const PAYMENT_METHODS = [
	{ value: 'service_credits', name: 'Credits', description: 'Pay from the account balance' },
	{ value: 'invoice', name: 'Invoice', description: 'Bill the account' },
	{ value: 'team', name: 'Team', description: 'Charge a team member' },
] as const;

export type PaymentMethod = (typeof PAYMENT_METHODS)[number]['value'];

/** ar_type of a create-order; the first is the service's default. */
export const AR_TYPES = [
	{ value: 'physical', name: 'Physical', description: 'A scanned paper receipt' },
	{ value: 'electronic', name: 'Electronic', description: 'A receipt returned digitally' },
] as const;

/** envelope_type of a create-order. */
export const ENVELOPE_TYPES = [
	{ value: 'regular', name: 'Regular' },
	{ value: 'autoenvelope', name: 'Auto-Envelope', description: 'Needs a single-page PDF' },
] as const;

/** `type` of the download route: the files an order can have. */
export const FILE_TYPES = [
	{ value: 'pdf', name: 'PDF', description: 'The document that was sent' },
	{ value: 'letter_front', name: 'Letter Front', description: 'The front page as printed' },
	{ value: 'rr', name: 'Return Receipt', description: 'Scanned paper return receipt' },
	{ value: 'rr_electronic', name: 'Electronic Return Receipt', description: 'Return receipt returned digitally' },
	{ value: 'sender_copy', name: 'Sender Copy', description: 'Copy for the sender (telegrams)' },
] as const;

export type FileType = (typeof FILE_TYPES)[number]['value'];

/** Status of letters, telegrams and electronic letters (States and transitions). */
export const ORDER_STATUSES = [
	{ value: 0, meaning: 'Processing' },
	{ value: 1, meaning: 'In production' },
	{ value: 2, meaning: 'Insufficient credits' },
	{ value: 3, meaning: 'Printed' },
	{ value: 4, meaning: 'Posted' },
	{ value: 5, meaning: 'Cancelled' },
	{ value: 6, meaning: 'Returned' },
] as const;

export type OrderStatus = (typeof ORDER_STATUSES)[number]['value'];

/** Status of registered e-mail (States and transitions). */
export const EMAIL_STATUSES = [
	{ value: 0, meaning: 'Processing payment' },
	{ value: 1, meaning: 'Paid, awaiting send' },
	{ value: 2, meaning: 'Insufficient credits' },
	{ value: 3, meaning: 'Sent' },
	{ value: 4, meaning: 'Cancelled' },
	{ value: 5, meaning: 'Failed' },
] as const;

export type EmailStatus = (typeof EMAIL_STATUSES)[number]['value'];

/** Status of a chat template. */
export const TEMPLATE_STATUSES = [
	{ value: 'approved', name: 'Approved' },
	{ value: 'pending', name: 'Pending' },
	{ value: 'rejected', name: 'Rejected' },
	{ value: 'paused', name: 'Paused' },
	{ value: 'disabled', name: 'Disabled' },
] as const;

export type TemplateStatus = (typeof TEMPLATE_STATUSES)[number]['value'];

/** The values of one of the lists above, in its order. */
export function valuesOf<V>(list: ReadonlyArray<{ readonly value: V }>): V[] {
	return list.map((entry) => entry.value);
}

/** What a status means, if it is one of the list. */
export function meaningOf<V>(list: ReadonlyArray<{ readonly value: V; readonly meaning: string }>, value: unknown): string | undefined {
	return list.find((entry) => entry.value === value)?.meaning;
}

/** Alphabetical order, as n8n lists options; not localeCompare, whose first call loads ICU's collation (ms of cold load). */
export const byName = (a: { name: string }, b: { name: string }) => {
	const [x, y] = [a.name.toLowerCase(), b.name.toLowerCase()];
	return x < y ? -1 : x > y ? 1 : 0;
};

/** Every price and balance of the service is in Brazilian reais. */
export const CURRENCY = 'BRL';
