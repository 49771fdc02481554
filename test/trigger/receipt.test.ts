/**
 * The return receipt of rr.created: strict base64, and a file that is not a PDF is flagged with
 * the reason. The delivery still starts its execution: the receipt was issued either way.
 */
import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { binaryBuffer } from '../harness/engine';
import { deliver, delivery, returnReceipt } from './support';

// 50 bytes: its base64 ends with padding.
const PDF = Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n\n\n');

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001', 'hex');
const CUT = PDF.subarray(0, PDF.length - 8);

// Every character outside the alphabet and every padding fault is helpers.test.ts's generated family;
// here what the item says for each kind of refusal. A PDF kept as application/pdf with its own bytes,
// name and type: trigger-accepted.test.ts.
/** [the case, data.file as sent, what fileProblem says (none: readable), the bytes kept as binary (none: no binary)]. */
const CASES: Array<[string, IDataObject | string | null, RegExp | undefined, Buffer | undefined]> = [
	['an empty string', { name: 'AR.pdf', base64: '' }, /^file\.base64 is empty/, undefined],
	['padding left out', { name: 'AR.pdf', base64: PDF.toString('base64').replace(/=+$/, '') }, /^file\.base64 .*multiple of 4/, undefined],
	['a data: URI', { name: 'AR.pdf', base64: `data:application/pdf;base64,${PDF.toString('base64')}` }, /^file\.base64 is a data: URI/, undefined],
	['a file without base64', { name: 'AR.pdf' }, /^file\.base64 is missing/, undefined],
	['a file that is not an object', 'JVBERi0x', /^file is not an object/, undefined],
	['file: null (the service could not read the document)', null, /could not read/, undefined],
	['bytes that are not a PDF', { name: 'AR.pdf', base64: PNG.toString('base64') }, /not a PDF.*%PDF-/, PNG],
	['a PDF cut short (no %%EOF)', { name: 'AR.pdf', base64: CUT.toString('base64') }, /%%EOF/, CUT],
	['base64 broken into lines, as MIME encoders write it', { name: 'AR.pdf', base64: PDF.toString('base64').replace(/(.{16})/g, '$1\r\n') }, undefined, PDF],
];

describe('return receipt: base64 decoded strictly, and the file must be a PDF', () => {
	it.each(CASES)('%s: says why, keeps the bytes only when they decode, never types others application/pdf, and still starts the workflow', async (_case, file, problem, kept) => {
		const outcome = await deliver(delivery(returnReceipt(file)));
		expect(outcome.status).toBe(200);
		expect(outcome.after).toHaveLength(1);
		const [item] = outcome.items;
		expect(item.json.fileUnreadable).toBe(problem !== undefined);
		if (problem) expect(item.json.fileProblem).toMatch(problem);
		// The base64 never stays in the JSON.
		expect(JSON.stringify(item.json.data)).not.toContain('"base64"');
		if (kept === undefined) return expect(item.binary).toBeUndefined();
		expect((await binaryBuffer(item)).equals(kept)).toBe(true);
		expect(item.binary?.data.mimeType === 'application/pdf').toBe(problem === undefined);
	});
});
