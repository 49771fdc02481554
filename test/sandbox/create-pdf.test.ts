/**
 * POST /api/v2/post: the PDF (file, base64, data: URL or loopback URL; pages) and the
 * duplex it forces.
 */
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startHttpServer } from '../harness/httpServer';
import { createOrder, createOrderForm, letter, orderOutcomes, pdfWithPages, useSandbox } from './support';

const ctx = useSandbox();
const { created, refused } = orderOutcomes(ctx);

describe('Endpoints › POST /api/v2/post › rule 4 pdfFile', () => {
	let server: Awaited<ReturnType<typeof startHttpServer>>;
	let local = '';
	beforeAll(async () => {
		const three = await pdfWithPages(3);
		server = await startHttpServer((request, res) => {
			res.writeHead(request.url === '/doc.pdf' ? 200 : 404, { 'content-type': 'application/pdf' });
			res.end(request.url === '/doc.pdf' ? three : undefined);
		});
		local = server.url;
	});
	afterAll(async () => await server.close());

	it('fetches a URL on a loopback host and reads its pages', async () => {
		const answer = await createOrderForm(ctx.base, letter({ pdfFile: `${local}/doc.pdf` }));
		expect(answer.body.status_message).toBe('Sucesso - pedido aceito');
		expect(ctx.sandbox.control.order(answer.body.data)).toMatchObject({ numPages: 3 });
		const missing = await createOrderForm(ctx.base, letter({ pdfFile: `${local}/missing.pdf` }));
		expect(missing.status).toBe(400);
		expect(missing.body.status_message).toContain('HTTP 404');
	});

	it('refuses a URL whose host is not loopback, without fetching it', async () => {
		const answer = await createOrderForm(ctx.base, letter({ pdfFile: 'https://docs.example.com/d/abc/export?format=pdf' }));
		expect(answer.status).toBe(400);
		expect(answer.body.status_message).toContain('pdfFile');
	});

	// Past 150 pages and a password are refused through the node by test/node/pdfRules.test.ts.
	it('accepts 150 pages', async () => {
		const many = await PDFDocument.create();
		for (let i = 0; i < 150; i++) many.addPage([50, 50]);
		const ok = await createOrder(ctx.base, letter({ test: '1' }), Buffer.from(await many.save()));
		expect(ok.status).toBe(200);
	});

	it('refuses something that is not a PDF, and bad base64', async () => {
		await refused(letter(), Buffer.from('hello, not a pdf'), 'não é um PDF válido');
		const answer = await createOrderForm(ctx.base, letter({ pdfFile: '***' }));
		expect(answer.status).toBe(400);
		expect(answer.body.status_message).toContain('base64');
	});

	it('takes a data: URL prefix on base64', async () => {
		const pdf = await pdfWithPages(1);
		const answer = await createOrderForm(ctx.base, letter({ pdfFile: `data:application/pdf;base64,${pdf.toString('base64')}` }));
		expect(answer.status).toBe(200);
	});
});

describe('Endpoints › POST /api/v2/post › rule 5 duplex forcing', () => {
	it('forces duplex_printing to 1 for a single-page PDF', async () => {
		const order = await created(letter({ duplex_printing: '0' }), await pdfWithPages(1));
		expect(order.duplex_printing).toBe(1);
	});

	it('keeps the requested duplex for several pages (0, 1, true, false)', async () => {
		const pdf = await pdfWithPages(3);
		expect((await created(letter({ duplex_printing: '0' }), pdf)).duplex_printing).toBe(0);
		expect((await created(letter({ duplex_printing: 'false' }), pdf)).duplex_printing).toBe(0);
		expect((await created(letter({ duplex_printing: 'true' }), pdf)).duplex_printing).toBe(1);
		expect((await created(letter(), pdf)).duplex_printing).toBe(1);
	});

	it('forces 0 for autoenvelope (the autoenvelope rule wins over the single-page one)', async () => {
		const order = await created(letter({ envelope_type: 'autoenvelope', duplex_printing: '1' }), await pdfWithPages(1));
		expect(order).toMatchObject({ duplex_printing: 0, envelope_type: 'autoenvelope' });
	});

	it('refuses autoenvelope with more than one page', async () => {
		await refused(letter({ envelope_type: 'autoenvelope' }), await pdfWithPages(3), 'autoenvelope exige um PDF de uma única página');
	});
});
