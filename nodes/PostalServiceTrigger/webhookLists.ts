/** The webhooks' lists as the interface gives them, defined here only: the trigger, the sandbox, the guides and the tests read them. */

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
