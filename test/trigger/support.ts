/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
/**
 * What the trigger's tests, its reliability suites and its benchmark share: the trigger in a
 * two-node workflow, deliveries built and signed the way the spec describes them, and a call that
 * hands one delivery to the node through n8n's engine (test/harness) and a real WebhookContext.
 */
import { createHmac } from 'node:crypto';

import { DateTime } from 'luxon';
import type { IDataObject, INode, INodeExecutionData } from 'n8n-workflow';

import type { runWebhook, WebhookRunResult, WorkflowJson } from '../harness/engine';

export const TRIGGER_TYPE = 'n8n-nodes-postal-service.postalServiceTrigger';
export const TRIGGER_NAME = 'Postal Service Trigger';
/** The trigger's node id: n8n keeps it when the node is renamed, and its processed data is keyed on it. */
export const TRIGGER_ID = '5b0f8a52-3c1e-4a7d-9d61-7f2a9c0e4b13';
/** A node after the trigger, to see whether anything downstream ran. */
export const AFTER_NAME = 'After';
export const SECRET = 'trigger-secret-4Kd9-x';

export function triggerWorkflow(parameters: IDataObject = {}, settings: Partial<INode> = {}): WorkflowJson {
	return {
		nodes: [
			{
				...settings,
				id: TRIGGER_ID,
				name: TRIGGER_NAME,
				type: TRIGGER_TYPE,
				parameters: parameters as never,
				webhookId: 'e0c6a1f4-1b7e-4d1e-9a53-2f7c1d0b9e11',
				credentials: { postalServiceWebhookApi: { id: 'webhook-secret', name: 'Webhook secret' } },
			},
			{ id: 'c3d1b7e2-8f4a-4e0b-a6c9-1d2e3f4a5b6c', name: AFTER_NAME, type: 'test.passThrough', parameters: {} },
		],
		connections: { [TRIGGER_NAME]: { main: [[{ node: AFTER_NAME, type: 'main', index: 0 }]] } },
	};
}

/** `Y-m-d H:i:s` in America/Sao_Paulo, `offsetSeconds` from now. */
export function serviceTime(offsetSeconds = 0): string {
	return DateTime.now().setZone('America/Sao_Paulo').plus({ seconds: offsetSeconds }).toFormat('yyyy-MM-dd HH:mm:ss');
}

let nextDeliveryId = 70_000;

export function envelope(event: string, data: IDataObject, extra: IDataObject = {}): IDataObject {
	return {
		event,
		environment: 'production',
		timestamp: serviceTime(),
		webhook_id: 12,
		delivery_id: nextDeliveryId++,
		data,
		...extra,
	};
}

export const hmacHex = (secret: string, body: Buffer | string) => createHmac('sha256', secret).update(body).digest('hex');

export const sign = (body: Buffer | string, secret = SECRET) => `sha256=${hmacHex(secret, body)}`;

export interface Delivery {
	headers: Record<string, string>;
	rawBody: Buffer;
}

/**
 * A delivery as the service sends it: headers of the spec, signed with `secret` unless null;
 * `deliveryId` is written into the body as digits, whatever its size.
 */
export function delivery(body: IDataObject | string | Buffer, options: { secret?: string | null; deliveryId?: string } = {}): Delivery {
	const parsed: IDataObject = typeof body === 'object' && !Buffer.isBuffer(body) ? body : {};
	const { deliveryId } = options;
	let text = parsed === body ? JSON.stringify(body) : (body as string | Buffer);
	if (parsed === body && deliveryId !== undefined) text = JSON.stringify({ ...parsed, delivery_id: '__ID__' }).replace('"__ID__"', deliveryId);
	const rawBody = Buffer.from(text);
	const headers: Record<string, string> = {
		'content-type': 'application/json',
		'user-agent': 'Service-Webhooks/1.0',
		'x-webhook-event': String(parsed.event ?? ''),
		'x-webhook-delivery': deliveryId ?? String(parsed.delivery_id ?? ''),
		'x-webhook-timestamp': serviceTime(),
		'x-webhook-environment': String(parsed.environment ?? 'production'),
	};
	const secret = options.secret === undefined ? SECRET : options.secret;
	if (secret !== null) headers['x-webhook-signature'] = sign(rawBody, secret);
	return { headers, rawBody };
}

export interface Outcome extends WebhookRunResult {
	status: number;
	/** Whether the delivery started an execution. */
	started: boolean;
	/** The items the trigger emitted, when a run started. */
	items: INodeExecutionData[];
	/** The items the node after the trigger received (empty when it did not run). */
	after: INodeExecutionData[];
}

export type DeliverOptions = Omit<Parameters<typeof runWebhook>[0], 'workflow' | 'webhookNode' | 'request' | 'credentials'> & {
	parameters?: IDataObject;
	/** The trigger's node settings (Always Output Data, On Error...). */
	settings?: Partial<INode>;
	secret?: string;
};

/** Hands one delivery to the trigger, as n8n hands it the request and then runs the execution it started. */
export async function deliver(
	request: { headers: Record<string, string | string[]>; rawBody: Buffer; deferRawBody?: boolean },
	options: DeliverOptions = {},
): Promise<Outcome> {
	const { parameters, settings, secret = SECRET, ...passed } = options;
	// What n8n's JSON body parser would make of the bytes (undefined when they are not JSON).
	let body: unknown;
	try {
		body = JSON.parse(request.rawBody.toString('utf8'));
	} catch {}
	// Loaded on first use: the release tests and the benchmarks take this file's deliveries without n8n's engine in their process.
	const { runWebhook } = await import('../harness/engine');
	const result = await runWebhook({
		...passed,
		workflow: triggerWorkflow(parameters, settings),
		webhookNode: TRIGGER_NAME,
		// A header given as a list (a forgery) goes to n8n as it came.
		request: { ...request, headers: request.headers as Record<string, string>, body },
		credentials: { postalServiceWebhookApi: { secret } },
	});
	return {
		...result,
		// No answer at all (the connection closed) is 0, as a client sees no status.
		status: result.response.ended ? result.response.statusCode : 0,
		started: result.run !== undefined,
		items: result.run?.output(TRIGGER_NAME) ?? [],
		after: result.run?.output(AFTER_NAME) ?? [],
	};
}

// Each its own order: two deliveries of one order, status and second would be one event repeated.
let nextOrder = 1_048_576;
/** A status change of an order no other delivery has named. */
export const statusUpdate = (extra: IDataObject = {}) =>
	envelope('order.status_updated', { id: String(nextOrder++), type: 'letter', status: { old: 0, new: 1 }, updated_at: serviceTime() }, extra);

/** A return receipt of order `id` as rr.created announces it, `file` as the service writes it. */
export const returnReceipt = (file: IDataObject | string | null, id = '1048576') =>
	envelope('rr.created', { id, type: 'letter', rr_type: 'rr', tracking_code: 'YA123456789BR', file });

/** A registered letter with return receipt just created, as order.created announces it. */
export const orderCreated = () =>
	envelope('order.created', {
		id: '1048576',
		type: 'letter',
		status: 0,
		shipType: '3',
		numPages: 2,
		value: 21.9,
		created_at: serviceTime(),
		paymentMethod: 'invoice',
		recipient: { name: 'Ana Souza', addr1: 'Rua A', addr2: '', city: 'Recife', state: 'PE', zip: '50000-000', country: 'BR' },
		sender: { name_sender: 'Loja', addr1_sender: 'Rua B', addr2_sender: '', city_sender: 'Recife', state_sender: 'PE', zip_sender: '50000-001', country_sender: 'BR' },
	});

/**
 * A status change of the order `order-<id>` as the service delivers it, under `deliveryId` (a retry
 * numbered anew differs from `id`); environment 'none' sends none in the body, the header saying `header`.
 */
export function statusDelivery(environment: string, id: string, deliveryId = id, header = environment): Delivery {
	const data = { id: `order-${id}`, type: 'letter', status: { old: 0, new: 1 }, updated_at: '2026-11-20 10:00:00' };
	const request = delivery({ event: 'order.status_updated', ...(environment === 'none' ? {} : { environment }), timestamp: '2026-11-20 10:00:00', webhook_id: 3, data }, { deliveryId });
	request.headers['x-webhook-environment'] = header;
	return request;
}
