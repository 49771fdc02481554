import type { LoggedRequest } from './core';
import type { Delivery } from './webhooks';

type RequestFields = { method?: string; path?: string | RegExp; status?: number };
export type RequestFilter = RequestFields | ((request: LoggedRequest) => boolean);

type DeliveryFields = { webhookId?: number; event?: string; state?: Delivery['state']; deliveryId?: number };
export type DeliveryFilter = DeliveryFields | ((delivery: Delivery) => boolean);

/** A delivery filter's fields: each one given must match (the HTTP form may send numbers as text). */
export function deliveryMatches(filter: DeliveryFields): (delivery: Delivery) => boolean {
	return (d) =>
		(filter.webhookId === undefined || d.webhookId === Number(filter.webhookId)) &&
		(filter.event === undefined || d.event === filter.event) &&
		(filter.state === undefined || d.state === filter.state) &&
		(filter.deliveryId === undefined || d.deliveryId === Number(filter.deliveryId));
}

/** A request filter's fields: a path given as text matches the paths it begins. */
export function requestMatches(filter: RequestFields): (request: LoggedRequest) => boolean {
	return (r) =>
		(!filter.method || r.method === filter.method.toUpperCase()) &&
		(filter.status === undefined || r.status === Number(filter.status)) &&
		(filter.path === undefined || (typeof filter.path === 'string' ? r.path.startsWith(filter.path) : filter.path.test(r.path)));
}
