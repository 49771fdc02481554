/** POST /api/v2/post: what it answers, its price-only mode (test=1), and what an order costs the balance. */
import { describe, expect, it } from 'vitest';

import { PRICE_TABLE } from '../../sandbox';
import { call, createOrder, createOrderForm, letter, orderOutcomes, pdfWithPages, TOKEN, useSandbox } from './support';

const ctx = useSandbox();
const { created, refused } = orderOutcomes(ctx);

describe('Endpoints › POST /api/v2/post › responses', () => {
	it('accepts a multipart order and answers a string of digits with the fixed message', async () => {
		const answer = await createOrder(ctx.base, letter(), await pdfWithPages(1));
		expect(answer.status).toBe(200);
		expect(answer.body).toEqual({ status: 200, status_message: 'Sucesso - pedido aceito', data: expect.stringMatching(/^\d+$/) });
	});

	it('accepts application/x-www-form-urlencoded with the PDF in base64', async () => {
		const pdf = await pdfWithPages(3);
		const answer = await createOrderForm(ctx.base, letter({ pdfFile: pdf.toString('base64') }));
		expect(answer.body.status_message).toBe('Sucesso - pedido aceito');
		expect(ctx.sandbox.control.order(answer.body.data)).toMatchObject({ numPages: 3, pdf_available: true });
	});

	it('refuses other content types with 400', async () => {
		// The token in the query: a key of a JSON body is not the form field the route reads it from.
		const answer = await call(`${ctx.base}/api/v2/post?userSecurityToken=${TOKEN}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(letter()),
		});
		expect(answer.status).toBe(400);
		expect(answer.body.status_message).toMatch(/^Requisição incompleta/);
	});

});

describe('Endpoints › POST /api/v2/post › rule 8 test=1', () => {
	it('validates, returns {value} and creates nothing', async () => {
		const balance = ctx.sandbox.control.balance();
		const answer = await createOrder(ctx.base, letter({ test: '1' }), await pdfWithPages(1));
		expect(answer.status).toBe(200);
		expect(answer.body.data).toEqual({ value: expect.any(Number) });
		expect(answer.body.status_message).toMatch(/válidos/);
		expect(ctx.sandbox.control.orders()).toHaveLength(0);
		expect(ctx.sandbox.control.balance()).toBe(balance);
	});

	it('still refuses invalid data', async () => {
		await refused(letter({ test: '1', zip: '123' }), await pdfWithPages(1), 'zip');
	});

	it('prices with the sandbox table: shipping plus sheets', async () => {
		const answer = await createOrder(ctx.base, letter({ test: '1', duplex_printing: '0' }), await pdfWithPages(3));
		const expected = PRICE_TABLE.shipping[1] + PRICE_TABLE.firstSheet + 2 * PRICE_TABLE.extraSheet;
		expect(answer.body.data.value).toBeCloseTo(expected, 2);
	});
});

describe('Resources › Order › price and balance', () => {
	it('takes the value from the balance when paid with service_credits', async () => {
		const before = ctx.sandbox.control.balance();
		const order = await created(letter(), await pdfWithPages(1));
		expect(order.status).toBe(0);
		expect(ctx.sandbox.control.balance()).toBeCloseTo(before - (order.value as number), 2);
	});

	it('gives status 2 (insufficient credits) when the balance cannot pay, and charges nothing', async () => {
		ctx.sandbox.control.setBalance(1);
		const order = await created(letter(), await pdfWithPages(1));
		expect(order.status).toBe(2);
		expect(ctx.sandbox.control.balance()).toBe(1);
	});

	it('leaves the balance alone for invoice', async () => {
		const before = ctx.sandbox.control.balance();
		await created(letter({ paymentMethod: 'invoice' }), await pdfWithPages(1));
		expect(ctx.sandbox.control.balance()).toBe(before);
	});
});
