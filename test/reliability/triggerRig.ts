/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
/**
 * What the trigger's reliability suites share: the trigger in a two-node workflow run by n8n's
 * engine through a real WebhookContext (test/harness), deliveries as the service builds them, and
 * an oracle for "the signature holds" written apart from the node's own check.
 */
import { createHmac } from 'node:crypto';

import { DateTime } from 'luxon';
import type { IDataObject } from 'n8n-workflow';

import type { WebhookRunResult, WorkflowJson } from '../harness/engine';

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
	options: Omit<Parameters<typeof import('../harness/engine').runWebhook>[0], 'workflow' | 'webhookNode' | 'request' | 'credentials'> & {
		parameters?: IDataObject;
	} = {},
): Promise<Delivered> {
	const { parameters, ...rest } = options;
	// Loaded on first use: the release tests take this file's deliveries without n8n's engine in their process.
	const { runWebhook } = await import('../harness/engine');
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

/** A small seeded generator for the shuffles, batch sizes and faults of one scenario. */
export function mulberry32(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

/** The list in a random order (Fisher–Yates). */
export function shuffled<T>(list: T[], random: () => number): T[] {
	const out = [...list];
	for (let i = out.length - 1; i > 0; i--) {
		const j = Math.floor(random() * (i + 1));
		[out[i], out[j]] = [out[j], out[i]];
	}
	return out;
}

/** Sends every item of `queue` (which a send may add to) in order, 1 to 10 at a time. */
export async function inBatches<T>(queue: T[], random: () => number, send: (item: T) => Promise<void>): Promise<void> {
	while (queue.length > 0) await Promise.all(queue.splice(0, 1 + Math.floor(random() * 10)).map(send));
}

/** Runs after the trigger per delivery, against the deliveries that had to run: how many never ran, and how many extra runs. */
export function countRuns(expected: Iterable<string>, runs: Map<string, number>): { downstream: number; lost: number; twice: number } {
	const wanted = new Set(expected);
	let downstream = 0;
	let lost = 0;
	let twice = 0;
	for (const key of wanted) {
		const n = runs.get(key) ?? 0;
		downstream += n;
		if (n === 0) lost++;
		if (n > 1) twice += n - 1;
	}
	// A run of something that was never a delivery of its own is a run too many.
	for (const [key, n] of runs) if (!wanted.has(key)) twice += n;
	return { downstream, lost, twice };
}

/**
 * The bytes the service sends for one delivery: the id written as digits, whatever its size; the
 * order named after the delivery, so an item tells which delivery it ran. `deliveryId` differs
 * from `id` for a retry numbered anew.
 */
export function statusUpdateBody(environment: string, id: string, deliveryId = id): Buffer {
	const envelope = {
		event: 'order.status_updated',
		...(environment === 'none' ? {} : { environment }),
		timestamp: '2026-11-20 10:00:00',
		webhook_id: 3,
		delivery_id: '__ID__',
		data: { id: `order-${id}`, type: 'letter', status: { old: 0, new: 1 }, updated_at: '2026-11-20 10:00:00' },
	};
	return Buffer.from(JSON.stringify(envelope).replace('"__ID__"', deliveryId));
}

let renumbering = 10n ** 17n;
/** A delivery_id the service never used before. */
export const freshId = () => String(renumbering++);
