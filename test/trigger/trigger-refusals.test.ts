/**
 * The trigger through n8n-core's WebhookContext answers without an execution: it refuses a signature
 * that does not hold on the exact bytes, a body that is not an envelope, a timestamp outside the
 * maximum age, and acknowledges (200) the events and environments a workflow does not listen to.
 */
import { describe, expect, it } from 'vitest';

import { deliver, delivery, envelope, orderCreated, serviceTime } from './support';

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

describe('trigger: maximum age', () => {
	const parameters = { options: { maxAgeSeconds: 300 } };
	const at = (offsetSeconds: number | null) => {
		const request = delivery(orderCreated());
		if (offsetSeconds === null) delete request.headers['x-webhook-timestamp'];
		else request.headers['x-webhook-timestamp'] = serviceTime(offsetSeconds);
		return request;
	};

	it('refuses (401) a delivery whose timestamp is older than allowed', async () => {
		const outcome = await deliver(at(-600), { parameters });
		expect(outcome.status).toBe(401);
		expect(outcome.run).toBeUndefined();
	});

	it('refuses a timestamp too far ahead, a missing one and an unreadable one', async () => {
		expect((await deliver(at(600), { parameters })).status).toBe(401);
		expect((await deliver(at(null), { parameters })).status).toBe(401);
		const iso = at(0);
		iso.headers['x-webhook-timestamp'] = new Date().toISOString();
		expect((await deliver(iso, { parameters })).status).toBe(401);
	});

	it('accepts a delivery within the window (both readings of the header: test/trigger/readings.test.ts)', async () => {
		expect((await deliver(at(-200), { parameters })).items).toHaveLength(1);
	});

	it('does not look at the timestamp when the option is off', async () => {
		expect((await deliver(at(-86_400))).items).toHaveLength(1);
	});
});

describe('trigger: events and environments not listened to', () => {
	it('acknowledges (200) an event the workflow does not listen to, without an execution', async () => {
		const parameters = { events: ['order.created'] };
		const other = envelope('order.status_updated', { id: '1', type: 'letter', status: { old: 0, new: 1 }, updated_at: serviceTime() });
		const unknown = envelope('order.deleted', { id: '1' });
		for (const body of [other, unknown]) {
			const outcome = await deliver(delivery(body), { parameters });
			expect(outcome.status).toBe(200);
			expect(outcome.webhookResponse).toEqual({ noWebhookResponse: true });
			expect(outcome.run).toBeUndefined();
		}
		expect((await deliver(delivery(orderCreated()), { parameters })).items).toHaveLength(1);
	});

	it('acknowledges (200) a delivery from the other environment, without an execution', async () => {
		const homolog = delivery({ ...orderCreated(), environment: 'homolog' });
		const production = delivery(orderCreated());

		const onlyProduction = await deliver(homolog, { parameters: { environment: 'production' } });
		expect(onlyProduction.status).toBe(200);
		expect(onlyProduction.run).toBeUndefined();
		const onlyHomolog = await deliver(production, { parameters: { environment: 'homolog' } });
		expect(onlyHomolog.status).toBe(200);
		expect(onlyHomolog.run).toBeUndefined();

		expect((await deliver(homolog, { parameters: { environment: 'homolog' } })).items).toHaveLength(1);
		expect((await deliver(homolog, { parameters: { environment: 'both' } })).items).toHaveLength(1);
		expect((await deliver(production, { parameters: { environment: 'both' } })).items).toHaveLength(1);
	});
});
