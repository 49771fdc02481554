/**
 * The keys a delivery is remembered by: environment and delivery_id, and the event itself (what
 * changed, for which order), so that a retry is known whether or not the service gives it a new id.
 */
import { createHash } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

/** The id of a delivery as it identifies the delivery: digits as written, or the string given. */
function deliveryIdText(value: unknown): string | undefined {
	if (typeof value === 'string') return value;
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	return undefined;
}

/**
 * The memory key of an envelope: its environment (as sent in the body) and its delivery_id.
 * Undefined for a delivery without an id, which cannot be told from another and always runs.
 */
export function deliveryKey(envelope: IDataObject): string | undefined {
	const id = deliveryIdText(envelope.delivery_id);
	if (id === undefined) return undefined;
	const environment = typeof envelope.environment === 'string' ? envelope.environment : '';
	// Encoded, so that no environment and id can spell the key of another pair.
	return `${encodeURIComponent(environment)}:${id}`;
}

const text = (value: unknown): string | undefined =>
	typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value)) ? String(value) : undefined;

const isObject = (value: unknown): value is IDataObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/** What tells one event from another of its kind and order; undefined when a part is missing. */
function eventParts(envelope: IDataObject): Array<string | null> | undefined {
	const data = envelope.data;
	if (!isObject(data) || text(data.id) === undefined) return undefined;
	const parts = (...values: unknown[]) => {
		const texts = values.map((value) => (value === null ? null : text(value)));
		return texts.includes(undefined) ? undefined : [text(data.id)!, ...(texts as Array<string | null>)];
	};
	switch (envelope.event) {
		case 'order.created':
			return parts();
		case 'order.status_updated':
			// updated_at tells a status that comes back later (3, 4, then 3 again) from a retry.
			return isObject(data.status) ? parts(data.status.new, data.updated_at) : undefined;
		case 'tracking.updated': {
			if (envelope.event_detail_type === 'new_tracking_code') return parts('code', data.tracking_code);
			const records = isObject(data.tracking_records) ? data.tracking_records.eventos : undefined;
			// The operator's records come newest first.
			const newest = Array.isArray(records) && isObject(records[0]) ? records[0] : undefined;
			return newest ? parts('record', newest.codigo, newest.dtHrCriado) : undefined;
		}
		case 'rr.created':
			return parts(data.rr_type, isObject(data.file) ? data.file.name : null);
		default:
			return undefined;
	}
}

/**
 * The key of the event a delivery carries, whatever its delivery_id: environment, event, order id
 * and what changed. Undefined for test events and for bodies that lack a part. Hashed, so that
 * static data holds a short fixed-size string.
 */
function eventKey(envelope: IDataObject): string | undefined {
	const parts = eventParts(envelope);
	if (parts === undefined) return undefined;
	const environment = typeof envelope.environment === 'string' ? envelope.environment : '';
	const digest = createHash('sha256').update(JSON.stringify([environment, envelope.event, ...parts])).digest('base64url');
	return `e:${digest.slice(0, 22)}`;
}

/** Every key of a delivery: its delivery_id and, when asked, its event. */
export function deliveryKeys(envelope: IDataObject, byEvent: boolean): string[] {
	const keys = [deliveryKey(envelope), byEvent ? eventKey(envelope) : undefined];
	return keys.filter((key): key is string => key !== undefined);
}
