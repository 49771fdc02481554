/**
 * The trigger through n8n-core's WebhookContext, with deliveries built and signed by hand as the
 * spec describes them: what an accepted delivery becomes (items, headers, the receipt as binary).
 */
import { randomBytes } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { binaryBuffer } from '../harness/engine';
import { deliver, delivery, orderCreated, returnReceipt } from './support';

describe('trigger: accepted deliveries', () => {
	it('starts one execution with one item: the envelope, its data and fields it does not know', async () => {
		const body: IDataObject = { ...orderCreated(), brand_new_field: { kept: true } };
		(body.data as IDataObject).added_later = 'kept too';
		const outcome = await deliver(delivery(body));
		expect(outcome.status).toBe(200);
		expect(outcome.run).toBeDefined();
		expect(outcome.run?.error).toBeUndefined();
		// The envelope as sent, beside what the trigger adds: the status's meaning and the header's time zone.
		const data = { ...(body.data as IDataObject), statusText: 'Processing' };
		expect(outcome.items.map((item) => item.json)).toEqual([{ ...body, data, timestampHeaderZone: 'America/Sao_Paulo' }]);
		expect(outcome.items[0].binary).toBeUndefined();
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
		const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(7_700_000), Buffer.from('\n%%EOF\n')]);
		const request = delivery(returnReceipt({ name: 'AR-1048576.pdf', base64: pdf.toString('base64') }));
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

	it('never takes a directory from the payload file name, and types non-PDF bytes by name', async () => {
		const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
		const [item] = (await deliver(delivery(returnReceipt({ name: '../../etc/scan.png', base64: png.toString('base64') })))).items;
		expect(item.binary?.data).toMatchObject({ fileName: 'scan.png', mimeType: 'image/png' });
		expect(item.binary?.data.directory).toBeUndefined();
	});
});
