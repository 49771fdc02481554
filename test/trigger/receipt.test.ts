/**
 * The return receipt of rr.created: strict base64, and a file that is not a PDF is flagged with
 * the reason. The delivery still starts its execution: the receipt was issued either way.
 */
import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { binaryBuffer } from '../harness/engine';
import { deliver, delivery, envelope } from './support';

// 50 bytes: its base64 ends with padding.
const PDF = Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n\n\n');

const receipt = (file: IDataObject | null | string) =>
	envelope('rr.created', { id: '1048576', type: 'letter', rr_type: 'rr', tracking_code: 'YA123456789BR', file });

async function itemFor(file: IDataObject | null | string) {
	const outcome = await deliver(delivery(receipt(file)));
	expect(outcome.status).toBe(200);
	expect(outcome.items).toHaveLength(1);
	expect(outcome.after).toHaveLength(1);
	return outcome.items[0];
}

// Every character outside the alphabet and every padding fault is helpers.test.ts's generated family;
// here what the item says for each kind of refusal.
describe('return receipt: base64 is decoded strictly', () => {
	it.each([
		['an empty string', '', /empty/],
		['padding left out', PDF.toString('base64').replace(/=+$/, ''), /multiple of 4/],
		['a data: URI', `data:application/pdf;base64,${PDF.toString('base64')}`, /data: URI/],
	])('flags %s, adds no binary, and still starts the workflow', async (_name, base64, reason) => {
		const item = await itemFor({ name: 'AR.pdf', base64 });
		expect(item.json.fileUnreadable).toBe(true);
		expect(item.json.fileProblem).toMatch(reason);
		expect(item.json.fileProblem).toMatch(/file\.base64/);
		expect(item.binary).toBeUndefined();
		expect(item.json.data).toMatchObject({ file: { name: 'AR.pdf' } });
		expect((item.json.data as IDataObject).file).not.toHaveProperty('base64');
	});

	it('flags a file without base64, and a file that is not an object', async () => {
		const missing = await itemFor({ name: 'AR.pdf' });
		expect(missing.json).toMatchObject({ fileUnreadable: true, fileProblem: expect.stringMatching(/file\.base64/) });
		const text = await itemFor('JVBERi0x');
		expect(text.json).toMatchObject({ fileUnreadable: true, fileProblem: expect.stringMatching(/file/) });
		expect(text.binary).toBeUndefined();
	});

	it('says why when the service could not read the document (file: null)', async () => {
		const item = await itemFor(null);
		expect(item.json).toMatchObject({ fileUnreadable: true, fileProblem: expect.stringMatching(/could not read/), data: { file: null } });
		expect(item.binary).toBeUndefined();
	});
});

// A PDF kept as application/pdf with its own bytes, name and type: trigger-accepted.test.ts.
describe('return receipt: the file must be a PDF', () => {
	it('flags bytes that are not a PDF, keeps them, and never types them application/pdf', async () => {
		const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001', 'hex');
		const item = await itemFor({ name: 'AR.pdf', base64: png.toString('base64') });
		expect(item.json).toMatchObject({ fileUnreadable: true, fileProblem: expect.stringMatching(/not a PDF.*%PDF-/) });
		expect(item.binary?.data.mimeType).not.toBe('application/pdf');
		expect((await binaryBuffer(item)).equals(png)).toBe(true);
	});

	it('flags a PDF cut short (no %%EOF)', async () => {
		const cut = PDF.subarray(0, PDF.length - 8);
		const item = await itemFor({ name: 'AR.pdf', base64: cut.toString('base64') });
		expect(item.json).toMatchObject({ fileUnreadable: true, fileProblem: expect.stringMatching(/%%EOF/) });
		expect(item.binary?.data.mimeType).not.toBe('application/pdf');
	});

	it('accepts base64 broken into lines, as MIME encoders write it', async () => {
		const lines = PDF.toString('base64').replace(/(.{16})/g, '$1\r\n');
		const item = await itemFor({ name: 'AR.pdf', base64: lines });
		expect(item.json.fileUnreadable).toBe(false);
		expect((await binaryBuffer(item)).equals(PDF)).toBe(true);
	});
});
