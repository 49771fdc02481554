/** An order moving through its statuses: the files, receipts and tracking events that appear on the way. */
import { describe, expect, it } from 'vitest';

import { createOrder, letter, newLetter, orderRoutes, useSandbox } from './support';

const ctx = useSandbox();
const { get, download } = orderRoutes(ctx);

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

	it('rr for a paper AR, rr_electronic for an electronic one, through addReturnReceipt, counted in rr_count', async () => {
		const paper = await newLetter(ctx.base, { shipType: '3' });
		ctx.sandbox.control.addReturnReceipt(paper);
		ctx.sandbox.control.addReturnReceipt(paper, { rrType: 'rr' });
		const data = (await get(paper)).body.data;
		expect(data).toMatchObject({ rr_available: true, rr_count: 2 });
		expect(data.files.map((f: { type: string }) => f.type)).toEqual(['pdf', 'rr', 'rr']);
		const digital = await newLetter(ctx.base, { shipType: '3', ar_type: 'electronic' });
		ctx.sandbox.control.addReturnReceipt(digital);
		expect((await get(digital)).body.data.files.map((f: { type: string }) => f.type)).toEqual(['pdf', 'rr_electronic']);
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
