import { shipTypeName, SHIP_TYPES, type EmailStatus, type OrderStatus } from '../nodes/PostalService/contract/lists';
import { SHIP_TYPE_RULES } from '../nodes/PostalService/contract/order';
import type { RrType } from '../nodes/PostalServiceTrigger/webhookLists';
import type { Address, EmailOrder, LetterOrder, Order, StoredFile } from './state';

// What an order looks like from outside: the read routes, the control API and the webhooks' payloads.

/** The service's own wording of each status; which statuses exist is the contract's list. */
export const LETTER_STATUS_TEXT: Record<number, string> = {
	0: 'Processando',
	1: 'Em produção',
	2: 'Créditos insuficientes',
	3: 'Impresso',
	4: 'Postado',
	5: 'Cancelado',
	6: 'Devolvido',
} satisfies Record<OrderStatus, string>;

export const EMAIL_STATUS_TEXT: Record<number, string> = {
	0: 'Processando pagamento',
	1: 'Pago, aguardando envio',
	2: 'Créditos insuficientes',
	3: 'Enviado',
	4: 'Cancelado',
	5: 'Falhou',
} satisfies Record<EmailStatus, string>;

/** The address keys in the order each shape lists them: the read shape, and the creation webhook (no street number). */
export const READ_ADDRESS_KEYS: Array<keyof Address> = ['name', 'addr1', 'street_number', 'addr2', 'zip', 'city', 'state', 'country'];
const CREATED_ADDRESS_KEYS: Array<keyof Address> = ['name', 'addr1', 'addr2', 'city', 'state', 'zip', 'country'];

function addressFields(address: Address, keys: Array<keyof Address>, suffix: string): Record<string, string> {
	return Object.fromEntries(keys.map((key) => [`${key}${suffix}`, address[key]]));
}

/** The files of an order as the read shape lists them (no contents). */
function fileList(files: StoredFile[]): Array<Record<string, unknown>> {
	return files.map((f) => ({ name: f.name, type: f.type, created_at: f.created_at }));
}

export function trackingRecords(order: LetterOrder): Record<string, unknown> {
	if (!order.tracking) return {};
	return { codObjeto: order.tracking, eventos: [...order.tracking_events].reverse() };
}

/** `data` of the order-read operation for a letter, field for field as the spec lists it. */
export function letterView(o: LetterOrder): Record<string, unknown> {
	const has = (type: StoredFile['type']) => o.files.some((f) => f.type === type);
	return {
		id: o.id,
		numPages: o.numPages,
		...o.recipient,
		...addressFields(o.sender, READ_ADDRESS_KEYS, '_sender'),
		shipType: o.shipType,
		tracking: o.tracking,
		status: o.status,
		status_delivery: o.status_delivery,
		delivery_suspension: o.delivery_suspension,
		delivery_suspension_at: o.delivery_suspension_at,
		pdf_available: has('pdf'),
		rr_available: has('rr') || has('rr_electronic'),
		rr_count: o.rr_count,
		sender_copy_available: has('sender_copy'),
		telegram_copy_available: o.shipType === 4 && has('sender_copy'),
		files: fileList(o.files),
		dateSubmit: o.dateSubmit,
		dateLastChange: o.dateLastChange,
		value: o.value,
		use_client_contract: o.use_client_contract,
		shipping_cost: o.shipping_cost,
		tag: o.tag,
		tracking_records: trackingRecords(o),
		tracking_records_last_update: o.tracking_records_last_update,
		telegram_info: o.telegram_info,
	};
}

/** The fields that open both the read shape and the creation webhook of a registered e-mail. */
function emailHead(o: EmailOrder): Record<string, unknown> {
	return {
		id: o.id,
		type: 'email',
		status: o.status,
		recipient: o.recipient,
		sender: o.sender,
		subject: o.subject,
		value: o.value,
	};
}

/** The spec does not show a registered e-mail read; this shape follows its webhook payload. */
export function emailView(o: EmailOrder): Record<string, unknown> {
	return {
		...emailHead(o),
		paymentMethod: o.paymentMethod,
		created_at: o.created_at,
		dateLastChange: o.dateLastChange,
		opened: o.opened,
		date_opened: o.date_opened,
		failure_reason: o.failure_reason,
		files: fileList(o.files),
	};
}

export function orderView(o: Order): Record<string, unknown> {
	return o.kind === 'letter' ? letterView(o) : emailView(o);
}

const AR_SHIP_TYPES: readonly number[] = SHIP_TYPE_RULES.returnReceipt;

/**
 * The return receipt a letter can get, or why it gets none: the service has AR only for the ship
 * types that say so, and the receipt comes back the way `ar_type` asked (scanned paper or digital).
 */
export function returnReceiptOf(order: LetterOrder): { type: RrType } | { refused: string } {
	if (!AR_SHIP_TYPES.includes(order.shipType)) {
		const withAr = AR_SHIP_TYPES.map((type) => SHIP_TYPES.find((s) => s.value === type)?.name).join(', ');
		return {
			refused: `order ${order.id} is a ${shipTypeName(order.shipType)}, which has no return receipt (AR): the service makes one only for ${withAr} (shipType ${AR_SHIP_TYPES.join(', ')}), so it never sends rr.created for this letter`,
		};
	}
	return { type: order.ar_type === 'electronic' ? 'rr_electronic' : 'rr' };
}

/** The control API's view: the read shape plus what the sandbox keeps about the order. */
export function orderDetails(o: Order): Record<string, unknown> {
	if (o.kind === 'letter') {
		return {
			...letterView(o),
			kind: 'letter',
			return_receipt: returnReceiptOf(o),
			paymentMethod: o.paymentMethod,
			team_member_id: o.team_member_id,
			ar_type: o.ar_type,
			virtualbox: o.virtualbox,
			toAddrOnly: o.toAddrOnly,
			duplex_printing: o.duplex_printing,
			envelope_type: o.envelope_type,
			cancel_reason: o.cancel_reason,
		};
	}
	return { ...emailView(o), kind: 'email', body: o.body, cancel_reason: o.cancel_reason };
}

export function letterCreatedData(o: LetterOrder): Record<string, unknown> {
	return {
		id: o.id,
		type: 'letter',
		status: o.status,
		shipType: String(o.shipType),
		numPages: o.numPages,
		value: o.value,
		created_at: o.dateSubmit,
		paymentMethod: o.paymentMethod,
		recipient: addressFields(o.recipient, CREATED_ADDRESS_KEYS, ''),
		sender: addressFields(o.sender, CREATED_ADDRESS_KEYS, '_sender'),
	};
}

export function emailCreatedData(o: EmailOrder): Record<string, unknown> {
	return { ...emailHead(o), created_at: o.created_at, paymentMethod: o.paymentMethod };
}
