/**
 * Whether a delivery may be read at all: its signature over the raw bytes, and (when asked) the
 * age of its attempt. Each check returns the answer to give, or undefined when it holds.
 */
import { DateTime } from 'luxon';

import { SERVICE_TIME_FORMAT, TIMESTAMP_HEADER_ZONES, type TimestampZone } from './contract';
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

/** One reading of X-Webhook-Timestamp: the zone its digits are taken in, and the age that gives. */
interface TimestampReading {
	zone: TimestampZone;
	/** Seconds from the attempt's time to now; negative when it lies ahead. */
	ageSeconds: number;
}

/**
 * Both readings of the header, or undefined when it is unreadable. The interface gives a zone for
 * the body's timestamp only, so the header may be São Paulo time like it, or UTC.
 */
function timestampReadings(timestamp: string | undefined, now: DateTime = DateTime.now()): TimestampReading[] | undefined {
	if (!timestamp) return undefined;
	const readings: TimestampReading[] = [];
	for (const zone of TIMESTAMP_HEADER_ZONES) {
		const sent = DateTime.fromFormat(timestamp.trim(), SERVICE_TIME_FORMAT, { zone });
		if (!sent.isValid) return undefined;
		readings.push({ zone, ageSeconds: now.diff(sent, 'seconds').seconds });
	}
	return readings;
}

/** The reading nearest to now: the zone the service's clock writes in (the two are three hours apart). */
export function timestampReading(timestamp: string | undefined, now: DateTime = DateTime.now()): TimestampReading | undefined {
	const readings = timestampReadings(timestamp, now);
	return readings?.reduce((best, reading) => (Math.abs(reading.ageSeconds) < Math.abs(best.ageSeconds) ? reading : best));
}

/**
 * With a maximum age, refuses an attempt whose X-Webhook-Timestamp is too far from now under both
 * readings. Accepting either costs nothing: a replay comes later than the attempt, and the UTC
 * reading of São Paulo digits lies three hours earlier still.
 */
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
