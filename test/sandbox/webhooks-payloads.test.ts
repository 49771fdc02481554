/** The data of each webhook event, and the events a subscription lets through. */
import { describe, expect, it } from 'vitest';

import { finished, newLetter, SAO_PAULO, TOKEN, useWebhookRigs } from './support';

const { setup, receiver } = useWebhookRigs();

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
