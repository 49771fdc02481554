/**
 * The node refuses a PDF before sending only on what it knows for sure: a password that opening
 * the file needs (from the trailer's security handler, not from bytes that mention /Encrypt), and a
 * page count its page tree confirms. A file it cannot read within a bound proportionate to its size
 * is left to the service.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';

import { countPdfPages, readPdfFacts } from '../../nodes/PostalService/contract/pdfPages';
import { encryptedPdf, mentionsEncryptPdf, pageTreePdf, type Revision, xrefStreamPdf } from '../harness/pdfs';
import { LETTER, run, useSandbox } from './fixture';

const ctx = useSandbox();
const item = (data: Buffer) => ({ json: {}, binary: { data: { data, fileName: 'letter.pdf', mimeType: 'application/pdf' } } });
const posts = () => ctx.sandbox.control.requests({ path: '/api/v2/post' });

describe('password protection is read from the trailer', () => {
	it('sends an unprotected PDF whose link and text mention /Encrypt', async () => {
		const pdf = mentionsEncryptPdf();
		expect(pdf.toString('latin1')).toContain('/Encrypt');
		await PDFDocument.load(pdf);
		const result = await run(ctx.sandbox, LETTER, { items: [item(pdf)] });
		expect(result.error).toBeUndefined();
		expect(ctx.sandbox.control.orders()).toHaveLength(1);
	});

	it('leaves a PDF protected only by an owner password to the service, for every revision', async () => {
		for (const revision of [2, 3, 4, 5, 6] as Revision[]) {
			expect((await readPdfFacts(encryptedPdf(revision, '', 'owner-secret'))).needsPassword, `revision ${revision}`).toBe(false);
		}
		ctx.sandbox.control.clearRequests();
		await run(ctx.sandbox, LETTER, { items: [item(encryptedPdf(6, '', 'owner-secret'))] });
		expect(posts()).toHaveLength(1);
	});

	it('still refuses a PDF that needs a user password, for every revision, and sends nothing', async () => {
		for (const revision of [2, 3, 4, 5, 6] as Revision[]) {
			expect((await readPdfFacts(encryptedPdf(revision, 'user-secret', 'owner-secret'))).needsPassword, `revision ${revision}`).toBe(true);
		}
		const result = await run(ctx.sandbox, LETTER, { items: [item(encryptedPdf(4, 'user-secret', 'owner-secret'))] });
		expect(JSON.stringify(result.error)).toContain('password-protected');
		expect(posts()).toHaveLength(0);
	});

	const qpdf = (() => {
		try {
			execFileSync('qpdf', ['--version'], { stdio: 'ignore' });
			return true;
		} catch {
			return false;
		}
	})();
	it.skipIf(!qpdf)('agrees with files qpdf encrypts (owner-only and user password, each revision)', async () => {
		const dir = mkdtempSync(path.join(tmpdir(), 'pdf-qpdf-'));
		try {
			const doc = await PDFDocument.create();
			doc.addPage();
			writeFileSync(path.join(dir, 'in.pdf'), await doc.save());
			const kinds: Array<[string, string[]]> = [
				['R2', ['40', '--']],
				['R3', ['128', '--use-aes=n', '--']],
				['R4', ['128', '--use-aes=y', '--']],
				['R5', ['256', '--force-R5', '--']],
				['R6', ['256', '--']],
			];
			for (const [name, args] of kinds) {
				for (const user of ['', 'user-secret']) {
					const out = path.join(dir, `${name}-${user || 'open'}.pdf`);
					execFileSync('qpdf', ['--allow-weak-crypto', '--object-streams=generate', '--encrypt', user, 'owner-secret', ...args, path.join(dir, 'in.pdf'), out]);
					expect(existsSync(out)).toBe(true);
					const facts = await readPdfFacts(readFileSync(out));
					expect(facts.needsPassword, `${name} user "${user}"`).toBe(user !== '');
				}
			}
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});
});

describe('page counts are confirmed by the page tree', () => {
	it('leaves a one-page PDF whose root claims 151 pages to the service, which prints one page', async () => {
		const pdf = pageTreePdf(1, 151);
		expect(await countPdfPages(pdf)).toBeUndefined();
		const result = await run(ctx.sandbox, LETTER, { items: [item(pdf)] });
		expect(result.error).toBeUndefined();
		expect(ctx.sandbox.control.orders().map((o) => o.numPages)).toEqual([1]);
	});

	it('counts a tree whose /Count agrees with its pages, and refuses 151 of them', async () => {
		expect(await countPdfPages(pageTreePdf(151))).toBe(151);
		expect(await countPdfPages(pageTreePdf(3, 2))).toBeUndefined();
		const result = await run(ctx.sandbox, LETTER, { items: [item(pageTreePdf(151))] });
		expect(result.error?.message).toMatch(/has 151 pages; the limit is 150 pages/);
		expect(posts()).toHaveLength(0);
	});
});

describe('reading is bounded by the size of the file', () => {
	it('gives up on a cross-reference stream that inflates far beyond its file', async () => {
		const bomb = xrefStreamPdf({ inflatedBytes: 8 * 1024 * 1024 });
		expect(bomb.length).toBeLessThan(64 * 1024);
		expect(await countPdfPages(bomb)).toBeUndefined();
		// The same file without the padding is read.
		expect(await countPdfPages(xrefStreamPdf())).toBe(1);
	});

	it('gives up on a small file that lists far more objects than it can hold', async () => {
		const crowded = xrefStreamPdf({ fillerRows: 500_000 });
		expect(crowded.length).toBeLessThan(64 * 1024);
		expect(await countPdfPages(crowded)).toBeUndefined();
		expect(await countPdfPages(xrefStreamPdf({ fillerRows: 1000 }))).toBe(1);
	});

	it('sends such a file and lets the service decide', async () => {
		const result = await run(ctx.sandbox, LETTER, { items: [item(xrefStreamPdf({ inflatedBytes: 8 * 1024 * 1024 }))] });
		expect(posts()).toHaveLength(1);
		expect(result.error === undefined || /Service message/.test(result.error.description ?? '')).toBe(true);
	});
});
