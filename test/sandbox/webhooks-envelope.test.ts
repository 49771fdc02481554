/** Webhook deliveries as sent: the envelope, the headers, and a signature a receiver can verify. */
import { describe, expect, it } from 'vitest';

import { saoPauloDateTime } from '../../sandbox/util';
import { finished, newLetter, SAO_PAULO, SECRET, useWebhookRigs, verify } from './support';

const { setup, receiver } = useWebhookRigs();

/** The current minute in São Paulo, as a timestamp of the service starts. */
const saoPauloNow = () => saoPauloDateTime().slice(0, 16);

describe('Events › envelope, headers and signature', () => {
	it('order.created for a letter: envelope, headers, and a signature a receiver can verify', async () => {
		const sandbox = await setup();
		const server = await receiver(() => ({ status: 200 }));
		const endpoint = sandbox.control.registerWebhook({ url: server.url });
		const minuteBefore = saoPauloNow();
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
		// Written during the test: its minute is the one it started or ended in.
		expect([minuteBefore, saoPauloNow()]).toContain(body.timestamp.slice(0, 16));
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
