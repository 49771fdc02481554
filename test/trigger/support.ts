/**
 * What the trigger tests share: a one-node workflow with the trigger, deliveries built and signed
 * the way the spec describes them, and a call that hands one delivery to the node through the
 * engine harness.
 */
import { createHmac } from 'node:crypto';

import { DateTime } from 'luxon';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { runWebhook, type WebhookRunResult, type WorkflowJson } from '../harness/engine';

export const TRIGGER_TYPE = 'n8n-nodes-postal-service.postalServiceTrigger';
export const TRIGGER_NAME = 'Postal Service Trigger';
export const SECRET = 'trigger-secret-4Kd9-x';

export function triggerWorkflow(parameters: IDataObject = {}): WorkflowJson {
	return {
		nodes: [
			{
				name: TRIGGER_NAME,
				type: TRIGGER_TYPE,
				parameters: parameters as never,
				webhookId: 'e0c6a1f4-1b7e-4d1e-9a53-2f7c1d0b9e11',
				credentials: { postalServiceWebhookApi: { id: 'webhook-secret', name: 'Webhook secret' } },
			},
		],
		connections: {},
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

export function sign(body: Buffer | string, secret = SECRET): string {
	return 'sha256=' + createHmac('sha256', secret).update(body).digest('hex');
}

export interface Delivery {
	headers: Record<string, string>;
	rawBody: Buffer;
}

/** A delivery as the service sends it: headers of the spec, signed with `secret` unless null. */
export function delivery(body: IDataObject | string | Buffer, options: { secret?: string | null } = {}): Delivery {
	const rawBody = Buffer.isBuffer(body) ? body : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
	const parsed = typeof body === 'object' && !Buffer.isBuffer(body) ? body : {};
	const headers: Record<string, string> = {
		'content-type': 'application/json',
		'user-agent': 'Service-Webhooks/1.0',
		'x-webhook-event': String(parsed.event ?? ''),
		'x-webhook-delivery': String(parsed.delivery_id ?? ''),
		'x-webhook-timestamp': serviceTime(),
		'x-webhook-environment': String(parsed.environment ?? 'production'),
	};
	const secret = options.secret === undefined ? SECRET : options.secret;
	if (secret !== null) headers['x-webhook-signature'] = sign(rawBody, secret);
	return { headers, rawBody };
}

/** What n8n's JSON body parser would make of the bytes (undefined when they are not JSON). */
export function parsedBody(rawBody: Buffer): unknown {
	try {
		return JSON.parse(rawBody.toString('utf8'));
	} catch {
		return undefined;
	}
}

export interface Outcome extends WebhookRunResult {
	status: number;
	/** The items the trigger emitted, when a run started. */
	items: INodeExecutionData[];
}

/** Hands one delivery to the trigger; `staticData` carries the node's state from the last call. */
export async function deliver(
	request: Delivery & { deferRawBody?: boolean },
	options: {
		parameters?: IDataObject;
		secret?: string;
		staticData?: IDataObject;
		executionStaticData?: 'shared' | 'reloaded';
	} = {},
): Promise<Outcome> {
	const result = await runWebhook({
		workflow: triggerWorkflow(options.parameters),
		webhookNode: TRIGGER_NAME,
		request: { ...request, body: parsedBody(request.rawBody) },
		credentials: { postalServiceWebhookApi: { secret: options.secret ?? SECRET } },
		staticData: options.staticData,
		executionStaticData: options.executionStaticData,
	});
	const status = result.webhookResponse.noWebhookResponse ? result.response.statusCode : 200;
	return { ...result, status, items: result.run?.output(TRIGGER_NAME) ?? [] };
}
