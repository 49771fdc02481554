/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
/**
 * The trigger fed by the sandbox's dispatcher refuses what it must: a body changed or serialized
 * again on the way, another secret, no signature, a body that is not JSON, a delivery held too long.
 */
import { describe, expect, it } from 'vitest';

import { finished, settled, useSandboxDispatcher } from './sandboxRig';
import { SECRET, serviceFields, sign } from './support';

const setup = useSandboxDispatcher();

describe('trigger with the sandbox dispatcher: refused deliveries', () => {
	it('answers 401 to a body changed on the way, and starts nothing', async () => {
		const { sandbox: s, receiver: r } = await setup({});
		r.transform = (request) => ({
			...request,
			rawBody: Buffer.from(request.rawBody.toString('utf8').replace('"status":', '"status": ')),
		});
		s.control.createEmailOrder({ email: 'ana@example.com' });
		const [d] = await settled(s, 1);
		expect(r.received[0].request.rawBody.toString()).not.toBe(d.body);
		expect(d.attempts[0]).toMatchObject({ status: 401 });
		expect(d.attempts[0].responseBody).toMatch(/Invalid X-Webhook-Signature/);
		expect(r.executions()).toBe(0);
	});

	it('answers 401 to the same JSON serialized again by something in between', async () => {
		const { sandbox: s, receiver: r } = await setup({});
		let pretty: Buffer | undefined;
		let sorted: Buffer | undefined;
		r.transform = (request) => {
			const parsed = JSON.parse(request.rawBody.toString('utf8'));
			pretty ??= Buffer.from(JSON.stringify(parsed, null, 2));
			const sortedKeys = (value: unknown): unknown =>
				value && typeof value === 'object' && !Array.isArray(value)
					? Object.fromEntries(Object.keys(value).sort().map((k) => [k, sortedKeys((value as Record<string, unknown>)[k])]))
					: value;
			sorted ??= Buffer.from(JSON.stringify(sortedKeys(parsed)));
			// First attempt pretty-printed, the retries with their keys sorted.
			return { ...request, rawBody: r.received.length === 0 ? pretty : sorted };
		};
		s.control.createEmailOrder({ email: 'ana@example.com' });
		const [d] = await s.control.waitForDeliveries((all) => all.length === 1 && all[0].attempts.length >= 2 && finished(all[0]), 20_000);
		expect(JSON.parse(pretty!.toString())).toEqual(d.payload);
		expect(JSON.parse(sorted!.toString())).toEqual(d.payload);
		expect(sorted!.toString()).not.toBe(d.body);
		expect(d.attempts.map((a) => a.status)).toEqual(d.attempts.map(() => 401));
		expect(r.executions()).toBe(0);
	});

	it('answers 401 when the endpoint signs with another secret', async () => {
		const { sandbox: s, receiver: r } = await setup({ endpointSecret: 'a-different-secret' });
		s.control.createEmailOrder({ email: 'ana@example.com' });
		const [d] = await settled(s, 1);
		expect(r.received[0].request.headers['x-webhook-signature']).toBe(sign(d.body, 'a-different-secret'));
		expect(d.attempts[0].status).toBe(401);
		expect(d.attempts.every((a) => !a.responseBody.includes(SECRET))).toBe(true);
		expect(r.executions()).toBe(0);
	});

	it('answers 401 to an unsigned endpoint, and 200 once unsigned deliveries are accepted', async () => {
		const refused = await setup({ endpointSecret: null });
		refused.sandbox.control.createEmailOrder({ email: 'ana@example.com' });
		const [d] = await settled(refused.sandbox, 1);
		expect(refused.receiver.received[0].request.headers['x-webhook-signature']).toBeUndefined();
		expect(d.attempts[0]).toMatchObject({ status: 401 });
		expect(d.attempts[0].responseBody).toMatch(/Missing X-Webhook-Signature/);
		expect(refused.receiver.executions()).toBe(0);
		await refused.sandbox.stop();
		await refused.receiver.close();

		const accepted = await setup({ endpointSecret: null, parameters: { options: { acceptUnsigned: true } } });
		accepted.sandbox.control.createEmailOrder({ email: 'ana@example.com' });
		const [ok] = await settled(accepted.sandbox, 1);
		expect(ok.attempts.map((a) => a.status)).toEqual([200]);
		expect(accepted.receiver.items().map((i) => serviceFields(i.json))).toEqual([ok.payload]);
	});

	// A body that is not JSON can only pass the signature when the endpoint has no secret: a proxy
	// in between that cuts the body, on an unsigned endpoint whose deliveries are accepted.
	it.each([
		['an empty body', () => Buffer.alloc(0)],
		['invalid JSON (a body cut in the middle)', (raw: Buffer) => raw.subarray(0, 40)],
	])('answers 400 to %s, and starts nothing', async (_name, cut) => {
		const { sandbox: s, receiver: r } = await setup({ endpointSecret: null, parameters: { options: { acceptUnsigned: true } } });
		r.transform = (request) => ({ ...request, rawBody: cut(request.rawBody) });
		s.control.createEmailOrder({ email: 'ana@example.com' });
		const [d] = await settled(s, 1);
		const received = r.received[0].request.rawBody;
		expect(received.length).toBeLessThan(Buffer.byteLength(d.body));
		expect(() => JSON.parse(received.toString())).toThrow();
		expect(d.attempts[0].status).toBe(400);
		expect(d.attempts.map((a) => a.status)).toEqual(d.attempts.map(() => 400));
		expect(r.executions()).toBe(0);
	});

	it('answers 401 to a delivery held longer than the maximum age, and takes the retry', async () => {
		const { sandbox: s, receiver: r } = await setup({ parameters: { options: { maxAgeSeconds: 2 } } });
		let held = false;
		r.transform = async (request) => {
			if (!held) {
				held = true;
				// Sat in a queue. The timestamp has second precision, so a fresh delivery can look up to
				// a second (plus the time to get here) old: 2 s is the least window that is never
				// flaky, and 3.1 s of waiting is always over it.
				await new Promise((resolve) => setTimeout(resolve, 3_100));
			}
			return request;
		};
		s.control.createEmailOrder({ email: 'ana@example.com' });
		const [d] = await s.control.waitForDeliveries((all) => all.length === 1 && all[0].state === 'delivered', 20_000);
		expect(d.attempts.map((a) => a.status)).toEqual([401, 200]);
		expect(d.attempts[0].responseBody).toMatch(/X-Webhook-Timestamp/);
		expect(r.executions()).toBe(1);
	});
});
