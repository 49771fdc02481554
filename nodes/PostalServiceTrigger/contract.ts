/**
 * What the service's webhooks are made of, as its interface lists them (Events, States and
 * transitions). The trigger's options, the sandbox's dispatcher, the README's tables and the tests
 * read these lists from here: an event or a value is added in this file only.
 */

export const WEBHOOK_EVENTS = [
	{
		value: 'order.created',
		name: 'Order Created',
		description: 'A letter or registered e-mail order is created',
	},
	{
		value: 'order.status_updated',
		name: 'Order Status Updated',
		description: 'An order changes status',
	},
	{
		value: 'tracking.updated',
		name: 'Tracking Updated',
		description: 'A tracking code is assigned, or the postal operator reports new events',
	},
	{
		value: 'rr.created',
		name: 'Return Receipt Created',
		description: 'A return receipt is available; the file comes as binary data',
	},
	{
		value: 'webhook.test',
		name: 'Test Event',
		description: 'Sent only when the test button is pressed in the panel',
	},
] as const;

export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number]['value'];

/** The event names, in the order the service's interface lists them. */
export const WEBHOOK_EVENT_NAMES: readonly WebhookEvent[] = WEBHOOK_EVENTS.map((event) => event.value);

/** Production and the test environment: separate platforms, each with its own database and ids. */
export const ENVIRONMENTS = [
	{ value: 'production', name: 'Production' },
	{ value: 'homolog', name: 'Test Environment (Homolog)' },
] as const;

export type Environment = (typeof ENVIRONMENTS)[number]['value'];

export const ENVIRONMENT_NAMES: readonly Environment[] = ENVIRONMENTS.map((environment) => environment.value);

/** `rr_type` of rr.created: a scanned physical receipt, or one returned digitally. */
export const RR_TYPES = ['rr', 'rr_electronic'] as const;

export type RrType = (typeof RR_TYPES)[number];

/** `status_delivery` of a letter, carried by tracking.updated. */
export const DELIVERY_STATUSES = ['', 'delivered', 'going_back_to_sender', 'delivered_to_sender'] as const;

/**
 * Where the interface is silent about webhooks, what the trigger takes it to mean, and how the
 * trigger (or its user) stays right if the guess is wrong. The README lists these.
 */
export const TRIGGER_ASSUMPTIONS = [
	{
		guess: 'X-Webhook-Timestamp is São Paulo wall-clock time, like the body\'s "timestamp"',
		why: 'The interface gives a time zone for the body\'s "timestamp" only.',
		wayAround:
			'Maximum Age accepts the header read as São Paulo time or as UTC, and each item says which reading matched in "timestampHeaderZone". Leave Maximum Age unset to ignore the header.',
	},
	{
		guess: 'A retry carries the delivery_id of the attempt it repeats',
		why: 'The envelope calls delivery_id the "unique id of this delivery attempt", and also the key to deduplicate on.',
		wayAround:
			'The trigger also drops a delivery whose body, delivery_id aside, already ran: a retry repeats the event\'s timestamp (when it was generated) and its data, and two events differ in one of them. The option "Drop Repeats Under a New Delivery ID" is on by default.',
	},
	{
		guess: 'The signed body carries "environment"',
		why: 'The envelope lists it; the X-Webhook-Environment header carries it too, but headers are not signed.',
		wayAround:
			'A body without it is of unknown environment: only a workflow whose Environment is Both takes it, and it is remembered apart from both environments. The header is never used to take or drop a delivery.',
	},
] as const;
