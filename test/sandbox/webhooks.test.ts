/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
/**
 * Webhook delivery: retries after 5, 10 and 20 minutes (scaled down), pausing a dead endpoint,
 * timeouts, resending, no timer left once the sandbox stops; delivery_id read both ways the
 * interface allows; and what a delivery carries in its headers and signature.
 */
import { describe, expect, it } from 'vitest';

import { saoPauloDateTime } from '../../sandbox/util';
import { RETRY_DELAYS_MINUTES } from '../../sandbox/webhookTypes';
import { call, finished, newLetter, SAO_PAULO, SECRET, TIME_SCALE, useWebhookRigs, verify } from './support';

const { setup, receiver } = useWebhookRigs();

describe('Events › delivery and retry', () => {
	it('each real event gets its 3 retries; two failures in a row are forgiven by a success, the third in a row pauses the endpoint', async () => {
		const sandbox = await setup({ timeScale: 5 });
		// Deliveries 1, 2, 4, 5 and 6 fail for good; 3 is answered on its second attempt, and every one after the resume.
		const server = await receiver((request) => {
			const id = Number(request.headers['x-webhook-delivery']);
			const attemptsOf3 = server.requests.filter((r) => r.headers['x-webhook-delivery'] === '3').length;
			return { status: (id === 3 && attemptsOf3 >= 2) || id > 6 ? 200 : 500 };
		});
		const endpoint = sandbox.control.registerWebhook({ url: server.url });
		const counts: number[] = [];
		for (let i = 0; i < 6; i++) {
			sandbox.control.createEmailOrder({ email: 'ana@example.com' });
			await sandbox.control.waitForDeliveries((all) => all.length === i + 1 && finished(all[i]), 10_000);
			counts.push(sandbox.control.webhooks()[0].consecutiveFailures);
		}
		const six = sandbox.control.deliveries().map((d) => [d.state, d.attempts.length]);
		expect(six).toEqual([['failed', 4], ['failed', 4], ['delivered', 2], ['failed', 4], ['failed', 4], ['failed', 4]]);
		expect(counts).toEqual([1, 2, 0, 1, 2, 3]);
		expect(sandbox.control.webhooks()[0].paused).toBe(true);
		expect(sandbox.control.notices()).toEqual([{ at: expect.stringMatching(SAO_PAULO), subject: expect.any(String), webhookId: endpoint.id }]);
		// Paused, it gets nothing; resumed, the next event is delivered.
		sandbox.control.createEmailOrder({ email: 'ana@example.com' });
		await new Promise((resolve) => setTimeout(resolve, 50));
		expect(sandbox.control.deliveries()).toHaveLength(6);
		sandbox.control.resumeWebhook(endpoint.id);
		sandbox.control.createEmailOrder({ email: 'ana@example.com' });
		const after = await sandbox.control.waitForDeliveries((all) => all.length === 7 && finished(all[6]));
		expect(after[6].state).toBe('delivered');
	});

	it('test deliveries are never retried and never count toward pausing', async () => {
		const sandbox = await setup();
		const server = await receiver(() => ({ status: 500 }));
		const endpoint = sandbox.control.registerWebhook({ url: server.url });
		for (let i = 0; i < 4; i++) sandbox.control.sendTestEvent(endpoint.id);
		const all = await sandbox.control.waitForDeliveries((d) => d.length === 4 && d.every(finished));
		await new Promise((resolve) => setTimeout(resolve, 5 * TIME_SCALE * 3));
		expect(all.every((d) => d.test && d.attempts.length === 1 && d.state === 'failed')).toBe(true);
		expect(server.requests).toHaveLength(4);
		expect(sandbox.control.webhooks()[0]).toMatchObject({ paused: false, consecutiveFailures: 0 });
	});

	it('counts a receiver that does not answer in time (30 s, shortened here) as a failure', async () => {
		const sandbox = await setup({ webhookTimeoutMs: 150, timeScale: 60_000 });
		const server = await receiver(() => ({ status: 200, delayMs: 600 }));
		sandbox.control.registerWebhook({ url: server.url });
		sandbox.control.createEmailOrder({ email: 'ana@example.com' });
		const [delivery] = await sandbox.control.waitForDeliveries((all) => all.length === 1 && all[0].attempts.length === 1 && all[0].state !== 'pending');
		expect(delivery.state).toBe('retrying');
		expect(delivery.attempts[0]).toMatchObject({ error: expect.stringContaining('150 ms') });
		expect(delivery.attempts[0].status).toBeUndefined();
	});

	it('stop() cancels pending retries: no timer outlives the sandbox', async () => {
		const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
		const before = timers();
		const sandbox = await setup({ timeScale: 60_000 });
		const server = await receiver(() => ({ status: 500 }));
		sandbox.control.registerWebhook({ url: server.url });
		sandbox.control.createEmailOrder({ email: 'ana@example.com' });
		await sandbox.control.waitForDeliveries((all) => all[0]?.state === 'retrying');
		await sandbox.stop();
		expect(timers()).toBeLessThanOrEqual(before);
	});
});

describe('delivery_id, read both ways the interface gives it: the key to de-duplicate on, or the id of one attempt', () => {
	const family = (['delivery', 'attempt'] as const).flatMap((reading) =>
		(['retries', 'a resend from the panel'] as const).map((how) => ({ label: `${reading} reading, ${how}`, reading, how })),
	);
	// Every delivery's retries and resend: after 5, 10 and 20 minutes, each attempt dated in its header as
	// the sandbox records it, with the receiver's answer stored.
	it.each(family)('$label', async ({ reading, how }) => {
		const sandbox = await setup({ deliveryIds: reading });
		// Failing three times lets every retry come; answering at once leaves the resend to make the second attempt.
		const times: number[] = [];
		const server = await receiver((_r, index) => {
			times.push(Date.now());
			return how === 'retries' && index < 3 ? { status: 500, body: 'erro' } : { status: 200 };
		});
		const endpoint = sandbox.control.registerWebhook({ url: server.url, events: ['order.status_updated'] });
		const id = await newLetter(sandbox.baseUrl);
		sandbox.control.setOrderStatus(id, 1);
		await sandbox.control.waitForDeliveries((all) => all.length === 1 && all.every(finished) && (how === 'a resend from the panel' || all[0].attempts.length === 4), 10_000);
		if (how === 'a resend from the panel') await sandbox.control.resendDelivery(sandbox.control.deliveries()[0].deliveryId);
		const [delivery] = sandbox.control.deliveries({ webhookId: endpoint.id });
		const attempts = delivery.attempts.map((a) => a.deliveryId);
		expect(attempts.length).toBe(how === 'retries' ? 4 : 2);
		expect(server.requests).toHaveLength(attempts.length);
		expect(delivery.attempts.map((a) => a.responseBody)).toEqual(how === 'retries' ? ['erro', 'erro', 'erro', 'ok'] : ['ok', 'ok']);
		for (const [i, request] of server.requests.entries()) {
			const sent = JSON.parse(request.body);
			// Each attempt says the id it carries, in its body and its header, signed over its own bytes.
			expect(sent.delivery_id).toBe(attempts[i]);
			expect(request.headers['x-webhook-delivery']).toBe(String(attempts[i]));
			expect(request.headers['x-webhook-timestamp']).toBe(delivery.attempts[i].at);
			expect(verify(request.body, request.headers['x-webhook-signature'] as string, SECRET)).toBe(true);
			// The same event otherwise: only delivery_id may differ between attempts.
			expect({ ...sent, delivery_id: 0 }).toEqual({ ...delivery.payload, delivery_id: 0 });
		}
		if (reading === 'delivery') {
			expect(new Set(attempts)).toEqual(new Set([delivery.deliveryId]));
			expect(new Set(server.requests.map((r) => r.body))).toEqual(new Set([delivery.body]));
		} else expect(new Set(attempts).size).toBe(attempts.length);
		expect(attempts[0]).toBe(delivery.deliveryId);
		if (how !== 'retries') return;
		// The schedule is the interface's; a retry never comes before its delay, whatever the machine's
		// load (an upper bound would measure the machine, not the sandbox).
		expect(RETRY_DELAYS_MINUTES).toEqual([5, 10, 20]);
		RETRY_DELAYS_MINUTES.forEach((minutes, i) => expect(times[i + 1] - times[i]).toBeGreaterThanOrEqual(minutes * TIME_SCALE - 2));
	});

	it('switches reading from the control API, and refuses a third', async () => {
		const sandbox = await setup();
		expect((await call(`${sandbox.baseUrl}/_sandbox/info`)).body.deliveryIds).toBe('delivery');
		sandbox.control.setDeliveryIds('attempt');
		expect((await call(`${sandbox.baseUrl}/_sandbox/info`)).body.deliveryIds).toBe('attempt');
		const refused = await call(`${sandbox.baseUrl}/_sandbox/setDeliveryIds`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"reading":"event"}' });
		expect(refused).toMatchObject({ status: 400, body: { error: 'reading must be delivery or attempt' } });
	});
});

describe('Events › what a delivery carries', () => {
	it('a delivery names itself in its headers, dated in São Paulo; unsigned for an endpoint without a secret, signed with its own otherwise; an e-mail order.created; its answer stored', async () => {
		const minute = () => saoPauloDateTime().slice(0, 16);
		const before = minute();
		const sandbox = await setup({ environment: 'production' });
		const server = await receiver(() => ({ status: 200, body: 'x'.repeat(12_345) }));
		sandbox.control.registerWebhook({ url: `${server.url}/unsigned`, secret: null });
		sandbox.control.registerWebhook({ url: `${server.url}/own`, secret: 'own-secret' });
		const order = sandbox.control.createEmailOrder({ email: 'ana@example.com', name: 'Ana', subject: 'Aviso' });
		const delivered = await sandbox.control.waitForDeliveries((all) => all.length === 2 && all.every(finished));
		// The answer is stored up to 10,000 characters.
		expect(delivered.map((d) => d.attempts[0].responseBody.length)).toEqual([10_000, 10_000]);
		const [unsigned, own] = ['/unsigned', '/own'].map((url) => server.requests.find((r) => r.url === url)!);
		expect(unsigned.headers).toMatchObject({ 'user-agent': 'Service-Webhooks/1.0', 'x-webhook-event': 'order.created', 'x-webhook-environment': 'production' });
		expect(unsigned.headers['x-webhook-signature']).toBeUndefined();
		expect(verify(own.body, own.headers['x-webhook-signature'] as string, 'own-secret')).toBe(true);
		expect([before, minute()]).toContain(JSON.parse(own.body).timestamp.slice(0, 16));
		expect(JSON.parse(own.body).data).toMatchObject({ id: order.id, type: 'email', status: 1, recipient: { name: 'Ana', email: 'ana@example.com' }, subject: 'Aviso', paymentMethod: 'credits' });
	});
});
