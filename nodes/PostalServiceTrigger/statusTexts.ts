/** The meaning of each status code next to the code, so that an item reads on its own (as Letter > Get gives statusText). */
import type { IDataObject } from 'n8n-workflow';

import { EMAIL_STATUSES, meaningOf, ORDER_STATUSES } from '../PostalService/contract/lists';
import { isObject } from './delivery';

/** Adds `data.statusText`: a text for order.created, `{ old, new }` for order.status_updated, none for a code the interface does not list. */
export function addStatusTexts(envelope: IDataObject): void {
	const data = envelope.data;
	if (!isObject(data) || (envelope.event !== 'order.created' && envelope.event !== 'order.status_updated')) return;
	const statuses = data.type === 'email' ? EMAIL_STATUSES : ORDER_STATUSES;
	const status = data.status;
	let statusText: IDataObject | string | undefined;
	if (isObject(status)) {
		const texts = { old: meaningOf(statuses, status.old), new: meaningOf(statuses, status.new) };
		const known = Object.fromEntries(Object.entries(texts).filter(([, value]) => value !== undefined));
		if (Object.keys(known).length > 0) statusText = known;
	} else {
		statusText = meaningOf(statuses, status);
	}
	if (statusText !== undefined) envelope.data = { ...data, statusText };
}
