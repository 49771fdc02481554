/**
 * Bodies: once the signature holds on the raw bytes, the trigger reads them as UTF-8 JSON, as the
 * service sends them: a byte order mark dropped, UTF-8 when Content-Type names no charset.
 */
import { describe, expect, it } from 'vitest';

import { deliver, delivery, envelope, SECRET, serviceFields, sign, type Delivery } from './support';

const body = () =>
	envelope('order.created', {
		id: '1048576',
		type: 'email',
		status: 0,
		recipient: { name: 'João Conceição', email: 'joao@example.com' },
		sender: { name_sender: 'Loja São Paulo', email_sender: 'loja@example.com', email_replyTo: '' },
		subject: 'Notificação',
		value: 9.9,
		created_at: '2026-11-23 10:00:00',
		paymentMethod: 'credits',
	});

/** The bytes as given, with the content type given, signed over exactly those bytes. */
function encoded(bytes: Buffer, contentType: string | undefined): Delivery {
	const request = delivery(bytes);
	if (contentType === undefined) delete request.headers['content-type'];
	else request.headers['content-type'] = contentType;
	request.headers['x-webhook-signature'] = sign(bytes, SECRET);
	return request;
}

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

// Charset names taken or refused with 415, genuine and forged, are the forgery fuzz's encodings,
// charsets and content types (test/reliability/forgery.suite.ts).
describe('bodies: UTF-8 JSON', () => {
	it('accepts a signed UTF-8 body that starts with a byte order mark', async () => {
		const sent = body();
		const outcome = await deliver(encoded(Buffer.concat([BOM, Buffer.from(JSON.stringify(sent))]), 'application/json'));
		expect(outcome.status).toBe(200);
		expect(outcome.items.map((item) => serviceFields(item.json))).toEqual([sent]);
	});

	it('reads UTF-8 when Content-Type names no charset, or is missing', async () => {
		const sent = body();
		for (const contentType of ['application/json', 'text/plain', undefined]) {
			const outcome = await deliver(encoded(Buffer.from(JSON.stringify(sent)), contentType));
			expect(outcome.items.map((item) => serviceFields(item.json)), String(contentType)).toEqual([sent]);
		}
	});
});
