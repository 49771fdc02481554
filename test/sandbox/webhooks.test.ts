import { createHmac, timingSafeEqual } from 'node:crypto';

import { afterEach, describe, expect, it } from 'vitest';

import { startSandbox, type Delivery } from '../../sandbox';
import { startHttpServer, type RecordedRequest } from '../harness/httpServer';
import { newLetter, SECRET, TOKEN } from './support';

/** Milliseconds per "minute": retries come after 5, 10 and 20 of them. */
const TIME_SCALE = 20;

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
	while (cleanups.length > 0) await cleanups.pop()!();
});

async function setup(
	options: { environment?: 'production' | 'homolog'; webhookTimeoutMs?: number; timeScale?: number } = {},
) {
	const sandbox = await startSandbox({
		port: 0,
		token: TOKEN,
		webhookSecret: SECRET,
		timeScale: options.timeScale ?? TIME_SCALE,
		environment: options.environment ?? 'homolog',
		webhookTimeoutMs: options.webhookTimeoutMs,
		quiet: true,
	});
	cleanups.push(() => sandbox.stop());
	return sandbox;
}

async function receiver(answer: (request: RecordedRequest, index: number) => { status: number; body?: string; delayMs?: number }) {
	let index = 0;
	const server = await startHttpServer(async (request, res) => {
		const { status, body, delayMs } = answer(request, index++);
		if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs));
		if (res.destroyed) return;
		res.writeHead(status, { 'content-type': 'text/plain' });
		res.end(body ?? 'ok');
	});
	cleanups.push(() => server.close());
	return server;
}

function verify(body: string, signature: string | undefined, secret: string): boolean {
	if (!signature?.startsWith('sha256=')) return false;
	const expected = Buffer.from(createHmac('sha256', secret).update(body).digest('hex'));
	const given = Buffer.from(signature.slice('sha256='.length));
	return expected.length === given.length && timingSafeEqual(expected, given);
}

const finished = (d: Delivery) => d.state === 'delivered' || d.state === 'failed';
const SAO_PAULO = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/;

function saoPauloNow(): string {
	const parts = Object.fromEntries(
		new Intl.DateTimeFormat('en-CA', {
			timeZone: 'America/Sao_Paulo',
			year: 'numeric',
			month: '2-digit',
			day: '2-digit',
			hour: '2-digit',
			minute: '2-digit',
			hourCycle: 'h23',
		})
			.formatToParts(new Date())
			.map((p) => [p.type, p.value]),
	);
	return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`;
}

describe('Events › envelope, headers and signature', () => {
	it('order.created for a letter: envelope, headers, and a signature a receiver can verify', async () => {
		const sandbox = await setup();
		const server = await receiver(() => ({ status: 200 }));
		const endpoint = sandbox.control.registerWebhook({ url: server.url });
		const id = await newLetter(sandbox.baseUrl, { paymentMethod: 'invoice', tag: 'x' }, 3);
		const [delivery] = await sandbox.control.waitForDeliveries((all) => all.length === 1 && finished(all[0]));
		expect(delivery.state).toBe('delivered');
		const [request] = server.requests;
		expect(request.headers).toMatchObject({
			'content-type': 'application/json',
			'user-agent': 'Service-Webhooks/1.0',
			'x-webhook-event': 'order.created',
			'x-webhook-delivery': String(delivery.deliveryId),
			'x-webhook-environment': 'homolog',
		});
		expect(request.headers['x-webhook-timestamp']).toMatch(SAO_PAULO);
		expect(verify(request.body, request.headers['x-webhook-signature'] as string, SECRET)).toBe(true);
		expect(verify(request.body, request.headers['x-webhook-signature'] as string, 'other')).toBe(false);
		expect(request.body).toBe(delivery.body);
		const body = JSON.parse(request.body);
		expect(Object.keys(body)).toEqual(['event', 'environment', 'timestamp', 'webhook_id', 'delivery_id', 'data']);
		expect(body).toMatchObject({ event: 'order.created', environment: 'homolog', webhook_id: endpoint.id, delivery_id: delivery.deliveryId });
		expect(body.timestamp).toMatch(SAO_PAULO);
		expect(body.timestamp.slice(0, 16)).toBe(saoPauloNow());
		expect(body.data).toEqual({
			id,
			type: 'letter',
			status: 0,
			shipType: '1',
			numPages: 3,
			value: expect.any(Number),
			created_at: expect.stringMatching(SAO_PAULO),
			paymentMethod: 'invoice',
			recipient: { name: 'Ana Souza', addr1: 'Avenida Paulista', addr2: '', city: 'São Paulo', state: 'SP', zip: '01310-200', country: 'Brasil' },
			sender: {
				name_sender: expect.any(String),
				addr1_sender: expect.any(String),
				addr2_sender: expect.any(String),
				city_sender: 'Campinas',
				state_sender: 'SP',
				zip_sender: expect.any(String),
				country_sender: 'Brasil',
			},
		});
	});

	it('order.created for a registered e-mail; environment production from the setting', async () => {
		const sandbox = await setup({ environment: 'production' });
		const server = await receiver(() => ({ status: 200 }));
		sandbox.control.registerWebhook({ url: server.url, events: ['order.created'] });
		const order = sandbox.control.createEmailOrder({ email: 'ana@example.com', name: 'Ana', subject: 'Aviso' });
		const [delivery] = await sandbox.control.waitForDeliveries((all) => all.length === 1 && finished(all[0]));
		expect(server.requests[0].headers['x-webhook-environment']).toBe('production');
		expect(delivery.payload).toMatchObject({
			environment: 'production',
			data: {
				id: order.id,
				type: 'email',
				status: 1,
				recipient: { name: 'Ana', email: 'ana@example.com' },
				sender: { name_sender: expect.any(String), email_sender: expect.any(String), email_replyTo: expect.any(String) },
				subject: 'Aviso',
				value: expect.any(Number),
				created_at: expect.stringMatching(SAO_PAULO),
				paymentMethod: 'credits',
			},
		});
	});

	it('no X-Webhook-Signature for an endpoint without a secret; its own secret otherwise', async () => {
		const sandbox = await setup();
		const server = await receiver(() => ({ status: 200 }));
		sandbox.control.registerWebhook({ url: `${server.url}/unsigned`, secret: null });
		sandbox.control.registerWebhook({ url: `${server.url}/own`, secret: 'own-secret' });
		sandbox.control.createEmailOrder({ email: 'ana@example.com' });
		await sandbox.control.waitForDeliveries((all) => all.length === 2 && all.every(finished));
		const unsigned = server.requests.find((r) => r.url === '/unsigned')!;
		const own = server.requests.find((r) => r.url === '/own')!;
		expect(unsigned.headers['x-webhook-signature']).toBeUndefined();
		expect(verify(own.body, own.headers['x-webhook-signature'] as string, 'own-secret')).toBe(true);
	});
});

describe('Events › payloads', () => {
	it('order.status_updated, tracking.updated (both detail types) and rr.created', async () => {
		const sandbox = await setup();
		const server = await receiver(() => ({ status: 200 }));
		sandbox.control.registerWebhook({ url: server.url, events: ['order.status_updated', 'tracking.updated', 'rr.created'] });
		const id = await newLetter(sandbox.baseUrl, { shipType: '3' });
		sandbox.control.setOrderStatus(id, 1);
		sandbox.control.addTrackingEvent(id);
		sandbox.control.addTrackingEvent(id);
		sandbox.control.addReturnReceipt(id);
		sandbox.control.addReturnReceipt(id, { unreadable: true });
		const email = sandbox.control.createEmailOrder({ email: 'ana@example.com' });
		sandbox.control.setOrderStatus(email.id as string, 3, { opened: true });
		const all = await sandbox.control.waitForDeliveries((d) => d.length === 6 && d.every(finished));
		const payloads = all.map((d) => d.payload as Record<string, unknown> & { data: Record<string, unknown> });

		expect(payloads[0]).toMatchObject({ event: 'order.status_updated', data: { id, type: 'letter', status: { old: 0, new: 1 }, tracking: '' } });
		expect(payloads[0].data.files).toEqual([
			{ type: 'pdf', created_at: expect.stringMatching(SAO_PAULO) },
			{ type: 'letter_front', created_at: expect.stringMatching(SAO_PAULO) },
		]);
		expect(payloads[0].data.updated_at).toMatch(SAO_PAULO);

		expect(payloads[1]).toMatchObject({ event: 'tracking.updated', event_detail_type: 'new_tracking_code' });
		expect(Object.keys(payloads[1])).toEqual(['event', 'environment', 'timestamp', 'webhook_id', 'delivery_id', 'event_detail_type', 'data']);
		const code = payloads[1].data.tracking_code;
		expect(payloads[1].data).toMatchObject({ id, type: 'letter', tracking_records: { codObjeto: code, eventos: [] }, status_delivery: '' });
		expect(payloads[2]).toMatchObject({ event_detail_type: 'new_tracking_record', data: { tracking_code: code } });
		const eventos = (payloads[2].data.tracking_records as { eventos: unknown[] }).eventos;
		expect(eventos[0]).toMatchObject({ codigo: 'PO', dtHrCriado: expect.any(String), descricao: expect.any(String), unidade: { endereco: { cidade: expect.any(String), uf: expect.any(String) } } });

		expect(payloads[3]).toMatchObject({ event: 'rr.created', data: { id, type: 'letter', rr_type: 'rr', tracking_code: code, file: { name: expect.any(String), base64: expect.any(String) } } });
		expect(Buffer.from((payloads[3].data.file as { base64: string }).base64, 'base64').subarray(0, 5).toString()).toBe('%PDF-');
		expect(payloads[4].data.file).toBeNull();

		expect(payloads[5]).toMatchObject({ event: 'order.status_updated', data: { id: email.id, type: 'email', status: { old: 1, new: 3 }, opened: true, date_opened: expect.stringMatching(SAO_PAULO) } });
		expect(payloads[5].data).not.toHaveProperty('tracking');
		expect(payloads[5].data).not.toHaveProperty('files');
	});

	it('a cancellation through the API emits order.status_updated; subscriptions filter events', async () => {
		const sandbox = await setup();
		const server = await receiver(() => ({ status: 200 }));
		sandbox.control.registerWebhook({ url: server.url, events: ['order.status_updated'] });
		const id = await newLetter(sandbox.baseUrl);
		await fetch(`${sandbox.baseUrl}/api/v2/delete/${TOKEN}/${id}`, { method: 'DELETE' });
		const [delivery] = await sandbox.control.waitForDeliveries((all) => all.length === 1 && finished(all[0]));
		expect(delivery.payload).toMatchObject({ event: 'order.status_updated', data: { id, status: { old: 0, new: 5 } } });
	});

	it('webhook.test: message, webhook_id, webhook_name', async () => {
		const sandbox = await setup();
		const server = await receiver(() => ({ status: 200 }));
		const endpoint = sandbox.control.registerWebhook({ url: server.url, name: 'Meu n8n' });
		sandbox.control.sendTestEvent(endpoint.id);
		const [delivery] = await sandbox.control.waitForDeliveries((all) => all.length === 1 && finished(all[0]));
		expect(delivery.payload).toMatchObject({ event: 'webhook.test', data: { message: expect.any(String), webhook_id: endpoint.id, webhook_name: 'Meu n8n' } });
	});
});

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

	it('spaces the retries 5, 10 and 20 "minutes" apart', async () => {
		const sandbox = await setup({ timeScale: 30 });
		const times: number[] = [];
		const server = await receiver(() => {
			times.push(Date.now());
			return { status: 500 };
		});
		sandbox.control.registerWebhook({ url: server.url });
		sandbox.control.createEmailOrder({ email: 'ana@example.com' });
		await sandbox.control.waitForDeliveries((all) => all[0]?.attempts.length === 4 && finished(all[0]), 5_000);
		const gaps = times.slice(1).map((t, i) => t - times[i]);
		[5, 10, 20].forEach((minutes, i) => {
			expect(gaps[i]).toBeGreaterThanOrEqual(minutes * 30 - 5);
			expect(gaps[i]).toBeLessThan(minutes * 30 + 150);
		});
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
