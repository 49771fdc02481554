/**
 * The trigger through n8n-core's WebhookContext refuses, starting nothing: a signature that does
 * not hold on the exact bytes, a body that is not an envelope, a timestamp outside the maximum age.
 */
import { describe, expect, it } from 'vitest';

import { deliver, delivery, orderCreated, SECRET, serviceTime } from './support';

describe('trigger: signatures', () => {
	it('refuses a tampered body with 401 and starts nothing', async () => {
		const request = delivery(orderCreated());
		const tampered = Buffer.from(request.rawBody.toString('utf8').replace('"status":0', '"status":5'));
		expect(tampered.equals(request.rawBody)).toBe(false);
		const outcome = await deliver({ ...request, rawBody: tampered });
		expect(outcome.status).toBe(401);
		expect(outcome.webhookResponse).toEqual({ noWebhookResponse: true });
		expect(outcome.run).toBeUndefined();
	});

	it('refuses the same JSON serialized again (whitespace, key order) with 401', async () => {
		const body = orderCreated();
		const request = delivery(body);
		const spaced = Buffer.from(JSON.stringify(body, null, 2));
		const reordered = Buffer.from(JSON.stringify(Object.fromEntries(Object.entries(body).reverse())));
		for (const rawBody of [spaced, reordered]) {
			expect(JSON.parse(rawBody.toString())).toEqual(body);
			const outcome = await deliver({ ...request, rawBody });
			expect(outcome.status).toBe(401);
			expect(outcome.run).toBeUndefined();
		}
	});

	it('refuses a delivery signed with another secret with 401', async () => {
		const outcome = await deliver(delivery(orderCreated(), { secret: 'another-secret' }));
		expect(outcome.status).toBe(401);
		expect(outcome.run).toBeUndefined();
		expect(JSON.stringify(outcome.response.body)).not.toContain(SECRET);
	});

	it('refuses a missing signature with 401 unless unsigned deliveries are accepted', async () => {
		const request = delivery(orderCreated(), { secret: null });
		expect(request.headers['x-webhook-signature']).toBeUndefined();
		const refused = await deliver(request);
		expect(refused.status).toBe(401);
		expect(refused.run).toBeUndefined();

		const accepted = await deliver(request, { parameters: { options: { acceptUnsigned: true } } });
		expect(accepted.status).toBe(200);
		expect(accepted.items).toHaveLength(1);
	});

	it('refuses a wrong signature even when unsigned deliveries are accepted', async () => {
		const acceptUnsigned = { options: { acceptUnsigned: true } };
		const wrong = delivery(orderCreated(), { secret: 'another-secret' });
		expect((await deliver(wrong, { parameters: acceptUnsigned })).status).toBe(401);
		const empty = delivery(orderCreated());
		empty.headers['x-webhook-signature'] = '';
		expect((await deliver(empty, { parameters: acceptUnsigned })).status).toBe(401);
	});

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
