/**
 * The trigger through n8n-core's WebhookContext, with deliveries built and signed by hand as the
 * spec describes them. test/trigger/sandbox.test.ts drives the same node with the sandbox's own
 * dispatcher.
 */
import { randomBytes } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { binaryBuffer, nodeType } from '../harness/engine';
import { deliver, delivery, envelope, SECRET, serviceFields, serviceTime, sign } from './support';

const orderCreated = () =>
	envelope('order.created', {
		id: '1048576',
		type: 'letter',
		status: 0,
		shipType: '3',
		numPages: 2,
		value: 21.9,
		created_at: serviceTime(),
		paymentMethod: 'invoice',
		recipient: { name: 'Ana Souza', addr1: 'Rua A', addr2: '', city: 'Recife', state: 'PE', zip: '50000-000', country: 'BR' },
		sender: { name_sender: 'Loja', addr1_sender: 'Rua B', addr2_sender: '', city_sender: 'Recife', state_sender: 'PE', zip_sender: '50000-001', country_sender: 'BR' },
	});

function fakePdf(size: number): Buffer {
	const head = Buffer.from('%PDF-1.7\n');
	const tail = Buffer.from('\n%%EOF\n');
	return Buffer.concat([head, randomBytes(size - head.length - tail.length), tail]);
}

describe('trigger: accepted deliveries', () => {
	it('starts one execution with one item: the envelope, its data and fields it does not know', async () => {
		const body: IDataObject = { ...orderCreated(), brand_new_field: { kept: true } };
		(body.data as IDataObject).added_later = 'kept too';
		const outcome = await deliver(delivery(body));
		expect(outcome.status).toBe(200);
		expect(outcome.run).toBeDefined();
		expect(outcome.run?.error).toBeUndefined();
		expect(outcome.items).toHaveLength(1);
		expect(serviceFields(outcome.items[0].json)).toEqual(body);
		expect(outcome.items[0].binary).toBeUndefined();
	});

	it('keeps event_detail_type of tracking.updated at the top of the item', async () => {
		const body = envelope(
			'tracking.updated',
			{
				id: '1048576',
				type: 'letter',
				tracking_code: 'YA123456789BR',
				tracking_records: { codObjeto: 'YA123456789BR', eventos: [] },
				status_delivery: '',
				updated_at: serviceTime(),
			},
			{ event_detail_type: 'new_tracking_code' },
		);
		const outcome = await deliver(delivery(body));
		expect(outcome.items.map((item) => serviceFields(item.json))).toEqual([body]);
		expect(outcome.items[0].json.event_detail_type).toBe('new_tracking_code');
	});

	it('reads the raw body itself when n8n has not read it yet', async () => {
		const outcome = await deliver({ ...delivery(orderCreated()), deferRawBody: true });
		expect(outcome.status).toBe(200);
		expect(outcome.items).toHaveLength(1);
	});

	it('adds the request headers when asked to', async () => {
		const request = delivery(orderCreated());
		const outcome = await deliver(request, { parameters: { options: { includeHeaders: true } } });
		expect(outcome.items[0].json.headers).toMatchObject({
			'x-webhook-event': 'order.created',
			'x-webhook-signature': request.headers['x-webhook-signature'],
		});
	});

	it('turns the return receipt into binary data with its own bytes, name and type', async () => {
		const pdf = fakePdf(7_700_000);
		const body = envelope('rr.created', {
			id: '1048576',
			type: 'letter',
			rr_type: 'rr',
			tracking_code: 'YA123456789BR',
			file: { name: 'AR-1048576.pdf', base64: pdf.toString('base64') },
		});
		const request = delivery(body);
		expect(request.rawBody.length).toBeGreaterThan(10_000_000);
		const outcome = await deliver(request, { parameters: { options: { binaryPropertyName: 'receipt' } } });
		expect(outcome.status).toBe(200);
		const [item] = outcome.items;
		expect(item.binary?.receipt).toMatchObject({ fileName: 'AR-1048576.pdf', mimeType: 'application/pdf' });
		expect((await binaryBuffer(item, 'receipt')).equals(pdf)).toBe(true);
		expect(item.json.data).toEqual({
			id: '1048576',
			type: 'letter',
			rr_type: 'rr',
			tracking_code: 'YA123456789BR',
			file: { name: 'AR-1048576.pdf' },
		});
		expect(item.json.fileUnreadable).toBe(false);
		expect(JSON.stringify(item.json)).not.toContain(pdf.subarray(0, 30).toString('base64'));
	});

	it('flags a return receipt the service could not read (file: null) and adds no binary', async () => {
		const body = envelope('rr.created', { id: '7', type: 'letter', rr_type: 'rr_electronic', tracking_code: 'X', file: null });
		const outcome = await deliver(delivery(body));
		expect(outcome.items).toHaveLength(1);
		expect(outcome.items[0].json).toMatchObject({ fileUnreadable: true, data: { file: null } });
		expect(outcome.items[0].binary).toBeUndefined();
	});

	it('never takes a directory from the payload file name, and types non-PDF bytes by name', async () => {
		const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
		const body = envelope('rr.created', {
			id: '9',
			type: 'letter',
			rr_type: 'rr',
			tracking_code: 'X',
			file: { name: '../../etc/scan.png', base64: png.toString('base64') },
		});
		const [item] = (await deliver(delivery(body))).items;
		expect(item.binary?.data).toMatchObject({ fileName: 'scan.png', mimeType: 'image/png' });
		expect(item.binary?.data.directory).toBeUndefined();
	});
});

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

describe('trigger: events and environments not listened to', () => {
	it('acknowledges (200) an event the workflow does not listen to, without an execution', async () => {
		const parameters = { events: ['order.created'] };
		const other = envelope('order.status_updated', { id: '1', type: 'letter', status: { old: 0, new: 1 }, updated_at: serviceTime() });
		const unknown = envelope('order.deleted', { id: '1' });
		for (const body of [other, unknown]) {
			const outcome = await deliver(delivery(body), { parameters });
			expect(outcome.status).toBe(200);
			expect(outcome.webhookResponse).toEqual({ noWebhookResponse: true });
			expect(outcome.run).toBeUndefined();
		}
		expect((await deliver(delivery(orderCreated()), { parameters })).items).toHaveLength(1);
	});

	it('acknowledges (200) a delivery from the other environment, without an execution', async () => {
		const homolog = delivery({ ...orderCreated(), environment: 'homolog' });
		const production = delivery(orderCreated());

		const onlyProduction = await deliver(homolog, { parameters: { environment: 'production' } });
		expect(onlyProduction.status).toBe(200);
		expect(onlyProduction.run).toBeUndefined();
		const onlyHomolog = await deliver(production, { parameters: { environment: 'homolog' } });
		expect(onlyHomolog.status).toBe(200);
		expect(onlyHomolog.run).toBeUndefined();

		expect((await deliver(homolog, { parameters: { environment: 'homolog' } })).items).toHaveLength(1);
		expect((await deliver(homolog, { parameters: { environment: 'both' } })).items).toHaveLength(1);
		expect((await deliver(production, { parameters: { environment: 'both' } })).items).toHaveLength(1);
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

describe('trigger: description, credential test and webhook lifecycle', () => {
	it('is a trigger that answers from its execution and is not offered as a tool', async () => {
		const type = await nodeType('n8n-nodes-postal-service.postalServiceTrigger');
		expect(type.description.usableAsTool).toBeUndefined();
		expect(type.description.inputs).toEqual([]);
		// The answer point is the user's choice, read when a request arrives (see answer.ts).
		expect(type.description.webhooks).toEqual([expect.objectContaining({ httpMethod: 'POST', responseMode: expect.stringMatching(/responseNode.*onReceived|onReceived.*responseNode/) })]);
		expect(type.description.credentials).toEqual([
			{ name: 'postalServiceWebhookApi', required: true, testedBy: 'signingSecretTest' },
		]);
	});

	it('tests the secret locally and says it cannot be confirmed remotely', async () => {
		const type = await nodeType('n8n-nodes-postal-service.postalServiceTrigger');
		const test = type.methods!.credentialTest!.signingSecretTest;
		const run = (secret: string) =>
			test.call({} as never, { id: '1', name: 'c', type: 'postalServiceWebhookApi', data: { secret } });
		expect(await run('')).toMatchObject({ status: 'Error' });
		expect(await run('abc\n')).toMatchObject({ status: 'Error' });
		const ok = await run('abc');
		expect(ok.status).toBe('OK');
		expect(ok.message).toMatch(/test button/);
	});

	it('has nothing to register remotely: the lifecycle reports success and stores nothing', async () => {
		const type = await nodeType('n8n-nodes-postal-service.postalServiceTrigger');
		const lifecycle = type.webhookMethods!.default!;
		const staticData: IDataObject = {};
		const context = { getWorkflowStaticData: () => staticData, getNode: () => ({ parameters: {} }) } as never;
		expect(await lifecycle.checkExists.call(context)).toBe(true);
		expect(await lifecycle.create.call(context)).toBe(true);
		expect(await lifecycle.delete.call(context)).toBe(true);
		expect(staticData).toEqual({});
	});

	it('signs as the spec says: sha256= and the hex HMAC of the exact bytes', () => {
		expect(sign('{}', 'k')).toMatch(/^sha256=[0-9a-f]{64}$/);
	});
});
