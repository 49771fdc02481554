/**
 * The PDF's page and password rules are the service's: the node checks only that the file is a PDF,
 * sends it, and passes the service's refusal on in its own words. Checked with the service first
 * (the default for a batch), a batch with one refused file sends nothing.
 */
import { describe, expect, it } from 'vitest';

import type { TestItem } from '../harness/engine';
import { encryptedPdf, pdfWithPages } from '../sandbox/support';
import { LETTER, pdfItem, run, useSandbox } from './fixture';

const ctx = useSandbox();

const fileItem = (bytes: Buffer, tag: string): TestItem => ({ json: { tag }, binary: { data: { data: bytes, fileName: 'carta.pdf', mimeType: 'application/pdf' } } });
const TAGGED = { ...LETTER, tag: '={{ $json.tag }}' };

describe('the PDF rules are the service’s', () => {
	it.each([
		['more than 150 pages', async () => await pdfWithPages(151), /máximo de 150 páginas/],
		['password-protected', encryptedPdf, /protegido por senha/],
	])('a file with %s is sent, and the service’s refusal reaches the user naming the field as the panel does', async (_, file, reason) => {
		const result = await run(ctx.sandbox, TAGGED, { items: [fileItem(await file(), 'one')] });
		expect(result.error?.message).toMatch(/^Tag "one": The service refused "Input Binary Field" \(pdfFile\): fix it and run again\. Nothing was sent\. The service said: .*pdfFile/);
		expect(result.error?.message).toMatch(reason);
		expect(ctx.sandbox.control.orders()).toEqual([]);
	});

	it('a batch with one file the service refuses sends none of them (Check With the Service First: Auto)', async () => {
		const items = [await pdfItem(1, { tag: 'a' }), fileItem(await pdfWithPages(151), 'b'), await pdfItem(1, { tag: 'c' })];
		const result = await run(ctx.sandbox, TAGGED, { items });
		expect(result.error?.message).toMatch(/máximo de 150 páginas/);
		expect(result.error?.description).toMatch(/No item of this run was sent/);
		expect(ctx.sandbox.control.orders()).toEqual([]);
		expect(ctx.sandbox.control.requests({ path: '/api/v2/post' }).map((r) => [r.fields.tag, r.fields.test])).toEqual([
			['a', '1'],
			['b', '1'],
		]);
	});

	// [Check With the Service First, the items' tags, each request's tag and test flag]
	it.each([
		['Auto sends a single item directly, without a check first', undefined, ['solo'], ['solo:0']],
		['Always checks a single item too', 'always', ['always'], ['always:1', 'always:0']],
		['Never sends a batch without checks', 'never', ['never-1', 'never-2'], ['never-1:0', 'never-2:0']],
	])('%s', async (_case, checkWithService, tags, sent) => {
		const parameters = { ...TAGGED, ...(checkWithService ? { additionalFields: { checkWithService } } : {}) };
		await run(ctx.sandbox, parameters, { items: await Promise.all(tags.map(async (tag) => await pdfItem(1, { tag }))) });
		expect(ctx.sandbox.control.requests({ path: '/api/v2/post' }).map((r) => `${r.fields.tag}:${r.fields.test ?? '0'}`)).toEqual(sent);
	});
});
