import { TEMPLATE_STATUSES, valuesOf, type TemplateStatus } from '../nodes/PostalService/contract/lists';
import type { RrType } from '../nodes/PostalServiceTrigger/webhookLists';
import type { Fault, FaultKind, LoggedRequest, SandboxCore } from './core';
import {
	addReturnReceipt,
	addTrackingEvent,
	ControlError,
	createEmailOrder,
	findOrder,
	orderDetails,
	setOrderStatus,
	type EmailOrderInput,
	type TrackingEventInput,
} from './orders';
import { normalizePhone } from './routes/chat';
import { sendSampleLetter } from './sampleLetter';
import type { Received, ReceivedFilter } from './receiver';
import { chatTemplate, type ChatMessage, type ChatSender, type ChatTemplate, type Favorite } from './state';
import { round2, saoPauloDateTime } from './util';
import { DELIVERY_ID_READINGS, type AccountNotice, type Delivery, type DeliveryIds, type WebhookEndpoint } from './webhooks';

export type RequestFilter =
	| { method?: string; path?: string | RegExp; status?: number }
	| ((request: LoggedRequest) => boolean);

export type DeliveryFilter =
	| { webhookId?: number; event?: string; state?: Delivery['state']; deliveryId?: number }
	| ((delivery: Delivery) => boolean);

/** The homolog panel's powers, in process. Every method is also served under `/_sandbox/<name>`. */
export interface SandboxControl {
	requests(filter?: RequestFilter): LoggedRequest[];
	clearRequests(): void;
	orders(): Array<Record<string, unknown>>;
	order(id: string): Record<string, unknown> | undefined;
	setOrderStatus(id: string, status: number, options?: { statusDelivery?: string; opened?: boolean; reason?: string }): Record<string, unknown>;
	addTrackingEvent(id: string, event?: TrackingEventInput): Record<string, unknown>;
	addReturnReceipt(
		id: string,
		options?: { rrType?: RrType; pdf?: Buffer | Uint8Array; unreadable?: boolean },
	): Record<string, unknown>;
	createEmailOrder(fields: EmailOrderInput): Record<string, unknown>;
	/** A registered letter with a generated PDF, through the create route (the panel's button). */
	sendSampleLetter(): Promise<Record<string, unknown>>;
	balance(): number;
	setBalance(balance: number): number;
	topUp(amount: number): number;
	registerWebhook(input: { url: string; events?: string[]; secret?: string | null; name?: string }): WebhookEndpoint;
	webhooks(): WebhookEndpoint[];
	pauseWebhook(id: number): WebhookEndpoint;
	resumeWebhook(id: number): WebhookEndpoint;
	removeWebhook(id: number): void;
	sendTestEvent(id: number): Delivery;
	deliveries(filter?: DeliveryFilter): Delivery[];
	waitForDeliveries(predicate: (deliveries: Delivery[]) => boolean, timeoutMs?: number): Promise<Delivery[]>;
	resendDelivery(deliveryId: number): Promise<Delivery>;
	notices(): AccountNotice[];
	/** Whether a retry or a resend keeps its delivery_id (`delivery`) or carries a new one (`attempt`). */
	setDeliveryIds(reading: DeliveryIds): void;
	setMaintenance(on: boolean): void;
	setLatency(ms: number): void;
	injectFault(fault: {
		method?: string;
		path: string;
		kind: FaultKind;
		count?: number;
		skip?: number;
		delayMs?: number;
		location?: string;
		status?: number;
	}): void;
	/** A number on the chat app, allow-listed in the test environment (as the panel's "add recipient"). */
	addChatNumber(phone: string): string;
	/** Allow-lists a chat recipient in the test environment without anything else. */
	addChatRecipient(phone: string): string;
	chatMessages(): ChatMessage[];
	setChatMessageStatus(messageId: number, status: string | number): ChatMessage;
	templates(): ChatTemplate[];
	/** A template synced after the seeded ones (so listed after them), with the next id. */
	addTemplate(input: { senderId: number; name: string; status?: TemplateStatus; body?: string; variableNames?: string[] }): ChatTemplate;
	senders(): ChatSender[];
	favorites(): Favorite[];
	addEmailRecipient(addressOrDomain: string): string[];
	setClientContract(on: boolean): void;
	/** What arrived at the receiver (`<base>/_receiver/...`), the stand-in of the user's own systems. */
	received(filter?: ReceivedFilter): Received[];
	clearReceived(): void;
	reset(): void;
}

const FAULT_KINDS: FaultKind[] = ['500', '503', '429', 'drop', 'dropAfterAccept', 'slow', 'trickle', 'redirect', 'html', 'empty'];
const REDIRECT_STATUSES = [301, 302, 303, 307, 308];

function copy<T>(value: T): T {
	return structuredClone(value);
}

export function createControl(core: SandboxCore): SandboxControl {
	const deliveries = (filter?: DeliveryFilter): Delivery[] => {
		const all = core.dispatcher.deliveries;
		if (!filter) return copy(all);
		if (typeof filter === 'function') return copy(all.filter(filter));
		return copy(
			all.filter(
				(d) =>
					(filter.webhookId === undefined || d.webhookId === Number(filter.webhookId)) &&
					(filter.event === undefined || d.event === filter.event) &&
					(filter.state === undefined || d.state === filter.state) &&
					(filter.deliveryId === undefined || d.deliveryId === Number(filter.deliveryId)),
			),
		);
	};
	const finite = (n: unknown, what: string): number => {
		const value = Number(n);
		if (!Number.isFinite(value)) throw new ControlError(`${what} must be a number`);
		return value;
	};
	return {
		requests(filter) {
			const all = core.requestLog;
			if (!filter) return copy(all);
			if (typeof filter === 'function') return copy(all.filter(filter));
			return copy(
				all.filter(
					(r) =>
						(!filter.method || r.method === filter.method.toUpperCase()) &&
						(filter.status === undefined || r.status === Number(filter.status)) &&
						(filter.path === undefined ||
							(typeof filter.path === 'string' ? r.path.startsWith(filter.path) : filter.path.test(r.path))),
				),
			);
		},
		clearRequests() {
			core.requestLog = [];
		},
		orders() {
			return core.state.orders.map(orderDetails);
		},
		order(id) {
			const order = findOrder(core, id);
			return order ? orderDetails(order) : undefined;
		},
		setOrderStatus(id, status, options) {
			return setOrderStatus(core, id, status, options);
		},
		addTrackingEvent(id, event) {
			return addTrackingEvent(core, id, event);
		},
		addReturnReceipt(id, options = {}) {
			return addReturnReceipt(core, id, { ...options, pdf: options.pdf ? Buffer.from(options.pdf) : undefined });
		},
		createEmailOrder(fields) {
			return createEmailOrder(core, fields);
		},
		sendSampleLetter() {
			return sendSampleLetter(core);
		},
		balance() {
			return core.state.balance;
		},
		setBalance(balance) {
			core.state.balance = round2(finite(balance, 'balance'));
			core.save();
			return core.state.balance;
		},
		topUp(amount) {
			core.state.balance = round2(core.state.balance + finite(amount, 'amount'));
			core.save();
			return core.state.balance;
		},
		registerWebhook(input) {
			if (!input || typeof input.url !== 'string') throw new ControlError('url is required');
			return copy(core.dispatcher.register(input));
		},
		webhooks() {
			return copy(core.dispatcher.endpoints);
		},
		pauseWebhook(id) {
			core.dispatcher.pause(id);
			return copy(core.dispatcher.endpoint(id));
		},
		resumeWebhook(id) {
			core.dispatcher.resume(id);
			return copy(core.dispatcher.endpoint(id));
		},
		removeWebhook(id) {
			core.dispatcher.remove(id);
		},
		sendTestEvent(id) {
			return copy(core.dispatcher.sendTest(id));
		},
		deliveries,
		async waitForDeliveries(predicate, timeoutMs = 5_000) {
			const deadline = Date.now() + timeoutMs;
			for (;;) {
				const current = deliveries();
				if (predicate(current)) return current;
				if (Date.now() > deadline) {
					throw new ControlError(`waitForDeliveries: condition not met within ${timeoutMs} ms`);
				}
				await core.sleep(10);
			}
		},
		async resendDelivery(deliveryId) {
			return copy(await core.dispatcher.resend(deliveryId));
		},
		notices() {
			return copy(core.dispatcher.notices);
		},
		setDeliveryIds(reading) {
			if (!DELIVERY_ID_READINGS.includes(reading)) throw new ControlError(`reading must be ${DELIVERY_ID_READINGS.join(' or ')}`);
			core.settings.deliveryIds = reading;
		},
		setMaintenance(on) {
			core.maintenance = !!on;
		},
		setLatency(ms) {
			core.latencyMs = Math.max(0, finite(ms, 'ms'));
		},
		injectFault(fault) {
			if (!fault || typeof fault.path !== 'string') throw new ControlError('path is required');
			if (!FAULT_KINDS.includes(String(fault.kind) as FaultKind)) {
				throw new ControlError(`kind must be one of ${FAULT_KINDS.join(', ')}`);
			}
			const kind = String(fault.kind) as FaultKind;
			if (kind === 'redirect') {
				if (typeof fault.location !== 'string' || !fault.location) throw new ControlError('a redirect needs a location');
				if (fault.status !== undefined && !REDIRECT_STATUSES.includes(Number(fault.status))) {
					throw new ControlError(`a redirect status is one of ${REDIRECT_STATUSES.join(', ')}`);
				}
			}
			const entry: Fault = {
				method: fault.method?.toUpperCase(),
				path: fault.path,
				kind,
				count: fault.count ?? 1,
				skip: Math.max(0, Number(fault.skip ?? 0) || 0),
				delayMs: fault.delayMs ?? (kind === 'trickle' ? 400 : 1_000),
				location: fault.location,
				status: kind === 'redirect' ? Number(fault.status ?? 307) : undefined,
			};
			core.faults.push(entry);
		},
		addChatNumber(phone) {
			const normalized = normalizePhone(String(phone));
			if (!normalized) throw new ControlError(`not a phone number: ${phone}`);
			if (!core.state.chatNumbers.includes(normalized)) core.state.chatNumbers.push(normalized);
			if (!core.state.chatAllowList.includes(normalized)) core.state.chatAllowList.push(normalized);
			core.save();
			return normalized;
		},
		addChatRecipient(phone) {
			const normalized = normalizePhone(String(phone));
			if (!normalized) throw new ControlError(`not a phone number: ${phone}`);
			if (!core.state.chatAllowList.includes(normalized)) core.state.chatAllowList.push(normalized);
			core.save();
			return normalized;
		},
		chatMessages() {
			return copy(core.state.chatMessages);
		},
		setChatMessageStatus(messageId, status) {
			const message = core.state.chatMessages.find((m) => m.message_id === Number(messageId));
			if (!message) throw new ControlError(`no chat message ${messageId}`);
			message.status = String(status);
			core.save();
			return copy(message);
		},
		templates() {
			return copy(core.state.templates);
		},
		addTemplate(input) {
			const sender = core.state.senders.find((s) => s.id === Number(input?.senderId));
			if (!sender) throw new ControlError(`no sender ${input?.senderId}`);
			if (!input.name || !/^[a-z0-9_]+$/.test(input.name)) throw new ControlError('name is required: lower case, digits and _');
			const status = input.status ?? 'approved';
			if (!valuesOf(TEMPLATE_STATUSES).includes(status)) throw new ControlError(`status must be one of ${valuesOf(TEMPLATE_STATUSES).join(', ')}`);
			const variableNames = (input.variableNames ?? []).map(String);
			const body = input.body ?? variableNames.map((_, i) => `{{${i + 1}}}`).join(' ');
			const id = Math.max(0, ...core.state.templates.map((t) => t.id)) + 1;
			const template = chatTemplate({ id, sender, name: input.name, status, body, variableNames, syncedAt: saoPauloDateTime() });
			core.state.templates.push(template);
			core.save();
			return copy(template);
		},
		senders() {
			return copy(core.state.senders);
		},
		favorites() {
			return copy(core.state.favorites);
		},
		addEmailRecipient(addressOrDomain) {
			const entry = String(addressOrDomain).trim().toLowerCase();
			if (!entry) throw new ControlError('an address or @domain is required');
			if (!core.state.emailAllowList.includes(entry)) core.state.emailAllowList.push(entry);
			core.save();
			return [...core.state.emailAllowList];
		},
		setClientContract(on) {
			core.state.clientContract = !!on;
			core.save();
		},
		received(filter) {
			return core.receiver.list(filter);
		},
		clearReceived() {
			core.receiver.clear();
		},
		reset() {
			core.reset();
		},
	};
}

/**
 * How `/_sandbox/<name>` maps a JSON body (or the query string of a GET) onto the method's
 * arguments. A body `{ "args": [...] }` is passed through as the argument list for any method.
 */
export const HTTP_ARGUMENTS: Record<keyof SandboxControl, (input: Record<string, unknown>) => unknown[]> = {
	requests: (i) => [{ method: i.method, path: i.path, status: i.status }],
	clearRequests: () => [],
	orders: () => [],
	order: (i) => [String(i.id)],
	setOrderStatus: (i) => [
		String(i.id),
		Number(i.status),
		{ statusDelivery: i.statusDelivery, opened: i.opened, reason: i.reason } as Record<string, unknown>,
	],
	addTrackingEvent: (i) => {
		const { id, event, ...rest } = i;
		const fields = (event as Record<string, unknown> | undefined) ?? rest;
		return [String(id), Object.keys(fields).length > 0 ? fields : undefined];
	},
	addReturnReceipt: (i) => [
		String(i.id),
		{
			rrType: i.rrType,
			unreadable: i.unreadable === true || i.unreadable === 'true',
			pdf: typeof i.pdfBase64 === 'string' ? Buffer.from(i.pdfBase64, 'base64') : undefined,
		},
	],
	createEmailOrder: (i) => [i],
	sendSampleLetter: () => [],
	balance: () => [],
	setBalance: (i) => [Number(i.balance)],
	topUp: (i) => [Number(i.amount)],
	registerWebhook: (i) => [i],
	webhooks: () => [],
	pauseWebhook: (i) => [Number(i.id)],
	resumeWebhook: (i) => [Number(i.id)],
	removeWebhook: (i) => [Number(i.id)],
	sendTestEvent: (i) => [Number(i.id)],
	deliveries: (i) => [
		{
			webhookId: i.webhookId === undefined ? undefined : Number(i.webhookId),
			event: i.event,
			state: i.state,
			deliveryId: i.deliveryId === undefined ? undefined : Number(i.deliveryId),
		},
	],
	waitForDeliveries: (i) => {
		const count = Number(i.count ?? 1);
		const matches = (d: Delivery) =>
			(i.event === undefined || d.event === i.event) &&
			(i.webhookId === undefined || d.webhookId === Number(i.webhookId)) &&
			(i.state === undefined || d.state === i.state);
		return [(all: Delivery[]) => all.filter(matches).length >= count, Number(i.timeoutMs ?? 5_000)];
	},
	resendDelivery: (i) => [Number(i.deliveryId)],
	notices: () => [],
	setDeliveryIds: (i) => [String(i.reading) as DeliveryIds],
	setMaintenance: (i) => [i.on === true || i.on === 'true' || i.on === '1'],
	setLatency: (i) => [Number(i.ms)],
	injectFault: (i) => [
		{
			method: i.method,
			path: i.path,
			kind: i.kind,
			count: i.count === undefined ? undefined : Number(i.count),
			skip: i.skip === undefined ? undefined : Number(i.skip),
			delayMs: i.delayMs === undefined ? undefined : Number(i.delayMs),
			location: i.location === undefined ? undefined : String(i.location),
			status: i.status === undefined ? undefined : Number(i.status),
		},
	],
	addChatNumber: (i) => [String(i.phone)],
	addChatRecipient: (i) => [String(i.phone)],
	chatMessages: () => [],
	setChatMessageStatus: (i) => [Number(i.messageId), i.status as string | number],
	templates: () => [],
	addTemplate: (i) => [i],
	senders: () => [],
	favorites: () => [],
	addEmailRecipient: (i) => [String(i.email)],
	setClientContract: (i) => [i.on === true || i.on === 'true' || i.on === '1'],
	received: (i) => [{ method: i.method === undefined ? undefined : String(i.method), path: i.path === undefined ? undefined : String(i.path) }],
	clearReceived: () => [],
	reset: () => [],
};
