/**
 * The page count the node reads from a PDF's page tree, held against pdf-lib's own count on
 * generated documents (classic cross-reference tables, and object plus cross-reference streams),
 * and the limits it enforces with it before anything is sent.
 */
import fc from 'fast-check';
import { PDFDocument, PDFName, PDFNumber } from 'pdf-lib';
import { describe, expect, it } from 'vitest';

import { countPdfPages } from '../../nodes/PostalService/contract/pdfPages';
import { LETTER, makePdf, pdfItem, run, useSandbox } from './fixture';

const ctx = useSandbox();
const SEED = Number(process.env.PROPERTY_SEED ?? 20261123);

async function blankPdf(pages: number, options: { useObjectStreams: boolean; nested?: boolean }): Promise<Buffer> {
	const doc = await PDFDocument.create();
	for (let i = 0; i < pages; i++) doc.addPage([200 + (i % 7), 300]);
	return Buffer.from(await doc.save({ useObjectStreams: options.useObjectStreams, objectsPerTick: Infinity }));
}

/** Appends an incremental update that keeps only the first page in the root page tree, as editors do. */
function withFirstPageOnly(original: Buffer, pagesRef: string, firstPage: string): Buffer {
	const text = original.toString('latin1');
	const prev = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(text)![1];
	const [num, gen] = pagesRef.split(' ');
	const body = `${num} ${gen} obj\n<< /Type /Pages /Kids [${firstPage}] /Count 1 >>\nendobj\n`;
	const offset = original.length;
	const xref = offset + Buffer.byteLength(body, 'latin1');
	const size = /\/Size (\d+)/.exec(text)?.[1] ?? String(Number(num) + 1);
	const root = /\/Root (\d+ \d+ R)/.exec(text)![1];
	const update =
		body +
		`xref\n${num} 1\n${String(offset).padStart(10, '0')} ${gen.padStart(5, '0')} n \n` +
		`trailer\n<< /Size ${size} /Root ${root} /Prev ${prev} >>\nstartxref\n${xref}\n%%EOF\n`;
	return Buffer.concat([original, Buffer.from(update, 'latin1')]);
}

describe('countPdfPages', () => {
	it('agrees with pdf-lib on generated PDFs, with and without object streams', async () => {
		await fc.assert(
			fc.asyncProperty(fc.integer({ min: 1, max: 180 }), fc.boolean(), async (pages, useObjectStreams) => {
				const pdf = await blankPdf(pages, { useObjectStreams });
				expect(await countPdfPages(pdf)).toBe(pages);
				const loaded = await PDFDocument.load(pdf);
				expect(loaded.getPageCount()).toBe(pages);
			}),
			{ seed: SEED, numRuns: 40 },
		);
	});

	it('reads object streams and cross-reference streams (the catalog is compressed)', async () => {
		const pdf = await blankPdf(151, { useObjectStreams: true });
		expect(pdf.toString('latin1')).toContain('/ObjStm');
		expect(pdf.toString('latin1')).not.toMatch(/\/Type\s*\/Pages/);
		expect(await countPdfPages(pdf)).toBe(151);
	});

	it('takes the newest version of the page tree from an incremental update', async () => {
		const pdf = await blankPdf(3, { useObjectStreams: false });
		const doc = await PDFDocument.load(pdf);
		const pagesRef = doc.catalog.get(PDFName.of('Pages'))!.toString().replace(/ R$/, '');
		expect(doc.catalog.Pages().get(PDFName.of('Count'))).toEqual(PDFNumber.of(3));
		const firstPage = doc.getPage(0).ref.toString();
		expect(await countPdfPages(pdf)).toBe(3);
		expect(await countPdfPages(withFirstPageOnly(pdf, pagesRef, firstPage))).toBe(1);
	});

	it('never throws on damaged files: a whole number, or unknown', async () => {
		const base = await blankPdf(5, { useObjectStreams: true });
		const classic = await blankPdf(5, { useObjectStreams: false });
		await fc.assert(
			fc.asyncProperty(
				fc.constantFrom(base, classic),
				fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 8 }),
				fc.option(fc.nat(), { nil: undefined }),
				async (pdf, flips, cut) => {
					const bytes = Buffer.from(pdf);
					for (const [at, value] of flips) bytes[at % bytes.length] = value;
					const damaged = cut === undefined ? bytes : bytes.subarray(0, cut % bytes.length);
					const count = await countPdfPages(damaged);
					expect(count === undefined || (Number.isInteger(count) && count >= 0)).toBe(true);
				},
			),
			{ seed: SEED, numRuns: 300 },
		);
	});

	it('gives up on what is not a PDF', async () => {
		expect(await countPdfPages(Buffer.from('hello'))).toBeUndefined();
		expect(await countPdfPages(Buffer.from('%PDF-1.7\n% no objects at all\n%%EOF'))).toBeUndefined();
	});
});

describe('page limits checked before sending', () => {
	it('refuses a 151-page PDF from binary data, naming the limit, and sends nothing', async () => {
		const result = await run(ctx.sandbox, LETTER, { items: [await pdfItem(151)] });
		expect(result.error?.message).toMatch(/\(pdfFile\) has 151 pages; the limit is 150 pages\. Nothing was sent\./);
		expect(ctx.sandbox.control.requests({ path: '/api/v2/post' })).toHaveLength(0);
	});

	it('refuses a 151-page PDF given as base64 (object streams), and sends nothing', async () => {
		const pdf = await blankPdf(151, { useObjectStreams: true });
		const result = await run(ctx.sandbox, { ...LETTER, pdfSource: 'base64', pdfBase64: pdf.toString('base64') });
		expect(result.error?.message).toMatch(/\(pdfFile\) has 151 pages; the limit is 150 pages\. Nothing was sent\./);
		expect(ctx.sandbox.control.requests({ path: '/api/v2/post' })).toHaveLength(0);
	});

	it('refuses the auto-envelope with a two-page PDF, for Get Price too', async () => {
		for (const operation of ['create', 'getPrice']) {
			const result = await run(
				ctx.sandbox,
				{ ...LETTER, operation, additionalFields: { envelopeType: 'autoenvelope' } },
				{ items: [await pdfItem(2)] },
			);
			expect(result.error?.message).toMatch(/autoenvelope.*single-page PDF.*has 2 pages/);
		}
		expect(ctx.sandbox.control.requests({ path: '/api/v2/post' })).toHaveLength(0);
	});

	it('sends 150 pages, and a one-page auto-envelope letter', async () => {
		const full = await run(ctx.sandbox, LETTER, { items: [await pdfItem(150)] });
		expect(full.error).toBeUndefined();
		const auto = await run(ctx.sandbox, { ...LETTER, additionalFields: { envelopeType: 'autoenvelope' } }, { items: [await pdfItem(1)] });
		expect(auto.error).toBeUndefined();
		expect(ctx.sandbox.control.orders().map((o) => o.numPages)).toEqual([150, 1]);
	});

	it('leaves a PDF whose page tree it cannot read to the service', async () => {
		const pdf = await makePdf(2);
		// The cross-reference data and the trailer are gone: the page tree cannot be found.
		const broken = pdf.subarray(0, pdf.lastIndexOf('xref'));
		const result = await run(ctx.sandbox, LETTER, {
			items: [{ json: {}, binary: { data: { data: broken, fileName: 'broken.pdf', mimeType: 'application/pdf' } } }],
		});
		expect(ctx.sandbox.control.requests({ path: '/api/v2/post' })).toHaveLength(1);
		expect(result.error === undefined || /Service message/.test(result.error.description ?? '')).toBe(true);
	});
});
