/** Whether a delivery may be read at all (its signature, and when asked its age): each check returns the answer to give, or undefined. */
import { createHmac, timingSafeEqual } from 'node:crypto';

import { DateTime } from 'luxon';

/** Headers of every delivery, as Node names them (lower case). */
export const SIGNATURE_HEADER = 'x-webhook-signature';
export const TIMESTAMP_HEADER = 'x-webhook-timestamp';

const SIGNATURE_PREFIX = 'sha256=';

/** The zones X-Webhook-Timestamp may be written in: the body's own (São Paulo), then UTC (see docs/assumptions.md). */
const TIMESTAMP_ZONES = ['America/Sao_Paulo', 'UTC'] as const;
const SERVICE_TIME_FORMAT = 'yyyy-MM-dd HH:mm:ss';

export interface Refusal {
	status: number;
	message: string;
}

/** `sha256=<hex>` of the exact bytes, as the service writes it in `X-Webhook-Signature`. */
export function signBody(secret: string, rawBody: Buffer | string): string {
	return SIGNATURE_PREFIX + createHmac('sha256', secret).update(rawBody).digest('hex');
}

/** Whether `header` signs `rawBody` as received: a body serialized again must not match. */
export function isValidSignature(secret: string, rawBody: Buffer, header: string | undefined): boolean {
	if (typeof header !== 'string' || secret === '') return false;
	const value = header.trim();
	// The prefix names the algorithm; anything else is not a signature this node can check.
	if (value.slice(0, SIGNATURE_PREFIX.length).toLowerCase() !== SIGNATURE_PREFIX) return false;
	const hex = value.slice(SIGNATURE_PREFIX.length);
	// Buffer.from(…, 'hex') stops at the first non-hex character, so a malformed value could decode to a prefix of the digest: only 64 hex digits compare.
	if (!/^[0-9a-fA-F]{64}$/.test(hex)) return false;
	const expected = createHmac('sha256', secret).update(rawBody).digest();
	return timingSafeEqual(Buffer.from(hex, 'hex'), expected);
}

/** Fails closed: without a secret no signature holds; a header Node kept as a list (sent twice) is none either. */
export function checkSignature(secret: string, rawBody: Buffer, signature: unknown, acceptUnsigned: boolean): Refusal | undefined {
	if (signature === undefined) {
		if (acceptUnsigned) return undefined;
		return {
			status: 401,
			message: 'Missing X-Webhook-Signature: give the endpoint a signing secret in the panel, or turn on "Accept Unsigned Deliveries"',
		};
	}
	if (isValidSignature(secret, rawBody, typeof signature === 'string' ? signature : undefined)) return undefined;
	return { status: 401, message: "Invalid X-Webhook-Signature: check that the n8n credential holds this endpoint's signing secret" };
}

/** One reading of X-Webhook-Timestamp: the zone its digits are taken in, and the age that gives. */
interface TimestampReading {
	zone: (typeof TIMESTAMP_ZONES)[number];
	/** Seconds from the attempt's time to now; negative when it lies ahead. */
	ageSeconds: number;
}

/** The header read as São Paulo time or UTC (the interface names no zone for it), whichever is nearer to now; undefined when unreadable. */
export function timestampReading(timestamp: string | undefined, now: DateTime = DateTime.now()): TimestampReading | undefined {
	if (!timestamp) return undefined;
	let nearest: TimestampReading | undefined;
	for (const zone of TIMESTAMP_ZONES) {
		const sent = DateTime.fromFormat(timestamp.trim(), SERVICE_TIME_FORMAT, { zone });
		if (!sent.isValid) return undefined;
		const reading = { zone, ageSeconds: now.diff(sent, 'seconds').seconds };
		if (nearest === undefined || Math.abs(reading.ageSeconds) < Math.abs(nearest.ageSeconds)) nearest = reading;
	}
	return nearest;
}

/** Refuses an attempt too far from now under both readings; either costs nothing, as a replay comes later still. */
export function checkAge(timestamp: string | undefined, maxAgeSeconds: number | undefined): Refusal | undefined {
	if (maxAgeSeconds === undefined) return undefined;
	const reading = timestampReading(timestamp);
	if (reading === undefined) return { status: 401, message: 'Missing or unreadable X-Webhook-Timestamp' };
	if (Math.abs(reading.ageSeconds) <= maxAgeSeconds) return undefined;
	return {
		status: 401,
		message: `X-Webhook-Timestamp is ${Math.round(Math.abs(reading.ageSeconds))} s away from this server's time (read as ${reading.zone} time, the nearer of São Paulo and UTC); at most ${maxAgeSeconds} s is accepted`,
	};
}
