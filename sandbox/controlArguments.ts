import type { DeliveryIds, Delivery } from './webhooks';
import type { SandboxControl } from './control';
import { deliveryMatches } from './filters';

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
		const matches = deliveryMatches({ event: i.event as string, webhookId: i.webhookId as number, state: i.state as Delivery['state'] });
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
