/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
/**
 * The trigger fed by the sandbox's dispatcher: the sandbox serializes, signs and delivers as the
 * spec says; the receiver hands every request, byte for byte, to the trigger through n8n-core. One
 * execution per delivery of every event kind, receipts as binary. Retries of the dispatcher are the
 * duplicate fuzz's (test/reliability/duplicates.suite.ts); a 10 MB receipt is the e2e suite's.
 */
import { randomBytes } from 'node:crypto';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startSandbox, type Sandbox } from '../../sandbox';
import { binaryBuffer } from '../harness/engine';
import { startTriggerReceiver, type TriggerReceiver } from './receiver';
import { SECRET, serviceFields } from './support';

const TOKEN = 'trigger-sandbox-token';
let s: Sandbox;
let r: TriggerReceiver;
let endpoint: ReturnType<Sandbox['control']['registerWebhook']>;

beforeAll(async () => {
	// Ten milliseconds per "minute" of the service's retry back-off.
	s = await startSandbox({
		port: 0,
		token: TOKEN,
		webhookSecret: SECRET,
		environment: 'production',
		timeScale: 10,
		quiet: true,
	});
	r = await startTriggerReceiver();
	endpoint = s.control.registerWebhook({ url: r.url });
});
afterAll(async () => {
	await s?.stop();
	await r?.close();
});

/** A registered electronic letter with return receipt (shipType 10), created through the API. */
async function createLetter(): Promise<string> {
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
	const body = (await (await fetch(`${s.baseUrl}/api/v2/post`, { method: 'POST', body: form })).json()) as { data: unknown };
	if (typeof body.data !== 'string') throw new Error(`order not created: ${JSON.stringify(body)}`);
	return body.data;
}

/** Random bytes of the given size between a PDF's header and end marker. */
function pdfOf(size: number): Buffer {
	const head = Buffer.from('%PDF-1.4\n');
	const tail = Buffer.from('\n%%EOF\n');
	return Buffer.concat([head, randomBytes(size - head.length - tail.length), tail]);
}

describe('trigger with the sandbox dispatcher: every event kind', () => {
	it('starts one execution per delivery, with the envelope as sent and the receipt as binary', async () => {
		const letter = await createLetter();
		s.control.createEmailOrder({ email: 'ana@example.com', subject: 'Notificação' });
		s.control.setOrderStatus(letter, 1);
		s.control.addTrackingEvent(letter);
		s.control.addTrackingEvent(letter);
		const pdf = pdfOf(50_000);
		s.control.addReturnReceipt(letter, { pdf });
		s.control.addReturnReceipt(letter, { unreadable: true });
		s.control.sendTestEvent(endpoint.id);

		const finished = (d: { state: string }) => d.state === 'delivered' || d.state === 'failed';
		const deliveries = await s.control.waitForDeliveries((all) => all.length >= 8 && all.every(finished), 20_000);
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

});
