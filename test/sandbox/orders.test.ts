import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';

import { call, createOrder, letter, newLetter, pdfWithPages, TOKEN, useSandbox } from './support';

const ctx = useSandbox();

const get = (id: string, token = TOKEN) => call(`${ctx.base}/api/v2/get/${token}/${id}`);
const download = (id: string, type: string, query = '', token = TOKEN) =>
	call(`${ctx.base}/api/v2/download/${token}/${id}/${type}${query}`);
const cancel = (id: string, query = '', token = TOKEN) =>
	call(`${ctx.base}/api/v2/delete/${token}/${id}${query}`, { method: 'DELETE' });

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

	it('answers 401 Token inválido with another token', async () => {
		const id = await newLetter(ctx.base);
		const answer = await get(id, 'other-token');
		expect(answer.status).toBe(401);
		expect(answer.body).toEqual({ status: 401, status_message: 'Token inválido', data: null });
	});

	it('answers 400 for an unknown id', async () => {
		const answer = await get('999999');
		expect(answer.status).toBe(400);
		expect(answer.body.data).toBeNull();
	});
});

describe('States and transitions › letter files appear as the order advances', () => {
	it('pdf at creation, letter_front at 1 In production', async () => {
		const id = await newLetter(ctx.base);
		expect((await get(id)).body.data.files.map((f: { type: string }) => f.type)).toEqual(['pdf']);
		ctx.sandbox.control.setOrderStatus(id, 1);
		const data = (await get(id)).body.data;
		expect(data.status).toBe(1);
		expect(data.files.map((f: { type: string }) => f.type)).toEqual(['pdf', 'letter_front']);
	});

	it('sender_copy for a telegram with copy', async () => {
		const answer = await createOrder(
			ctx.base,
			letter({
				shipType: '4',
				telegram_msg: 'Comunico o vencimento do contrato.',
				telegram_post_dated: '0',
				telegram_sender_copy: '1',
				telegram_delivery_confirmation: '1',
			}),
		);
		const id = answer.body.data;
		ctx.sandbox.control.setOrderStatus(id, 1);
		const data = (await get(id)).body.data;
		expect(data).toMatchObject({ sender_copy_available: true, telegram_copy_available: true });
		const file = await download(id, 'sender_copy');
		expect(file.body.data).toMatchObject({ file_type: 'sender_copy', id_job: id });
	});

	it('rr / rr_electronic through addReturnReceipt, counted in rr_count', async () => {
		const id = await newLetter(ctx.base, { shipType: '3' });
		ctx.sandbox.control.addReturnReceipt(id);
		ctx.sandbox.control.addReturnReceipt(id, { rrType: 'rr_electronic' });
		const data = (await get(id)).body.data;
		expect(data).toMatchObject({ rr_available: true, rr_count: 2 });
		expect(data.files.map((f: { type: string }) => f.type)).toEqual(['pdf', 'rr', 'rr_electronic']);
	});

	it('status_delivery takes the spec values and nothing else', async () => {
		const id = await newLetter(ctx.base);
		ctx.sandbox.control.setOrderStatus(id, 4, { statusDelivery: 'delivered' });
		expect((await get(id)).body.data).toMatchObject({ status: 4, status_delivery: 'delivered' });
		expect(() => ctx.sandbox.control.setOrderStatus(id, 4, { statusDelivery: 'lost' })).toThrow(/statusDelivery/);
		expect(() => ctx.sandbox.control.setOrderStatus(id, 7)).toThrow(/status 7/);
	});

	it('tracking: a code first, then postal events newest first', async () => {
		const id = await newLetter(ctx.base);
		ctx.sandbox.control.addTrackingEvent(id);
		let data = (await get(id)).body.data;
		expect(data.tracking).toMatch(/^[A-Z]{2}\d{9}BR$/);
		expect(data.tracking_records).toEqual({ codObjeto: data.tracking, eventos: [] });
		ctx.sandbox.control.addTrackingEvent(id);
		ctx.sandbox.control.addTrackingEvent(id, { codigo: 'BDE', descricao: 'Objeto entregue ao destinatário', statusDelivery: 'delivered' });
		data = (await get(id)).body.data;
		expect(data.tracking_records.eventos.map((e: { codigo: string }) => e.codigo)).toEqual(['BDE', 'PO']);
		expect(data.tracking_records.eventos[0]).toMatchObject({
			dtHrCriado: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
			unidade: { endereco: { cidade: expect.any(String), uf: expect.any(String) } },
		});
		expect(data.status_delivery).toBe('delivered');
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

	it('answers 400 for a file the order does not have or an unknown type, 401 for another token', async () => {
		const id = await newLetter(ctx.base);
		expect((await download(id, 'letter_front')).status).toBe(400);
		expect((await download(id, 'invoice')).status).toBe(400);
		const denied = await download(id, 'pdf', '', 'x');
		expect(denied.status).toBe(401);
		expect(denied.body.status_message).toBe('Token inválido');
	});
});

describe('Endpoints › DELETE /api/v2/delete/{securityToken}/{job_id}', () => {
	it('cancels status 0 with the default note and gives the credits back', async () => {
		const before = ctx.sandbox.control.balance();
		const id = await newLetter(ctx.base);
		const answer = await cancel(id);
		expect(answer.status).toBe(200);
		expect(answer.body.data).toEqual({ id, status: 5, status_text: 'Cancelado', message: 'Cancelado via API' });
		expect(ctx.sandbox.control.order(id)).toMatchObject({ status: 5, cancel_reason: 'Cancelado via API' });
		expect(ctx.sandbox.control.balance()).toBe(before);
	});

	it('cancels status 2 and takes the reason', async () => {
		ctx.sandbox.control.setBalance(0);
		const id = await newLetter(ctx.base);
		const answer = await cancel(id, '?reason=Pedido%20duplicado');
		expect(answer.body.data).toMatchObject({ status: 5, message: 'Pedido duplicado' });
	});

	it('answers 400 for an already cancelled order without force', async () => {
		const id = await newLetter(ctx.base);
		await cancel(id);
		const again = await cancel(id);
		expect(again.status).toBe(400);
		expect(again.body.data).toBeNull();
	});

	it('answers 400 for other statuses without force (code not shown by the spec: 400 chosen), and cancels with force=yes', async () => {
		const id = await newLetter(ctx.base);
		ctx.sandbox.control.setOrderStatus(id, 3);
		const refused = await cancel(id);
		expect(refused.status).toBe(400);
		expect(refused.body.status_message).toMatch(/force=yes/);
		const forced = await cancel(id, '?force=yes');
		expect(forced.status).toBe(200);
		expect(forced.body.data.status).toBe(5);
	});

	it('answers 401 for another token', async () => {
		const id = await newLetter(ctx.base);
		expect((await cancel(id, '', 'x')).status).toBe(401);
	});
});

describe('Resources › registered e-mail orders', () => {
	it('ids are E + digits; read, cancel and download through the letter routes', async () => {
		const created = ctx.sandbox.control.createEmailOrder({ email: 'ana@example.com', name: 'Ana', subject: 'Notificação' });
		expect(created.id).toMatch(/^E\d+$/);
		const id = created.id as string;
		const read = await get(id);
		expect(read.body.data).toMatchObject({ id, type: 'email', status: 1, recipient: { email: 'ana@example.com' } });
		ctx.sandbox.control.setOrderStatus(id, 3);
		const file = await download(id, 'pdf');
		expect(file.body.data).toMatchObject({ id_job: id, file_type: 'pdf' });
		const forced = await cancel(id, '?force=yes');
		expect(forced.body.data).toMatchObject({ id, status: 4, status_text: 'Cancelado' });
	});

	it('cancels a paid e-mail not yet sent (status 1) without force', async () => {
		const { id } = ctx.sandbox.control.createEmailOrder({ email: 'ana@example.com' });
		expect((await cancel(id as string)).body.data.status).toBe(4);
	});

	it('refuses recipients off the test environment allow-list: status 5 with the reason', async () => {
		const order = ctx.sandbox.control.createEmailOrder({ email: 'someone@elsewhere.test' });
		expect(order).toMatchObject({ status: 5, failure_reason: expect.stringContaining('lista de permissões') });
		ctx.sandbox.control.addEmailRecipient('@elsewhere.test');
		expect(ctx.sandbox.control.createEmailOrder({ email: 'someone@elsewhere.test' }).status).toBe(1);
	});

	it('status 2 when the balance cannot pay', async () => {
		ctx.sandbox.control.setBalance(0);
		expect(ctx.sandbox.control.createEmailOrder({ email: 'ana@example.com' }).status).toBe(2);
	});
});

describe('Endpoints › GET /api/receipts/v1/get', () => {
	it('answers a generated PDF receipt with header, Bearer or query authentication', async () => {
		const id = await newLetter(ctx.base);
		for (const init of [
			{ headers: { securityToken: TOKEN } },
			{ headers: { authorization: `Bearer ${TOKEN}` } },
		]) {
			const answer = await call(`${ctx.base}/api/receipts/v1/get?order_id=${id}`, init);
			expect(answer.status).toBe(200);
			expect(answer.body.data).toMatchObject({ file_type: 'receipt', id_job: id, file_name: expect.stringMatching(/\.pdf$/) });
			const doc = await PDFDocument.load(Buffer.from(answer.body.data.file_base64, 'base64'));
			expect(doc.getPageCount()).toBe(1);
		}
		const byQuery = await call(`${ctx.base}/api/receipts/v1/get?order_id=${id}&userSecurityToken=${TOKEN}`);
		expect(byQuery.status).toBe(200);
	});

	it('answers 401 without a valid token and 400 without order_id', async () => {
		const denied = await call(`${ctx.base}/api/receipts/v1/get?order_id=1`, { headers: { securityToken: 'x' } });
		expect(denied.status).toBe(401);
		const incomplete = await call(`${ctx.base}/api/receipts/v1/get`, { headers: { securityToken: TOKEN } });
		expect(incomplete.status).toBe(400);
	});
});

describe('Endpoints › GET /api/v2/balance/{securityToken}', () => {
	it('answers envelope A with the assumed balance fields', async () => {
		const answer = await call(`${ctx.base}/api/v2/balance/${TOKEN}`);
		expect(answer.body).toEqual({ status: 200, status_message: 'Sucesso', data: { balance: 1000, currency: 'BRL' } });
		ctx.sandbox.control.topUp(50);
		expect((await call(`${ctx.base}/api/v2/balance/${TOKEN}`)).body.data.balance).toBe(1050);
		expect((await call(`${ctx.base}/api/v2/balance/nope`)).status).toBe(401);
	});
});
