/**
 * The trigger fed by the sandbox's own webhook dispatcher: the sandbox serializes, signs, delivers
 * and retries as the spec says; the receiver hands every request, byte for byte, to the trigger
 * through n8n-core, and answers with the node's status, which the sandbox records.
 */
import { randomBytes } from 'node:crypto';

import { afterEach, describe, expect, it } from 'vitest';

import { startSandbox, type Sandbox } from '../../sandbox';
import type { Delivery as SentDelivery } from '../../sandbox';
import { binaryBuffer } from '../harness/engine';
import { startTriggerReceiver, type TriggerReceiver } from './receiver';
import { SECRET, serviceFields, sign } from './support';

const TOKEN = 'trigger-sandbox-token';
// Milliseconds per "minute" of the service's retry back-off: retries after 50, 100 and 200 ms.
const TIME_SCALE = 10;

let sandbox: Sandbox | undefined;
let receiver: TriggerReceiver | undefined;

afterEach(async () => {
	await sandbox?.stop();
	await receiver?.close();
	sandbox = undefined;
	receiver = undefined;
});

async function setup(options: {
	environment?: 'production' | 'homolog';
	parameters?: Record<string, unknown>;
	endpointSecret?: string | null;
	events?: string[];
}) {
	sandbox = await startSandbox({
		port: 0,
		token: TOKEN,
		webhookSecret: SECRET,
		environment: options.environment ?? 'production',
		timeScale: TIME_SCALE,
		quiet: true,
	});
	receiver = await startTriggerReceiver({ parameters: options.parameters as never });
	const endpoint = sandbox.control.registerWebhook({
		url: receiver.url,
		events: options.events,
		...(options.endpointSecret !== undefined ? { secret: options.endpointSecret } : {}),
	});
	return { sandbox, receiver, endpoint };
}

/** A registered electronic letter with return receipt (shipType 10), created through the API. */
async function createLetter(s: Sandbox): Promise<string> {
	const form = new URLSearchParams({
		userSecurityToken: TOKEN,
		shipType: '10',
		name: 'Ana Souza',
		addr1: 'Rua da Aurora',
		street_number: '100',
		zip: '50050-000',
		city: 'Recife',
		state: 'PE',
		country: 'Brasil',
		ecarta_msg: 'Prezada Ana, segue a notificação combinada.',
	});
	const response = await fetch(`${s.baseUrl}/api/v2/post`, { method: 'POST', body: form });
	const body = (await response.json()) as { status: number; data: unknown; status_message: string };
	if (response.status !== 200 || typeof body.data !== 'string') {
		throw new Error(`order not created: ${response.status} ${JSON.stringify(body)}`);
	}
	return body.data;
}

const finished = (d: SentDelivery) => d.state === 'delivered' || d.state === 'failed';

async function settled(s: Sandbox, count: number): Promise<SentDelivery[]> {
	return await s.control.waitForDeliveries((all) => all.length >= count && all.every(finished), 20_000);
}

function pdfOf(size: number): Buffer {
	const head = Buffer.from('%PDF-1.4\n');
	const tail = Buffer.from('\n%%EOF\n');
	return Buffer.concat([head, randomBytes(size - head.length - tail.length), tail]);
}

describe('trigger with the sandbox dispatcher: every event kind', () => {
	it('starts one execution per delivery, with the envelope as sent and the receipt as binary', async () => {
		const { sandbox: s, receiver: r, endpoint } = await setup({});
		const letter = await createLetter(s);
		s.control.createEmailOrder({ email: 'ana@example.com', subject: 'Notificação' });
		s.control.setOrderStatus(letter, 1);
		s.control.addTrackingEvent(letter);
		s.control.addTrackingEvent(letter);
		const pdf = pdfOf(50_000);
		s.control.addReturnReceipt(letter, { pdf });
		s.control.addReturnReceipt(letter, { unreadable: true });
		s.control.sendTestEvent(endpoint.id);

		const deliveries = await settled(s, 8);
		expect(deliveries.map((d) => d.event).sort()).toEqual([
			'order.created',
			'order.created',
			'order.status_updated',
			'rr.created',
			'rr.created',
			'tracking.updated',
			'tracking.updated',
			'webhook.test',
		]);
		for (const d of deliveries) {
			expect(d.state).toBe('delivered');
			expect(d.attempts.map((a) => a.status)).toEqual([200]);
		}
		expect(r.received.map((x) => x.status)).toEqual(deliveries.map(() => 200));
		expect(r.executions()).toBe(8);

		const items = r.items();
		expect(items).toHaveLength(8);
		const byDelivery = new Map(items.map((item) => [item.json.delivery_id, item]));
		for (const d of deliveries) {
			const item = byDelivery.get(d.deliveryId)!;
			expect(item, `delivery ${d.deliveryId}`).toBeDefined();
			if (d.event !== 'rr.created') {
				expect(serviceFields(item.json)).toEqual(d.payload);
				continue;
			}
			const file = (d.payload.data as { file: { name: string; base64: string } | null }).file;
			if (file === null) {
				expect(item.json).toMatchObject({ fileUnreadable: true, data: { file: null } });
				expect(item.binary).toBeUndefined();
			} else {
				expect(item.json).toMatchObject({ fileUnreadable: false, data: { file: { name: file.name } } });
				expect(item.binary?.data).toMatchObject({ fileName: file.name, mimeType: 'application/pdf' });
				expect((await binaryBuffer(item)).equals(pdf)).toBe(true);
			}
		}
		const tracking = items.filter((item) => item.json.event === 'tracking.updated').map((item) => item.json.event_detail_type);
		expect(tracking.sort()).toEqual(['new_tracking_code', 'new_tracking_record']);
	});

	it('takes a 10 MB rr.created and keeps the file byte for byte', async () => {
		const { sandbox: s, receiver: r } = await setup({ events: ['rr.created'] });
		const letter = await createLetter(s);
		const pdf = pdfOf(7_600_000);
		s.control.addReturnReceipt(letter, { pdf });
		const [d] = await settled(s, 1);
		expect(Buffer.byteLength(d.body)).toBeGreaterThan(10_000_000);
		expect(r.received[0].request.rawBody.length).toBe(Buffer.byteLength(d.body));
		expect(d.attempts.map((a) => a.status)).toEqual([200]);
		const [item] = r.items();
		const sent = (d.payload.data as { file: { name: string } }).file;
		expect(sent.name).toMatch(new RegExp(`^${letter}-`));
		expect(item.binary?.data).toMatchObject({ mimeType: 'application/pdf', fileName: sent.name });
		expect((await binaryBuffer(item)).equals(pdf)).toBe(true);
		expect(JSON.stringify(item.json).length).toBeLessThan(2_000);
	});
});

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

describe('trigger with the sandbox dispatcher: acknowledged without an execution', () => {
	it('answers 200 to an event the workflow does not listen to, so the service neither retries nor pauses', async () => {
		const { sandbox: s, receiver: r, endpoint } = await setup({ parameters: { events: ['rr.created'] } });
		const letter = await createLetter(s);
		s.control.setOrderStatus(letter, 1);
		s.control.addTrackingEvent(letter);
		s.control.sendTestEvent(endpoint.id);
		const deliveries = await settled(s, 4);
		for (const d of deliveries) expect(d.attempts.map((a) => a.status)).toEqual([200]);
		expect(r.executions()).toBe(0);
		expect(s.control.webhooks()[0].paused).toBe(false);
		expect(deliveries[0].attempts[0].responseBody).toMatch(/not one this workflow listens to/);
	});

	it('answers 200 to a delivery from the other environment', async () => {
		const { sandbox: s, receiver: r } = await setup({ environment: 'homolog', parameters: { environment: 'production' } });
		s.control.createEmailOrder({ email: 'ana@example.com' });
		const [d] = await settled(s, 1);
		expect(d.payload.environment).toBe('homolog');
		expect(d.attempts.map((a) => a.status)).toEqual([200]);
		expect(r.executions()).toBe(0);
	});

	it('answers 200 to a delivery resent from the panel, without a second execution', async () => {
		const { sandbox: s, receiver: r } = await setup({});
		s.control.createEmailOrder({ email: 'ana@example.com' });
		const [d] = await settled(s, 1);
		await s.control.resendDelivery(d.deliveryId);
		const [again] = s.control.deliveries({ deliveryId: d.deliveryId });
		expect(again.attempts.map((a) => a.status)).toEqual([200, 200]);
		expect(again.attempts[1].responseBody).toMatch(/already processed/);
		expect(r.received.map((x) => JSON.parse(x.request.rawBody.toString()).delivery_id)).toEqual([d.deliveryId, d.deliveryId]);
		expect(r.executions()).toBe(1);
	});
});

describe('trigger with the sandbox dispatcher: retries', () => {
	it('starts one execution when the answer to a processed delivery is lost and the service retries', async () => {
		const { sandbox: s, receiver: r } = await setup({});
		r.loseAnswer = 1;
		s.control.createEmailOrder({ email: 'ana@example.com' });
		const [d] = await s.control.waitForDeliveries((all) => all.length === 1 && all[0].state === 'delivered', 20_000);
		expect(d.attempts.map((a) => a.status)).toEqual([500, 200]);
		const ids = r.received.map((x) => JSON.parse(x.request.rawBody.toString()).delivery_id);
		expect(ids).toEqual([d.deliveryId, d.deliveryId]);
		// Each attempt carries its own time; the body (and so delivery_id) is the same bytes.
		expect(r.received[0].request.rawBody.equals(r.received[1].request.rawBody)).toBe(true);
		expect(r.executions()).toBe(1);
		expect(d.attempts[1].responseBody).toMatch(/already processed/);
	});

	it('starts one execution when the first attempt never reached n8n', async () => {
		const { sandbox: s, receiver: r } = await setup({});
		r.failBefore = 1;
		s.control.createEmailOrder({ email: 'ana@example.com' });
		const [d] = await s.control.waitForDeliveries((all) => all.length === 1 && all[0].state === 'delivered', 20_000);
		expect(d.attempts.map((a) => a.status)).toEqual([500, 200]);
		expect(r.executions()).toBe(1);
		expect(r.items().map((i) => serviceFields(i.json))).toEqual([d.payload]);
	});
});
