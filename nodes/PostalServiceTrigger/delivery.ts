/** From the verified bytes to the envelope and the keys that tell a delivery apart: its delivery_id in its environment, and a digest of the body without it (a retry repeats the event's timestamp and data). */
import { createHash, type Hash } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import type { Refusal } from './verification';

export type Envelope = IDataObject & { event: string };

export interface Delivery {
	envelope: Envelope;
	/** `d:<environment>:<delivery_id>`; undefined without an id, as nothing then names the delivery. */
	deliveryKey(): string | undefined;
	/** `e:<digest>` of the body without delivery_id, on demand (a return receipt is megabytes); undefined for test events, never retried. */
	eventKey(): string | undefined;
}

/** JSON.parse's reviver context (Node ≥ 21): the text a number was written as. */
type ReviverContext = { source?: string } | undefined;

/** Numbers whose text is not what String() gives back (1.0, 1e3, digits beyond 2^53), by holder and key. */
type WrittenNumbers = WeakMap<object, Map<string, string>>;

// Values from the request go back in the answer, which the service stores: keep them short.
export const clip = (value: string): string => (value.length > 64 ? `${value.slice(0, 64)}…` : value);

/** The charset parameter of a Content-Type value, lower case; `utf-8` when there is none. */
export function charsetOf(contentType: string | undefined): string {
	for (const parameter of (contentType ?? '').split(';').slice(1)) {
		const [name, ...value] = parameter.split('=');
		if (value.length > 0 && name.trim().toLowerCase() === 'charset') {
			return value.join('=').trim().replace(/^"(.*)"$/, '$1').toLowerCase();
		}
	}
	return 'utf-8';
}

/** The envelope of a verified body, or the answer to give when it is not one. */
export function readDelivery(rawBody: Buffer, contentType: string | undefined): Delivery | Refusal {
	const charset = charsetOf(contentType);
	if (charset !== 'utf-8' && charset !== 'utf8') {
		return { status: 415, message: `Content-Type names charset ${clip(charset)}: this trigger reads JSON in UTF-8 only, as the service sends it` };
	}
	// As n8n's own parser: a byte order mark dropped, invalid sequences replaced rather than refused.
	const text = rawBody.toString('utf8').replace(/^\ufeff/, '');
	const written: WrittenNumbers = new WeakMap();
	let parsed: unknown;
	try {
		parsed = JSON.parse(text, function (this: object, key: string, value: unknown, context?: ReviverContext) {
			if (typeof value === 'number' && context?.source !== undefined && context.source !== String(value)) {
				const numbers = written.get(this) ?? new Map<string, string>();
				written.set(this, numbers.set(key, context.source));
			}
			return value;
		});
	} catch {
		return { status: 400, message: 'The body is not JSON' };
	}
	if (!isObject(parsed) || typeof parsed.event !== 'string' || parsed.event === '') {
		return { status: 400, message: 'The body is not a webhook envelope (an object with "event")' };
	}
	const envelope = parsed as Envelope;
	// JSON.parse rounds integers beyond 2^53, so two ids could become one: such an id is kept as the digits the service wrote.
	const id = envelope.delivery_id;
	if (typeof id === 'number' && !Number.isSafeInteger(id)) {
		const digits = written.get(envelope)?.get('delivery_id') ?? String(id);
		if (/^-?\d+$/.test(digits)) envelope.delivery_id = digits;
	}
	return {
		envelope,
		deliveryKey: () => {
			const { delivery_id: value, environment } = envelope;
			if (typeof value !== 'string' && (typeof value !== 'number' || !Number.isFinite(value))) return undefined;
			// Encoded, so that no environment and id can spell the key of another pair.
			return `d:${encodeURIComponent(typeof environment === 'string' ? environment : '')}:${String(value)}`;
		},
		eventKey: () => {
			// Two test events alike are two presses of the panel's button, never a retry.
			if (envelope.event === 'webhook.test') return undefined;
			const hash = createHash('sha256');
			feedCanonical(hash, envelope, written, undefined, true);
			return `e:${hash.digest('base64url')}`;
		},
	};
}

export function isObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Feeds the hash a form a body serialized again feeds alike: keys sorted, numbers as written, strings length-prefixed (never copied). */
function feedCanonical(hash: Hash, value: unknown, written: WrittenNumbers, asWritten: string | undefined, top = false): void {
	if (value === null || typeof value === 'boolean') hash.update(String(value)[0]);
	else if (typeof value === 'number') hash.update(`#${asWritten ?? String(value)};`);
	else if (typeof value === 'string') hash.update(`"${value.length}:`).update(value);
	else if (Array.isArray(value)) {
		const numbers = written.get(value);
		hash.update('[');
		value.forEach((entry, index) => feedCanonical(hash, entry, written, numbers?.get(String(index))));
		hash.update(']');
	} else if (isObject(value)) {
		const numbers = written.get(value);
		hash.update('{');
		for (const key of Object.keys(value).sort()) {
			if (top && key === 'delivery_id') continue;
			feedCanonical(hash, key, written, undefined);
			feedCanonical(hash, value[key], written, numbers?.get(key));
		}
		hash.update('}');
	}
}
