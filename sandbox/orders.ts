import { DELIVERY_STATUSES, RR_TYPES, type RrType } from '../nodes/PostalServiceTrigger/webhookLists';
import type { SandboxCore } from './core';
import { textPdf } from './pdf';
import type { EmailOrder, LetterOrder, Order, StoredFile, TrackingEvent } from './state';
import { saoPauloDateTime } from './util';
import { EMAIL_STATUS_TEXT, emailCreatedData, LETTER_STATUS_TEXT, letterCreatedData, orderDetails, returnReceiptOf, trackingRecords } from './views';

// The sandbox's state transitions: an order is created, moves through its statuses, gets tracking and receipts.

/** Price of a registered e-mail in the sandbox's own table. */
export const EMAIL_PRICE = 4.9;

export class ControlError extends Error {}

export function findOrder(core: SandboxCore, id: string): Order | undefined {
	return core.state.orders.find((o) => o.id === String(id));
}

export function requireOrder(core: SandboxCore, id: string): Order {
	const order = findOrder(core, id);
	if (!order) throw new ControlError(`no order ${id}`);
	return order;
}

function requireLetter(core: SandboxCore, id: string): LetterOrder {
	const order = requireOrder(core, id);
	if (order.kind !== 'letter') throw new ControlError(`order ${id} is a registered e-mail, not a letter`);
	return order;
}


/** Adds a generated PDF of a type the order does not have yet (each exists once). */
function addFileOnce(order: Order, type: StoredFile['type'], suffix: string, title: string, lines: string[]): void {
	if (order.files.some((f) => f.type === type)) return;
	const pdf = textPdf(title, [`Pedido ${order.id}`, ...lines]);
	const name = `${order.id}-${suffix}.pdf`;
	order.files.push({ name, type, created_at: saoPauloDateTime(), mimeType: 'application/pdf', base64: pdf.toString('base64') });
}

/** Files that exist from a status on: the printed front and the telegram's sender copy. */
function addStatusFiles(order: Order): void {
	if (order.kind === 'email') {
		if (order.status !== 3) return;
		addFileOnce(order, 'pdf', 'certificado', 'Certificado de envio', [
			`Para: ${order.recipient.name} <${order.recipient.email}>`,
			`Assunto: ${order.subject}`,
		]);
		return;
	}
	if (![1, 3, 4, 6].includes(order.status)) return;
	addFileOnce(order, 'letter_front', 'frente', 'Frente da carta', [
		`${order.recipient.name}`,
		`${order.recipient.addr1}, ${order.recipient.street_number}`,
		`${order.recipient.zip} ${order.recipient.city}/${order.recipient.state}`,
	]);
	if (order.shipType === 4 && order.telegram_info.sender_copy === 1) {
		addFileOnce(order, 'sender_copy', 'copia-remetente', 'Cópia do telegrama', [String(order.telegram_info.message ?? '')]);
	}
}

/** A status_delivery of the interface's list, or the refusal that names the list. */
function deliveryStatus(value: string): string {
	if ((DELIVERY_STATUSES as readonly string[]).includes(value)) return value;
	throw new ControlError(`statusDelivery must be one of ${DELIVERY_STATUSES.map((v) => `'${v}'`).join(', ')}`);
}

export function storeLetter(core: SandboxCore, order: LetterOrder): void {
	core.state.orders.push(order);
	core.dispatcher.emit('order.created', letterCreatedData(order));
	core.save();
}

export function setOrderStatus(
	core: SandboxCore,
	id: string,
	status: number,
	options: { statusDelivery?: string; opened?: boolean; reason?: string } = {},
): Record<string, unknown> {
	const order = requireOrder(core, id);
	const table = order.kind === 'letter' ? LETTER_STATUS_TEXT : EMAIL_STATUS_TEXT;
	if (!Number.isInteger(Number(status)) || table[Number(status)] === undefined) {
		throw new ControlError(`status ${status} does not exist for a ${order.kind} order`);
	}
	// Checked before anything moves, so a refusal leaves the order as it was.
	const statusDelivery = order.kind === 'letter' && options.statusDelivery !== undefined ? deliveryStatus(options.statusDelivery) : undefined;
	const next = Number(status);
	const old = order.status;
	const now = saoPauloDateTime();
	order.status = next;
	order.dateLastChange = now;
	if (order.kind === 'letter' && statusDelivery !== undefined) order.status_delivery = statusDelivery;
	if (order.kind === 'email') {
		if (options.opened && !order.opened) {
			order.opened = true;
			order.date_opened = now;
		}
		if (next === 5 && options.reason) order.failure_reason = options.reason;
	}
	addStatusFiles(order);
	if (old !== next) emitStatusUpdated(core, order, old);
	core.save();
	return orderDetails(order);
}

export function emitStatusUpdated(core: SandboxCore, order: Order, old: number): void {
	const base = { id: order.id, type: order.kind, status: { old, new: order.status }, updated_at: order.dateLastChange };
	const data =
		order.kind === 'letter'
			? { ...base, tracking: order.tracking, files: order.files.map((f) => ({ type: f.type, created_at: f.created_at })) }
			: { ...base, opened: order.opened, date_opened: order.date_opened };
	core.dispatcher.emit('order.status_updated', data);
}

/** The postal operator's events of a letter, in the order they come; the panel offers each by name. */
export const TRACKING_STORY: Array<{ codigo: string; descricao: string; statusDelivery?: string; atRecipient?: boolean }> = [
	{ codigo: 'PO', descricao: 'Objeto postado' },
	{ codigo: 'RO', descricao: 'Objeto em transferência - por favor aguarde' },
	{ codigo: 'OEC', descricao: 'Objeto saiu para entrega ao destinatário', atRecipient: true },
	{ codigo: 'BDE', descricao: 'Objeto entregue ao destinatário', statusDelivery: 'delivered', atRecipient: true },
];

/** A postal event given in full (each field optional); without any, the next event of the story. */
export type TrackingEventInput = Partial<Record<'codigo' | 'descricao' | 'cidade' | 'uf' | 'dtHrCriado' | 'statusDelivery', string>>;

export function addTrackingEvent(core: SandboxCore, id: string, input?: TrackingEventInput): Record<string, unknown> {
	const order = requireLetter(core, id);
	const now = saoPauloDateTime();
	const emitTracking = (detail: string) =>
		core.dispatcher.emit(
			'tracking.updated',
			{
				id: order.id,
				type: 'letter',
				tracking_code: order.tracking,
				tracking_records: trackingRecords(order),
				status_delivery: order.status_delivery,
				updated_at: now,
			},
			{ event_detail_type: detail },
		);
	const explicit = input !== undefined && Object.keys(input).length > 0;
	if (!order.tracking) {
		order.tracking = `${order.shipType === 6 || order.shipType === 7 ? 'SX' : 'JT'}${order.id.padStart(9, '0').slice(-9)}BR`;
		order.tracking_records_last_update = now;
		order.dateLastChange = now;
		emitTracking('new_tracking_code');
		if (!explicit) {
			core.save();
			return orderDetails(order);
		}
	}
	const step = TRACKING_STORY[Math.min(order.tracking_step, TRACKING_STORY.length - 1)];
	const place = step.atRecipient ? order.recipient : order.sender;
	const event: TrackingEvent = {
		codigo: input?.codigo ?? step.codigo,
		dtHrCriado: input?.dtHrCriado ?? new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
		descricao: input?.descricao ?? step.descricao,
		unidade: { endereco: { cidade: input?.cidade ?? place.city, uf: input?.uf ?? place.state } },
	};
	if (!explicit) order.tracking_step++;
	const statusDelivery = input?.statusDelivery ?? (explicit ? undefined : step.statusDelivery);
	if (statusDelivery !== undefined) order.status_delivery = deliveryStatus(statusDelivery);
	order.tracking_events.push(event);
	order.tracking_records_last_update = now;
	order.dateLastChange = now;
	emitTracking('new_tracking_record');
	core.save();
	return orderDetails(order);
}

export function addReturnReceipt(
	core: SandboxCore,
	id: string,
	options: { rrType?: RrType; pdf?: Buffer; unreadable?: boolean } = {},
): Record<string, unknown> {
	const order = requireLetter(core, id);
	const receipt = returnReceiptOf(order);
	if ('refused' in receipt) throw new ControlError(receipt.refused);
	const rrType = options.rrType ?? receipt.type;
	if (!RR_TYPES.includes(rrType)) throw new ControlError(`rrType must be ${RR_TYPES.join(' or ')}`);
	if (rrType !== receipt.type) {
		throw new ControlError(
			`order ${order.id} was sent with ar_type ${order.ar_type}: its return receipt comes back as ${receipt.type}, never as ${rrType}`,
		);
	}
	const now = saoPauloDateTime();
	order.rr_count++;
	const name = `${order.id}-${rrType}-${order.rr_count}.pdf`;
	let file: { name: string; base64: string } | null = null;
	if (!options.unreadable) {
		const pdf =
			options.pdf ??
			textPdf('Aviso de recebimento', [
				`Pedido ${order.id}`,
				`Objeto ${order.tracking || '(sem rastreio)'}`,
				`Recebido por ${order.recipient.name} em ${now}`,
			]);
		const base64 = Buffer.from(pdf).toString('base64');
		order.files.push({ name, type: rrType, created_at: now, mimeType: 'application/pdf', base64 });
		file = { name, base64 };
	}
	order.dateLastChange = now;
	core.dispatcher.emit('rr.created', {
		id: order.id,
		type: 'letter',
		rr_type: rrType,
		tracking_code: order.tracking,
		file,
	});
	core.save();
	return orderDetails(order);
}

function isAllowListed(core: SandboxCore, email: string): boolean {
	const address = email.trim().toLowerCase();
	return core.state.emailAllowList.some((entry) => {
		const allowed = entry.trim().toLowerCase();
		return allowed.startsWith('@') ? address.endsWith(allowed) : address === allowed;
	});
}

/** The recipient's address, and any of the other fields a registered e-mail takes. */
export type EmailOrderInput = { email: string } & Partial<
	Record<'name' | 'subject' | 'body' | 'name_sender' | 'email_sender' | 'email_replyTo' | 'paymentMethod', string>
>;

/**
 * Creates a registered e-mail order. The route is not shown by the spec, so only the control API
 * creates them; reading, cancelling and downloading go through the letter routes.
 */
export function createEmailOrder(core: SandboxCore, input: EmailOrderInput): Record<string, unknown> {
	if (!input || typeof input.email !== 'string' || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(input.email)) {
		throw new ControlError('email (the recipient address) is required and must be an e-mail address');
	}
	const now = saoPauloDateTime();
	const paymentMethod = input.paymentMethod ?? 'credits';
	const order: EmailOrder = {
		kind: 'email',
		id: `E${core.state.nextEmailId++}`,
		status: 1,
		recipient: { name: input.name ?? '', email: input.email },
		sender: {
			name_sender: input.name_sender ?? 'Conta Demonstração',
			email_sender: input.email_sender ?? core.settings.email,
			email_replyTo: input.email_replyTo ?? core.settings.email,
		},
		subject: input.subject ?? '(sem assunto)',
		body: input.body ?? '',
		value: EMAIL_PRICE,
		paymentMethod,
		created_at: now,
		dateLastChange: now,
		opened: false,
		date_opened: '',
		failure_reason: '',
		files: [],
		cancel_reason: '',
	};
	if (core.settings.environment === 'homolog' && !isAllowListed(core, input.email)) {
		order.status = 5;
		order.failure_reason = `Destinatário ${input.email} não está na lista de permissões do ambiente de testes`;
	} else if (paymentMethod === 'credits' || paymentMethod === 'service_credits') {
		if (core.state.balance >= order.value) {
			core.state.balance = Math.round((core.state.balance - order.value) * 100) / 100;
		} else {
			order.status = 2;
		}
	}
	core.state.orders.push(order);
	core.dispatcher.emit('order.created', emailCreatedData(order));
	core.save();
	return orderDetails(order);
}
