import { BinaryDataService } from 'n8n-core';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { encryptedPdf } from '../harness/pdfs';
import { LETTER, makePdf, pdfItem, run, useSandbox } from './fixture';

const ctx = useSandbox();

afterEach(() => {
	vi.restoreAllMocks();
});

/** Counts the checks of a PDF's structure, each of which starts at its header (Buffer's own method is observed, nothing replaced). */
function countEncryptScans(): () => number {
	const indexOf = vi.spyOn(Buffer.prototype, 'indexOf');
	return () => indexOf.mock.calls.filter(([value]) => value === '%PDF-').length;
}

describe('Order > Create reads each PDF with one scan', () => {
	it('reads and checks each item’s file once over the validation pass and the send, and sends the same bytes', async () => {
		const items = await Promise.all([pdfItem(1, { tag: 'a' }), pdfItem(2, { tag: 'b' }), pdfItem(3, { tag: 'c' })]);
		// n8n's own store is observed, nothing replaced.
		const reads = vi.spyOn(BinaryDataService.prototype, 'getAsBuffer');
		const scans = countEncryptScans();
		const result = await run(ctx.sandbox, { ...LETTER, tag: '={{ $json.tag }}' }, { items });
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json.tag)).toEqual(['a', 'b', 'c']);
		expect(scans()).toBe(3);
		expect(reads).toHaveBeenCalledTimes(3);
		const sent = ctx.sandbox.control.requests({ path: '/api/v2/post' }).map((r) => r.files[0]?.size);
		expect(sent).toEqual(items.map((item) => item.binary!.data.data.length));
	});

	it('reads a stored file that several items share once for the checks and every send', async () => {
		const items = [await pdfItem(1), { json: {}, binaryOf: 0 }, { json: {}, binaryOf: 0 }];
		// n8n's own store is observed, nothing replaced.
		const reads = vi.spyOn(BinaryDataService.prototype, 'getAsBuffer');
		const scans = countEncryptScans();
		const result = await run(ctx.sandbox, LETTER, { items });
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(3);
		expect(scans()).toBe(1);
		expect(reads).toHaveBeenCalledTimes(1);
		const sent = ctx.sandbox.control.requests({ path: '/api/v2/post' }).map((r) => r.files[0]?.sha256);
		expect(new Set(sent).size).toBe(1);
		expect(sent).toHaveLength(3);
	});

	it('checks a base64 PDF in each pass from the very text that pass sends (no fingerprint of it is trusted)', async () => {
		const pdfs = [await makePdf(1), await makePdf(2)];
		const items = pdfs.map((pdf) => ({ json: { pdf: pdf.toString('base64') } }));
		const scans = countEncryptScans();
		const result = await run(ctx.sandbox, { ...LETTER, pdfSource: 'base64', pdfBase64: '={{ $json.pdf }}' }, { items });
		expect(result.error).toBeUndefined();
		expect(scans()).toBe(2 * 2);
		const sent = ctx.sandbox.control.requests({ path: '/api/v2/post' }).map((r) => r.fields.pdfFile);
		expect(sent).toEqual(items.map((item) => item.json.pdf));
	});

	it('still refuses a protected PDF and a page count over the rule, before sending anything', async () => {
		const protectedPdf = encryptedPdf(6, 'user-secret', 'owner-secret');
		const protectedRun = await run(ctx.sandbox, LETTER, {
			items: [{ json: {}, binary: { data: { data: protectedPdf, fileName: 'p.pdf', mimeType: 'application/pdf' } } }],
		});
		expect(protectedRun.error?.message ?? '').toMatch(/invalid|pdfFile/i);
		expect(JSON.stringify(protectedRun.error)).toContain('password-protected');

		const twoPages = await run(ctx.sandbox, { ...LETTER, additionalFields: { envelopeType: 'autoenvelope' } }, { items: [await pdfItem(2)] });
		expect(JSON.stringify(twoPages.error)).toContain('autoenvelope needs a single-page PDF; this one has 2 pages');
		expect(ctx.sandbox.control.requests({ path: '/api/v2/post' })).toHaveLength(0);
	});
});
