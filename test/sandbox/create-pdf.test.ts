/**
 * POST /api/v2/post: the PDF as a loopback URL, a data: URL, 150 pages, bytes that are not a PDF. Bad
 * base64, a URL off loopback and the duplex a PDF forces are rows of create-rules.test.ts.
 */
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startHttpServer } from '../harness/httpServer';
import { createOrder, createOrderForm, letter, orderOutcomes, pdfWithPages, useSandbox } from './support';

const ctx = useSandbox();
const { refused } = orderOutcomes(ctx);

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

	// Past 150 pages and a password are refused through the node by test/node/pdfRules.test.ts.
	it('accepts 150 pages', async () => {
		const many = await PDFDocument.create();
		for (let i = 0; i < 150; i++) many.addPage([50, 50]);
		const ok = await createOrder(ctx.base, letter({ test: '1' }), Buffer.from(await many.save()));
		expect(ok.status).toBe(200);
	});

	it('refuses something that is not a PDF', async () => {
		await refused(letter(), Buffer.from('hello, not a pdf'), 'não é um PDF válido');
	});

	it('takes a data: URL prefix on base64', async () => {
		const pdf = await pdfWithPages(1);
		const answer = await createOrderForm(ctx.base, letter({ pdfFile: `data:application/pdf;base64,${pdf.toString('base64')}` }));
		expect(answer.status).toBe(200);
	});
});
