import type { SandboxControl } from './control';
import { deliveryMatches } from './filters';
import type { Delivery } from './webhooks';

/** A flag given as JSON or as text: the panel sends `"false"`, which must not read as on. */
const flag = (value: unknown) => value === true || value === 'true' || value === '1';

/**
 * The methods whose arguments are not the body itself: the body's members named here, in order, or
 * what the function makes of it. Every other method takes the body (a filter, the fields of what it
 * creates) as its one argument, or nothing.
 */
const ARGUMENTS: Partial<Record<keyof SandboxControl, string[] | ((input: Record<string, unknown>) => unknown[])>> = {
	order: ['id'],
	setOrderStatus: (i) => [i.id, i.status, i],
	addTrackingEvent: (i) => {
		const { id, event, ...rest } = i;
		const fields = (event as Record<string, unknown> | undefined) ?? rest;
		return [id, Object.keys(fields).length > 0 ? fields : undefined];
	},
	addReturnReceipt: (i) => [
		i.id,
		{ rrType: i.rrType, unreadable: flag(i.unreadable), pdf: typeof i.pdfBase64 === 'string' ? Buffer.from(i.pdfBase64, 'base64') : undefined },
	],
	setBalance: ['balance'],
	topUp: ['amount'],
	pauseWebhook: ['id'],
	resumeWebhook: ['id'],
	removeWebhook: ['id'],
	sendTestEvent: ['id'],
	waitForDeliveries: (i) => {
		const count = Number(i.count ?? 1);
		const matches = deliveryMatches({ event: i.event as string, webhookId: i.webhookId as number, state: i.state as Delivery['state'] });
		return [(all: Delivery[]) => all.filter(matches).length >= count, Number(i.timeoutMs ?? 5_000)];
	},
	resendDelivery: ['deliveryId'],
	setDeliveryIds: ['reading'],
	setMaintenance: (i) => [flag(i.on)],
	setLatency: ['ms'],
	addChatNumber: ['phone'],
	addChatRecipient: ['phone'],
	setChatMessageStatus: ['messageId', 'status'],
	addEmailRecipient: ['email'],
	setClientContract: (i) => [flag(i.on)],
};

/**
 * How `/_sandbox/<name>` maps a JSON body (or the query string of a GET) onto the method's
 * arguments. A body `{ "args": [...] }` is passed through as the argument list for any method.
 */
export function httpArguments(method: keyof SandboxControl, input: Record<string, unknown>): unknown[] {
	if (Array.isArray(input.args)) return input.args;
	const mapping = ARGUMENTS[method];
	if (mapping === undefined) return [input];
	return typeof mapping === 'function' ? mapping(input) : mapping.map((name) => input[name]);
}
