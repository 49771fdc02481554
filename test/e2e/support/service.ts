// The service's side of the end-to-end tests: what another client of the service would send.
import { createHmac } from 'node:crypto';

import { PDFDocument, StandardFonts } from 'pdf-lib';
import { expect } from 'vitest';

import { saoPauloDateTime } from '../../../sandbox/util';
import type { E2eEnvironment } from './environment';

/** A one-page PDF padded with a PDF comment to the given size. */
export async function pdfOfSize(bytes: number, title: string): Promise<Buffer> {
	const doc = await PDFDocument.create();
	const page = doc.addPage([595, 842]);
	page.drawText(title, { x: 50, y: 780, size: 18, font: await doc.embedFont(StandardFonts.Helvetica) });
	const pdf = Buffer.from(await doc.save());
	if (pdf.length >= bytes) return pdf;
	// A comment line after %%EOF, which readers ignore.
	const filler = Buffer.alloc(bytes - pdf.length - 3, 'x');
	return Buffer.concat([pdf, Buffer.from('\n%'), filler, Buffer.from('\n')]);
}

/** Creates a registered letter with return receipt directly at the service, as another client would (`extra`: an ar_type, say). */
export async function createLetterAtService(env: E2eEnvironment, name: string, service: { baseUrl: string } = env.sandbox, extra: Record<string, string> = {}): Promise<string> {
	const form = new FormData();
	const fields: Record<string, string> = {
		userSecurityToken: env.token,
		shipType: '3',
		name,
		addr1: 'Avenida Paulista',
		street_number: '1000',
		zip: '01310-100',
		city: 'São Paulo',
		state: 'SP',
		country: 'Brasil',
		...extra,
	};
	for (const [key, value] of Object.entries(fields)) form.set(key, value);
	form.set('pdfFile', new Blob([new Uint8Array(await pdfOfSize(0, 'letter'))], { type: 'application/pdf' }), 'letter.pdf');
	const response = await fetch(`${service.baseUrl}/api/v2/post`, { method: 'POST', body: form });
	const body = (await response.json()) as { status: number; data: unknown; status_message: string };
	expect(response.status, body.status_message).toBe(200);
	return String(body.data);
}

/** A delivery as the service stores it: the exact body bytes and what its headers are made of (an id above 2^53 as its digits). */
export interface StoredDelivery {
	deliveryId: number | string;
	event: string;
	body: string;
	payload: Record<string, unknown>;
}

/** The headers the service sends a delivery with, its signature made with `secret`. */
export const deliveryHeaders = (secret: string, delivery: StoredDelivery) => ({
	'content-type': 'application/json',
	'user-agent': 'Service-Webhooks/1.0',
	'x-webhook-event': delivery.event,
	'x-webhook-delivery': String(delivery.deliveryId),
	'x-webhook-timestamp': saoPauloDateTime(),
	'x-webhook-environment': String(delivery.payload.environment),
	'x-webhook-signature': `sha256=${createHmac('sha256', secret).update(delivery.body, 'utf8').digest('hex')}`,
});

/** Sends a delivery's exact bytes to one URL, signed and headed as the service sends it; resolves with the status. */
export async function deliverTo(url: string, secret: string, delivery: StoredDelivery): Promise<number> {
	const response = await fetch(url, { method: 'POST', headers: deliveryHeaders(secret, delivery), body: delivery.body });
	await response.arrayBuffer();
	return response.status;
}

/**
 * A new delivery of the given event the service never sent, with an id of the caller's choosing;
 * its data names it, so that deliveries made in the same second are distinct events.
 */
export function newDelivery(deliveryId: number, event = 'webhook.test', environment = 'production'): StoredDelivery {
	const payload = {
		event,
		environment,
		timestamp: saoPauloDateTime(),
		webhook_id: 1,
		delivery_id: deliveryId,
		data: { message: `Evento de teste ${deliveryId}`, webhook_id: 1, webhook_name: 'e2e' },
	};
	return { deliveryId, event, body: JSON.stringify(payload), payload };
}
