/**
 * The trigger through n8n-core's WebhookContext answers without an execution: it refuses a signature
 * that does not hold on the exact bytes and a body that is not an envelope, and acknowledges (200)
 * the events a workflow does not listen to.
 */
import { describe, expect, it } from 'vitest';

import { deliver, delivery, envelope, orderCreated, statusUpdate } from './support';

// Every forged signature (tampered, re-serialized, another secret, a missing or malformed header,
// with and without Accept Unsigned Deliveries) is the forgery fuzz's family (test/reliability/forgery.suite.ts).
describe('trigger: signatures', () => {
	it('checks the signature before it looks at the body', async () => {
		const unsignedGarbage = await deliver(delivery('not json', { secret: null }));
		expect(unsignedGarbage.status).toBe(401);
		const unsignedEmpty = await deliver(delivery(Buffer.alloc(0), { secret: null }));
		expect(unsignedEmpty.status).toBe(401);
	});
});

describe('trigger: bodies that are not an envelope', () => {
	it.each([
		['an empty body', Buffer.alloc(0)],
		['invalid JSON', Buffer.from('{"event": "order.created", ')],
		['a JSON array', Buffer.from('[{"event":"order.created"}]')],
		['a JSON string', Buffer.from('"order.created"')],
		['an object without event', Buffer.from('{"delivery_id": 5, "data": {}}')],
	])('answers 400 to %s, signed, and starts nothing', async (_name, rawBody) => {
		const outcome = await deliver(delivery(rawBody));
		expect(outcome.status).toBe(400);
		expect(outcome.webhookResponse).toEqual({ noWebhookResponse: true });
		expect(outcome.run).toBeUndefined();
	});
});

// The environments a workflow does not listen to, and Maximum Age, are readings.test.ts's tables.
describe('trigger: events not listened to', () => {
	it('acknowledges (200) an event the workflow does not listen to, without an execution', async () => {
		const parameters = { events: ['order.created'] };
		for (const body of [statusUpdate(), envelope('order.deleted', { id: '1' })]) {
			const outcome = await deliver(delivery(body), { parameters });
			expect(outcome.status).toBe(200);
			expect(outcome.webhookResponse).toEqual({ noWebhookResponse: true });
			expect(outcome.run).toBeUndefined();
		}
		expect((await deliver(delivery(orderCreated()), { parameters })).items).toHaveLength(1);
	});
});
