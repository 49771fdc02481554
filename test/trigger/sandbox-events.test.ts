/**
 * The trigger fed by the sandbox's dispatcher: one execution per delivery of every event kind,
 * receipts as binary.
 */
import { describe, expect, it } from 'vitest';

import { binaryBuffer } from '../harness/engine';
import { createLetter, pdfOf, settled, useSandboxDispatcher } from './sandboxRig';
import { serviceFields } from './support';

const setup = useSandboxDispatcher();

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
