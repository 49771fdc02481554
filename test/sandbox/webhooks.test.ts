/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
/**
 * Webhook delivery: retries after 5, 10 and 20 minutes (scaled down), pausing a dead endpoint,
 * timeouts, resending, no timer left once the sandbox stops; delivery_id read both ways the
 * interface allows; and what a delivery carries in its headers and signature.
 */
import { describe, expect, it } from 'vitest';

import { startSandbox } from '../../sandbox';
import { saoPauloDateTime } from '../../sandbox/util';
import { RETRY_DELAYS_MINUTES } from '../../sandbox/webhookTypes';
import { call, finished, newLetter, SAO_PAULO, SECRET, TIME_SCALE, TOKEN, useWebhookRigs, verify } from './support';

const { setup, receiver } = useWebhookRigs();

describe('Events › delivery and retry', () => {
	it('retries a failed delivery after 5, 10 and 20 minutes (timeScale ms each), same delivery_id, same bytes', async () => {
		const sandbox = await setup({ timeScale: 40 });
		let failing = -1;
		const server = await receiver((request) => {
			const id = Number(request.headers['x-webhook-delivery']);
			if (failing === -1) failing = id;
			return { status: id === failing ? 500 : 200, body: id === failing ? 'erro' : 'ok' };
		});
		const endpoint = sandbox.control.registerWebhook({ url: server.url });
		sandbox.control.createEmailOrder({ email: 'ana@example.com' });
		await sandbox.control.waitForDeliveries((all) => all[0]?.attempts.length === 2 && all[0].attempts[1].status === 500);
		sandbox.control.createEmailOrder({ email: 'bia@example.com' });
		const all = await sandbox.control.waitForDeliveries((d) => d.length === 2 && d.every(finished), 10_000);
		const failed = all[0];
		expect(failed.state).toBe('failed');
		expect(failed.attempts.map((a) => a.status)).toEqual([500, 500, 500, 500]);
		expect(failed.attempts[0].responseBody).toBe('erro');
		const sent = server.requests.filter((r) => Number(r.headers['x-webhook-delivery']) === failed.deliveryId);
		expect(sent).toHaveLength(4);
		expect(new Set(sent.map((r) => r.body))).toEqual(new Set([failed.body]));
		expect(sent.map((r) => JSON.parse(r.body).delivery_id)).toEqual([1, 1, 1, 1].map(() => failed.deliveryId));
		const at = failed.attempts.map((a) => a.at);
		expect(sent.map((r) => r.headers['x-webhook-timestamp'])).toEqual(at);
		expect(sandbox.control.webhooks()[0]).toMatchObject({ id: endpoint.id, paused: false, consecutiveFailures: 1 });
	});

	it('spaces the retries 5, 10 and 20 "minutes" apart, never sooner', async () => {
		const sandbox = await setup({ timeScale: 30 });
		const times: number[] = [];
		const server = await receiver(() => {
			times.push(Date.now());
			return { status: 500 };
		});
		sandbox.control.registerWebhook({ url: server.url });
		sandbox.control.createEmailOrder({ email: 'ana@example.com' });
		await sandbox.control.waitForDeliveries((all) => all[0]?.attempts.length === 4 && finished(all[0]), 5_000);
		// The schedule is the interface's; a retry never comes before its delay, whatever the machine's
		// load (an upper bound would measure the machine, not the sandbox).
		expect(RETRY_DELAYS_MINUTES).toEqual([5, 10, 20]);
		const gaps = times.slice(1).map((t, i) => t - times[i]);
		RETRY_DELAYS_MINUTES.forEach((minutes, i) => expect(gaps[i]).toBeGreaterThanOrEqual(minutes * 30 - 2));
		expect(server.requests).toHaveLength(4);
	});

	it('a dead endpoint: every real event gets its 3 retries after 5, 10 and 20 minutes; the third event to fail for good pauses it', async () => {
		const sandbox = await setup({ timeScale: 10 });
		let status = 500;
		const server = await receiver(() => ({ status }));
		const endpoint = sandbox.control.registerWebhook({ url: server.url });
		for (const email of ['ana@example.com', 'bia@example.com']) sandbox.control.createEmailOrder({ email });
		const two = await sandbox.control.waitForDeliveries((all) => all.length === 2 && all.every(finished), 10_000);
		expect(two.map((d) => d.attempts.length)).toEqual([4, 4]);
		expect(sandbox.control.webhooks()[0]).toMatchObject({ paused: false, consecutiveFailures: 2 });
		sandbox.control.createEmailOrder({ email: 'caio@example.com' });
		const three = await sandbox.control.waitForDeliveries((all) => all.length === 3 && all.every(finished), 10_000);
		expect(three.map((d) => [d.state, d.attempts.length])).toEqual([['failed', 4], ['failed', 4], ['failed', 4]]);
		expect(sandbox.control.webhooks()[0]).toMatchObject({ paused: true, consecutiveFailures: 3 });
		expect(sandbox.control.notices()).toEqual([{ at: expect.stringMatching(SAO_PAULO), subject: expect.any(String), webhookId: endpoint.id }]);
		sandbox.control.createEmailOrder({ email: 'ana@example.com' });
		await new Promise((resolve) => setTimeout(resolve, 50));
		expect(sandbox.control.deliveries()).toHaveLength(3);
		status = 200;
		sandbox.control.resumeWebhook(endpoint.id);
		sandbox.control.createEmailOrder({ email: 'ana@example.com' });
		const after = await sandbox.control.waitForDeliveries((all) => all.length === 4 && finished(all[3]));
		expect(after[3].state).toBe('delivered');
	});

	it('a success resets the count: failures that a retry repairs, or that a delivered event follows, never pause', async () => {
		const sandbox = await setup({ timeScale: 5 });
		// Deliveries 1, 2, 4, 5 fail for good; 3 is answered on its second attempt.
		const server = await receiver((request) => {
			const id = Number(request.headers['x-webhook-delivery']);
			const attemptsOf3 = server.requests.filter((r) => r.headers['x-webhook-delivery'] === '3').length;
			return { status: id === 3 && attemptsOf3 >= 2 ? 200 : 500 };
		});
		sandbox.control.registerWebhook({ url: server.url });
		for (let i = 0; i < 5; i++) {
			sandbox.control.createEmailOrder({ email: 'ana@example.com' });
			await sandbox.control.waitForDeliveries((all) => all.length === i + 1 && finished(all[i]), 10_000);
		}
		const all = sandbox.control.deliveries();
		expect(all.map((d) => d.state)).toEqual(['failed', 'failed', 'delivered', 'failed', 'failed']);
		expect(sandbox.control.webhooks()[0]).toMatchObject({ paused: false, consecutiveFailures: 2 });
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

	it('stores the response body up to 10,000 characters', async () => {
		const sandbox = await setup();
		const server = await receiver(() => ({ status: 200, body: 'x'.repeat(12_345) }));
		sandbox.control.registerWebhook({ url: server.url });
		sandbox.control.createEmailOrder({ email: 'ana@example.com' });
		const [delivery] = await sandbox.control.waitForDeliveries((all) => all.length === 1 && finished(all[0]));
		expect(delivery.attempts[0].responseBody).toHaveLength(10_000);
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

	it('resending a delivery sends the same delivery_id and bytes, with the attempt time in X-Webhook-Timestamp', async () => {
		const sandbox = await setup();
		const server = await receiver(() => ({ status: 200 }));
		const endpoint = sandbox.control.registerWebhook({ url: server.url });
		sandbox.control.sendTestEvent(endpoint.id);
		const [first] = await sandbox.control.waitForDeliveries((all) => all.length === 1 && finished(all[0]));
		await new Promise((resolve) => setTimeout(resolve, 1_050));
		const again = await sandbox.control.resendDelivery(first.deliveryId);
		expect(again.attempts).toHaveLength(2);
		expect(server.requests).toHaveLength(2);
		expect(server.requests[1].body).toBe(server.requests[0].body);
		expect(server.requests[1].headers['x-webhook-delivery']).toBe(String(first.deliveryId));
		expect(server.requests[1].headers['x-webhook-timestamp']).toBe(again.attempts[1].at);
		expect(again.attempts[1].at).not.toBe(again.attempts[0].at);
		expect(JSON.parse(server.requests[1].body).timestamp).toBe(first.payload.timestamp);
	});

	it('stop() cancels pending retries: no timer outlives the sandbox', async () => {
		const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
		const before = timers();
		const sandbox = await startSandbox({ port: 0, token: TOKEN, quiet: true, timeScale: 60_000 });
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
	it.each(family)('$label', async ({ reading, how }) => {
		const sandbox = await setup({ deliveryIds: reading });
		// Failing three times lets every retry come; answering at once leaves the resend to make the second attempt.
		const server = await receiver((_r, index) => ({ status: how === 'retries' && index < 3 ? 500 : 200 }));
		const endpoint = sandbox.control.registerWebhook({ url: server.url, events: ['order.status_updated'] });
		const id = await newLetter(sandbox.baseUrl);
		sandbox.control.setOrderStatus(id, 1);
		await sandbox.control.waitForDeliveries((all) => all.length === 1 && all.every(finished) && (how === 'a resend from the panel' || all[0].attempts.length === 4), 10_000);
		if (how === 'a resend from the panel') await sandbox.control.resendDelivery(sandbox.control.deliveries()[0].deliveryId);
		const [delivery] = sandbox.control.deliveries({ webhookId: endpoint.id });
		const attempts = delivery.attempts.map((a) => a.deliveryId);
		expect(attempts.length).toBe(how === 'retries' ? 4 : 2);
		expect(server.requests).toHaveLength(attempts.length);
		for (const [i, request] of server.requests.entries()) {
			const body = request.body;
			const sent = JSON.parse(body);
			// Each attempt says the id it carries, in its body and its header, signed over its own bytes.
			expect(sent.delivery_id).toBe(attempts[i]);
			expect(request.headers['x-webhook-delivery']).toBe(String(attempts[i]));
			expect(verify(body, request.headers['x-webhook-signature'] as string, SECRET)).toBe(true);
			// The same event otherwise: only delivery_id may differ between attempts.
			expect({ ...sent, delivery_id: 0 }).toEqual({ ...delivery.payload, delivery_id: 0 });
		}
		if (reading === 'delivery') expect(new Set(attempts)).toEqual(new Set([delivery.deliveryId]));
		else expect(new Set(attempts).size).toBe(attempts.length);
		expect(attempts[0]).toBe(delivery.deliveryId);
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
	it('a delivery names itself in its headers, dated in São Paulo; unsigned for an endpoint without a secret, signed with its own otherwise; an e-mail order.created', async () => {
		const minute = () => saoPauloDateTime().slice(0, 16);
		const before = minute();
		const sandbox = await setup({ environment: 'production' });
		const server = await receiver(() => ({ status: 200 }));
		sandbox.control.registerWebhook({ url: `${server.url}/unsigned`, secret: null });
		sandbox.control.registerWebhook({ url: `${server.url}/own`, secret: 'own-secret' });
		const order = sandbox.control.createEmailOrder({ email: 'ana@example.com', name: 'Ana', subject: 'Aviso' });
		await sandbox.control.waitForDeliveries((all) => all.length === 2 && all.every(finished));
		const [unsigned, own] = ['/unsigned', '/own'].map((url) => server.requests.find((r) => r.url === url)!);
		expect(unsigned.headers).toMatchObject({ 'user-agent': 'Service-Webhooks/1.0', 'x-webhook-event': 'order.created', 'x-webhook-environment': 'production' });
		expect(unsigned.headers['x-webhook-signature']).toBeUndefined();
		expect(verify(own.body, own.headers['x-webhook-signature'] as string, 'own-secret')).toBe(true);
		expect([before, minute()]).toContain(JSON.parse(own.body).timestamp.slice(0, 16));
		expect(JSON.parse(own.body).data).toMatchObject({ id: order.id, type: 'email', status: 1, recipient: { name: 'Ana', email: 'ana@example.com' }, subject: 'Aviso', paymentMethod: 'credits' });
	});
});
