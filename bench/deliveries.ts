/** Signed deliveries as the service sends them: a small status change, and a 10 MB return receipt. */
import { createHmac, randomBytes } from 'node:crypto';

import { DateTime } from 'luxon';

export const SECRET = 'bench-webhook-secret';

/**
 * A receipt the trigger accepts as a whole PDF: header, random bytes (they do not compress), and the
 * %%EOF end marker the trigger checks for (without it every receipt is flagged as cut short).
 */
export function receiptPdf(size: number): Buffer {
	const head = Buffer.from('%PDF-1.7\n');
	const tail = Buffer.from('\n%%EOF\n');
	return Buffer.concat([head, randomBytes(size - head.length - tail.length), tail]);
}

let nextId = 1_000_000;
let receiptBase64: string | undefined;

export function delivery(large: boolean): { body: Buffer; headers: Record<string, string> } {
	const deliveryId = nextId++;
	const timestamp = DateTime.now().setZone('America/Sao_Paulo').toFormat('yyyy-MM-dd HH:mm:ss');
	const event = large ? 'rr.created' : 'order.status_updated';
	// About 7.5 MB of PDF: with base64 and the envelope the body is just over 10 MB.
	receiptBase64 ??= receiptPdf(7_490_000).toString('base64');
	// Each delivery its own order: two deliveries of one event in one second are a retry to the trigger.
	const order = String(deliveryId);
	const data = large
		? { id: order, type: 'letter', rr_type: 'rr', tracking_code: 'YA123456789BR', file: { name: `AR-${order}.pdf`, base64: receiptBase64 } }
		: { id: order, type: 'letter', status: { old: 1, new: 2 }, status_delivery: 'Postado', tracking_code: 'YA123456789BR' };
	const body = Buffer.from(JSON.stringify({ event, environment: 'production', timestamp, webhook_id: 1, delivery_id: deliveryId, data }));
	return {
		body,
		headers: {
			'content-type': 'application/json',
			'x-webhook-event': event,
			'x-webhook-delivery': String(deliveryId),
			'x-webhook-timestamp': timestamp,
			'x-webhook-environment': 'production',
			'x-webhook-signature': `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`,
		},
	};
}
