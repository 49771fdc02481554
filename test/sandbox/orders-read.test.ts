/** Reading an order and its files: GET /api/v2/get, the file downloads, and the order receipt. */
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';

import { call, newLetter, orderRoutes, pdfWithPages, TOKEN, useSandbox } from './support';

const ctx = useSandbox();
const { get, download } = orderRoutes(ctx);

describe('Endpoints › GET /api/v2/get/{securityToken}/{job_id}', () => {
	it('reads the order with every field of the read shape', async () => {
		const id = await newLetter(ctx.base, { tag: 'contrato-42' }, 3);
		const answer = await get(id);
		expect(answer.status).toBe(200);
		expect(answer.body.status).toBe(200);
		const data = answer.body.data;
		expect(Object.keys(data).sort()).toEqual(
			[
				'id', 'numPages', 'name', 'addr1', 'street_number', 'addr2', 'zip', 'city', 'state', 'country',
				'name_sender', 'addr1_sender', 'street_number_sender', 'addr2_sender', 'zip_sender', 'city_sender',
				'state_sender', 'country_sender', 'shipType', 'tracking', 'status', 'status_delivery',
				'delivery_suspension', 'delivery_suspension_at', 'pdf_available', 'rr_available', 'rr_count',
				'sender_copy_available', 'telegram_copy_available', 'files', 'dateSubmit', 'dateLastChange', 'value',
				'use_client_contract', 'shipping_cost', 'tag', 'tracking_records', 'tracking_records_last_update',
				'telegram_info',
			].sort(),
		);
		expect(data).toMatchObject({
			id,
			numPages: 3,
			shipType: 1,
			status: 0,
			status_delivery: '',
			pdf_available: true,
			rr_available: false,
			rr_count: 0,
			tag: 'contrato-42',
			files: [{ name: 'carta.pdf', type: 'pdf', created_at: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/) }],
		});
		expect(typeof data.value).toBe('number');
		expect(data.dateSubmit).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
	});

	it('answers 400 for an unknown id', async () => {
		const answer = await get('999999');
		expect(answer.status).toBe(400);
		expect(answer.body.data).toBeNull();
	});
});

describe('Endpoints › GET /api/v2/download/{securityToken}/{job_id}/{type}', () => {
	it('returns the downloaded-file object with the PDF in base64', async () => {
		const id = await newLetter(ctx.base, {}, 3);
		const answer = await download(id, 'pdf');
		expect(answer.status).toBe(200);
		expect(Object.keys(answer.body.data).sort()).toEqual(['file_base64', 'file_name', 'file_type', 'id_job']);
		expect(answer.body.data).toMatchObject({ file_name: 'carta.pdf', file_type: 'pdf', id_job: id });
		const doc = await PDFDocument.load(Buffer.from(answer.body.data.file_base64, 'base64'));
		expect(doc.getPageCount()).toBe(3);
	});

	it('gives the most recent return receipt by default and one by file_name on request', async () => {
		const id = await newLetter(ctx.base, { shipType: '3' });
		const first = await pdfWithPages(2);
		ctx.sandbox.control.addReturnReceipt(id, { pdf: first });
		ctx.sandbox.control.addReturnReceipt(id);
		const files = (await get(id)).body.data.files.filter((f: { type: string }) => f.type === 'rr');
		expect(files).toHaveLength(2);
		const latest = await download(id, 'rr');
		expect(latest.body.data.file_name).toBe(files[1].name);
		const chosen = await download(id, 'rr', `?file_name=${encodeURIComponent(files[0].name)}`);
		expect(chosen.body.data.file_name).toBe(files[0].name);
		expect(Buffer.from(chosen.body.data.file_base64, 'base64').equals(first)).toBe(true);
		const unknown = await download(id, 'rr', '?file_name=nope.pdf');
		expect(unknown.status).toBe(400);
	});

	it('answers 400 for a file the order does not have or an unknown type', async () => {
		const id = await newLetter(ctx.base);
		expect((await download(id, 'letter_front')).status).toBe(400);
		expect((await download(id, 'invoice')).status).toBe(400);
	});
});

describe('Endpoints › GET /api/receipts/v1/get', () => {
	it('answers a generated PDF receipt (the token in each place the spec gives: authentication.test.ts)', async () => {
		const id = await newLetter(ctx.base);
		const answer = await call(`${ctx.base}/api/receipts/v1/get?order_id=${id}`, { headers: { securityToken: TOKEN } });
		expect(answer.body.data).toMatchObject({ file_type: 'receipt', id_job: id, file_name: expect.stringMatching(/\.pdf$/) });
		const doc = await PDFDocument.load(Buffer.from(answer.body.data.file_base64, 'base64'));
		expect(doc.getPageCount()).toBe(1);
	});

	it('answers 400 without order_id', async () => {
		const incomplete = await call(`${ctx.base}/api/receipts/v1/get`, { headers: { securityToken: TOKEN } });
		expect(incomplete.status).toBe(400);
	});
});
