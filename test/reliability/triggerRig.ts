/**
 * What the trigger's reliability suites share: the trigger in a two-node workflow run by n8n's
 * engine through a real WebhookContext (test/harness), deliveries as the service builds them, and
 * an oracle for "the signature holds" written apart from the node's own check.
 */
import { createHmac } from 'node:crypto';

import { DateTime } from 'luxon';
import type { IDataObject } from 'n8n-workflow';

import { runWebhook, type WebhookRunResult, type WorkflowJson } from '../harness/engine';

export const TRIGGER = 'Postal Service Trigger';
export const TRIGGER_ID = '0d6f3c2a-8b1e-4f5a-9c7d-2e4b6a8c0f13';
export const AFTER = 'After';
export const SECRET = 'reliability-signing-secret-7Qm2';

export function workflow(parameters: IDataObject = {}): WorkflowJson {
	return {
		nodes: [
			{
				id: TRIGGER_ID,
				name: TRIGGER,
				type: 'n8n-nodes-postal-service.postalServiceTrigger',
				parameters: parameters as never,
				credentials: { postalServiceWebhookApi: { id: 'secret', name: 'secret' } },
			},
			{ id: '6a1e2b3c-4d5e-4f60-8a7b-9c0d1e2f3a4b', name: AFTER, type: 'test.passThrough', parameters: {} },
		],
		connections: { [TRIGGER]: { main: [[{ node: AFTER, type: 'main', index: 0 }]] } },
	};
}

export const serviceTime = () => DateTime.now().setZone('America/Sao_Paulo').toFormat('yyyy-MM-dd HH:mm:ss');

export const hmacHex = (secret: string, bytes: Buffer) => createHmac('sha256', secret).update(bytes).digest('hex');

export interface Request {
	headers: Record<string, string | string[]>;
	rawBody: Buffer;
}

/** The headers the service sends with a body, signed with `secret`. */
export function signed(rawBody: Buffer, envelope: IDataObject, secret = SECRET): Request {
	return {
		rawBody,
		headers: {
			'content-type': 'application/json',
			'user-agent': 'Service-Webhooks/1.0',
			'x-webhook-event': String(envelope.event),
			'x-webhook-delivery': String(envelope.delivery_id),
			'x-webhook-timestamp': serviceTime(),
			'x-webhook-environment': String(envelope.environment),
			'x-webhook-signature': `sha256=${hmacHex(secret, rawBody)}`,
		},
	};
}

/**
 * Whether the delivery carries a signature that holds for its bytes under the real secret, as the
 * spec defines it: one `sha256=` value (spaces around it and the case of the hex aside) equal to
 * the HMAC-SHA256 of the exact bytes.
 */
export function signatureHolds(request: Request): boolean {
	const value = request.headers['x-webhook-signature'];
	if (typeof value !== 'string') return false;
	const match = /^sha256=([0-9a-f]{64})$/i.exec(value.trim());
	return match !== null && match[1].toLowerCase() === hmacHex(SECRET, request.rawBody);
}

export interface Delivered extends WebhookRunResult {
	started: boolean;
	/** Items that reached the node after the trigger. */
	downstream: number;
}

export async function deliver(
	request: Request,
	options: Omit<Parameters<typeof runWebhook>[0], 'workflow' | 'webhookNode' | 'request' | 'credentials'> & {
		parameters?: IDataObject;
	} = {},
): Promise<Delivered> {
	const { parameters, ...rest } = options;
	const result = await runWebhook({
		...rest,
		workflow: workflow(parameters),
		webhookNode: TRIGGER,
		request: { headers: request.headers as Record<string, string>, rawBody: request.rawBody },
		credentials: { postalServiceWebhookApi: { secret: SECRET } },
	});
	return { ...result, started: result.run !== undefined, downstream: result.run?.output(AFTER).length ?? 0 };
}

/** Everything a delivery produced that someone could read: the answer and the execution's data. */
export function producedText(result: WebhookRunResult): string {
	return JSON.stringify(result.response.body ?? '') + (result.run?.serialized ?? '') + String(result.webhookError ?? '');
}
