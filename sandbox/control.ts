import { TEMPLATE_STATUSES, valuesOf, type TemplateStatus } from '../nodes/PostalService/contract/lists';
import type { RrType } from '../nodes/PostalServiceTrigger/webhookLists';
import { FAULT_KINDS, type Fault, type SandboxCore } from './core';
import {
	addReturnReceipt,
	addTrackingEvent,
	ControlError,
	createEmailOrder,
	findOrder,
	setOrderStatus,
	type EmailOrderInput,
	type TrackingEventInput,
} from './orders';
import { normalizePhone } from './routes/chat';
import { orderDetails } from './views';
import { deliveryMatches, requestMatches, type DeliveryFilter, type RequestFilter } from './filters';
import { sendSampleLetter } from './sample';
import type { ReceivedFilter } from './receiver';
import { chatTemplate } from './state';
import { round2, saoPauloDateTime } from './util';
import { DELIVERY_ID_READINGS, type Delivery, type DeliveryIds } from './webhooks';

export type { DeliveryFilter, RequestFilter } from './filters';

const REDIRECT_STATUSES = [301, 302, 303, 307, 308];

/** The homolog panel's powers, in process. Every method is also served under `/_sandbox/<name>`. */
export type SandboxControl = ReturnType<typeof createControl>;

export function createControl(core: SandboxCore) {
	const deliveries = (filter?: DeliveryFilter): Delivery[] => {
		const all = core.dispatcher.deliveries;
		if (!filter) return structuredClone(all);
		return structuredClone(all.filter(typeof filter === 'function' ? filter : deliveryMatches(filter)));
	};
	/** Normalizes a phone number and adds it, once, to each of the lists given. */
	const addPhone = (phone: string, lists: string[][]): string => {
		const normalized = normalizePhone(String(phone));
		if (!normalized) throw new ControlError(`not a phone number: ${phone}`);
		for (const list of lists) if (!list.includes(normalized)) list.push(normalized);
		core.save();
		return normalized;
	};
	const finite = (n: unknown, what: string): number => {
		const value = Number(n);
		if (!Number.isFinite(value)) throw new ControlError(`${what} must be a number`);
		return value;
	};
	return {
		requests(filter?: RequestFilter) {
			const all = core.requestLog;
			if (!filter) return structuredClone(all);
			return structuredClone(all.filter(typeof filter === 'function' ? filter : requestMatches(filter)));
		},
		clearRequests() {
			core.requestLog = [];
		},
		orders() {
			return core.state.orders.map(orderDetails);
		},
		order(id: string) {
			const order = findOrder(core, id);
			return order ? orderDetails(order) : undefined;
		},
		setOrderStatus(id: string, status: number, options?: Parameters<typeof setOrderStatus>[3]) {
			return setOrderStatus(core, id, status, options);
		},
		addTrackingEvent(id: string, event?: TrackingEventInput) {
			return addTrackingEvent(core, id, event);
		},
		addReturnReceipt(id: string, options: { rrType?: RrType; pdf?: Buffer | Uint8Array; unreadable?: boolean } = {}) {
			return addReturnReceipt(core, id, { ...options, pdf: options.pdf ? Buffer.from(options.pdf) : undefined });
		},
		createEmailOrder(fields: EmailOrderInput) {
			return createEmailOrder(core, fields);
		},
		/** A registered letter with a generated PDF, through the create route (the panel's button). */
		sendSampleLetter() {
			return sendSampleLetter(core);
		},
		balance() {
			return core.state.balance;
		},
		setBalance(balance: number) {
			core.state.balance = round2(finite(balance, 'balance'));
			core.save();
			return core.state.balance;
		},
		topUp(amount: number) {
			core.state.balance = round2(core.state.balance + finite(amount, 'amount'));
			core.save();
			return core.state.balance;
		},
		registerWebhook(input: { url: string; events?: string[]; secret?: string | null; name?: string }) {
			if (!input || typeof input.url !== 'string') throw new ControlError('url is required');
			return structuredClone(core.dispatcher.register(input));
		},
		webhooks() {
			return structuredClone(core.dispatcher.endpoints);
		},
		pauseWebhook(id: number) {
			core.dispatcher.pause(id);
			return structuredClone(core.dispatcher.endpoint(id));
		},
		resumeWebhook(id: number) {
			core.dispatcher.resume(id);
			return structuredClone(core.dispatcher.endpoint(id));
		},
		removeWebhook(id: number) {
			core.dispatcher.remove(id);
		},
		sendTestEvent(id: number) {
			return structuredClone(core.dispatcher.sendTest(id));
		},
		deliveries,
		async waitForDeliveries(predicate: (deliveries: Delivery[]) => boolean, timeoutMs = 5_000) {
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
		async resendDelivery(deliveryId: number) {
			return structuredClone(await core.dispatcher.resend(deliveryId));
		},
		notices() {
			return structuredClone(core.dispatcher.notices);
		},
		/** Whether a retry or a resend keeps its delivery_id (`delivery`) or carries a new one (`attempt`). */
		setDeliveryIds(reading: DeliveryIds) {
			if (!DELIVERY_ID_READINGS.includes(reading)) throw new ControlError(`reading must be ${DELIVERY_ID_READINGS.join(' or ')}`);
			core.settings.deliveryIds = reading;
		},
		setMaintenance(on: boolean) {
			core.maintenance = !!on;
		},
		setLatency(ms: number) {
			core.latencyMs = Math.max(0, finite(ms, 'ms'));
		},
		injectFault(fault: Pick<Fault, 'path' | 'kind'> & Partial<Fault>) {
			if (!fault || typeof fault.path !== 'string') throw new ControlError('path is required');
			if (!(FAULT_KINDS as readonly string[]).includes(String(fault.kind))) {
				throw new ControlError(`kind must be one of ${FAULT_KINDS.join(', ')}`);
			}
			const kind = String(fault.kind) as Fault['kind'];
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
				count: Number(fault.count ?? 1),
				skip: Math.max(0, Number(fault.skip ?? 0) || 0),
				delayMs: Number(fault.delayMs ?? (kind === 'trickle' ? 400 : 1_000)),
				location: fault.location,
				status: kind === 'redirect' ? Number(fault.status ?? 307) : undefined,
			};
			core.faults.push(entry);
		},
		/** A number on the chat app, allow-listed in the test environment (as the panel's "add recipient"). */
		addChatNumber(phone: string) {
			return addPhone(phone, [core.state.chatNumbers, core.state.chatAllowList]);
		},
		/** Allow-lists a chat recipient in the test environment without anything else. */
		addChatRecipient(phone: string) {
			return addPhone(phone, [core.state.chatAllowList]);
		},
		chatMessages() {
			return structuredClone(core.state.chatMessages);
		},
		setChatMessageStatus(messageId: number, status: string | number) {
			const message = core.state.chatMessages.find((m) => m.message_id === Number(messageId));
			if (!message) throw new ControlError(`no chat message ${messageId}`);
			message.status = String(status);
			core.save();
			return structuredClone(message);
		},
		templates() {
			return structuredClone(core.state.templates);
		},
		/** A template synced after the seeded ones (so listed after them), with the next id. */
		addTemplate(input: { senderId: number; name: string; status?: TemplateStatus; body?: string; variableNames?: string[] }) {
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
			return structuredClone(template);
		},
		senders() {
			return structuredClone(core.state.senders);
		},
		favorites() {
			return structuredClone(core.state.favorites);
		},
		addEmailRecipient(addressOrDomain: string) {
			const entry = String(addressOrDomain).trim().toLowerCase();
			if (!entry) throw new ControlError('an address or @domain is required');
			if (!core.state.emailAllowList.includes(entry)) core.state.emailAllowList.push(entry);
			core.save();
			return [...core.state.emailAllowList];
		},
		setClientContract(on: boolean) {
			core.state.clientContract = !!on;
			core.save();
		},
		/** What arrived at the receiver (`<base>/_receiver/...`), the stand-in of the user's own systems. */
		received(filter?: ReceivedFilter) {
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
