/**
 * Whether a delivery may be read at all: its signature over the raw bytes, and (when asked) the
 * age of its attempt. Each check returns the answer to give, or undefined when it holds.
 */
import { DateTime } from 'luxon';

import { SERVICE_TIME_FORMAT, SERVICE_TIME_ZONE } from './contract';
import { isValidSignature } from './signature';

export interface Refusal {
	status: number;
	message: string;
}

/**
 * Fails closed: without a secret no signature holds. A header Node kept as a list (sent twice)
 * is no signature either.
 */
export function checkSignature(
	secret: string,
	rawBody: Buffer,
	signature: unknown,
	acceptUnsigned: boolean,
): Refusal | undefined {
	if (signature === undefined) {
		if (acceptUnsigned) return undefined;
		return {
			status: 401,
			message:
				'Missing X-Webhook-Signature: give the endpoint a signing secret in the panel, or turn on "Accept Unsigned Deliveries"',
		};
	}
	if (isValidSignature(secret, rawBody, typeof signature === 'string' ? signature : undefined)) return undefined;
	return {
		status: 401,
		message: "Invalid X-Webhook-Signature: check that the n8n credential holds this endpoint's signing secret",
	};
}

/** Seconds between the delivery's own timestamp and now, or undefined when unreadable. */
export function deliveryAgeSeconds(timestamp: string | undefined, now: DateTime = DateTime.now()): number | undefined {
	if (!timestamp) return undefined;
	const sent = DateTime.fromFormat(timestamp.trim(), SERVICE_TIME_FORMAT, { zone: SERVICE_TIME_ZONE });
	if (!sent.isValid) return undefined;
	return now.diff(sent, 'seconds').seconds;
}

/** With a maximum age, refuses an attempt whose X-Webhook-Timestamp is too far from now. */
export function checkAge(timestamp: string | undefined, maxAgeSeconds: number | undefined): Refusal | undefined {
	if (maxAgeSeconds === undefined) return undefined;
	const age = deliveryAgeSeconds(timestamp);
	if (age === undefined) return { status: 401, message: 'Missing or unreadable X-Webhook-Timestamp' };
	if (Math.abs(age) <= maxAgeSeconds) return undefined;
	return {
		status: 401,
		message: `X-Webhook-Timestamp is ${Math.round(Math.abs(age))} s away from this server's time; at most ${maxAgeSeconds} s is accepted`,
	};
}
