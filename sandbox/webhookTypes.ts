// What the webhook side stores and shows: endpoints, deliveries and their attempts, and the spec's retry figures.

/** Retry back-off of the spec, in "minutes" (each `timeScale` milliseconds long). */
export const RETRY_DELAYS_MINUTES = [5, 10, 20];
export const PAUSE_AFTER_FAILURES = 3;
export const STORED_BODY_LIMIT = 10_000;

export interface WebhookEndpoint {
	id: number;
	name: string;
	url: string;
	/** Subscribed events; `*` subscribes to all of them. */
	events: string[];
	secret: string | null;
	paused: boolean;
	consecutiveFailures: number;
	created_at: string;
}

/** Which reading of delivery_id the deliveries follow (the interface gives both). */
export type DeliveryIds = 'delivery' | 'attempt';
export const DELIVERY_ID_READINGS: readonly DeliveryIds[] = ['delivery', 'attempt'];

export interface DeliveryAttempt {
	/** The delivery_id this attempt carried: the delivery's own, or a new one under the `attempt` reading. */
	deliveryId: number;
	at: string;
	status?: number;
	error?: string;
	responseBody: string;
	durationMs: number;
}

export interface Delivery {
	deliveryId: number;
	webhookId: number;
	event: string;
	/** The exact bytes of the first attempt (serialized once; under the `delivery` reading every retry and resend sends these same bytes). */
	body: string;
	/** `body` parsed, for convenience. */
	payload: Record<string, unknown>;
	state: 'pending' | 'retrying' | 'delivered' | 'failed';
	test: boolean;
	attempts: DeliveryAttempt[];
	nextAttemptAt: string | null;
}

export interface AccountNotice {
	at: string;
	subject: string;
	webhookId: number;
}
