/** The return receipt leaves the JSON for binary data; a document that is not strict base64 of a PDF is flagged on the item, which still runs. */
import type { IDataObject, INodeExecutionData, IWebhookFunctions } from 'n8n-workflow';

import { isObject } from './delivery';

type DecodedFile = { bytes: Buffer } | { problem: string };

const NOT_BASE64 = /[^A-Za-z0-9+/]/;
// The last character before padding may carry only zero bits past the end of the data.
const BEFORE_TWO_PADS = /[AQgw]$/;
const BEFORE_ONE_PAD = /[AEIMQUYcgkosw048]$/;

/** Standard base64 (RFC 4648, padded), read strictly. Line breaks, as MIME writes them, are allowed. */
export function decodeBase64(value: string): DecodedFile {
	if (/^\s*data:/i.test(value)) {
		return { problem: 'file.base64 is a data: URI, not base64: the service sends the bare base64 of the document' };
	}
	const text = /[\r\n]/.test(value) ? value.replace(/\r?\n/g, '') : value;
	if (text === '') return { problem: 'file.base64 is empty' };
	if (text.length % 4 !== 0) {
		return { problem: `file.base64 is not valid base64: its length (${text.length}) is not a multiple of 4` };
	}
	const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
	const data = text.slice(0, text.length - padding);
	// Node's decoder skips characters outside the alphabet (the result comes out short) and takes - and _: cheaper to check than the whole text.
	const bytes = Buffer.from(data, 'base64');
	if (bytes.length !== Math.floor((data.length * 3) / 4) || data.includes('-') || data.includes('_')) {
		const at = data.search(NOT_BASE64);
		return { problem: `file.base64 is not valid base64: character ${JSON.stringify(data[at])} at position ${at}` };
	}
	if ((padding === 2 && !BEFORE_TWO_PADS.test(data)) || (padding === 1 && !BEFORE_ONE_PAD.test(data))) {
		return { problem: 'file.base64 is not valid base64: its last characters before the padding do not end the data' };
	}
	return { bytes };
}

/** Why the bytes are not a whole PDF document, or undefined when they are one. */
export function pdfProblem(bytes: Buffer): string | undefined {
	// Readers accept a header within the first 1024 bytes.
	const header = bytes.subarray(0, 1024).indexOf('%PDF-');
	if (header === -1) return 'the file is not a PDF: it has no %PDF- header';
	if (bytes.lastIndexOf('%%EOF') < header) return 'the PDF is cut short: it has no %%EOF end marker';
	return undefined;
}

// A file name from the payload becomes the binary's name, never a path.
export function safeFileName(name: unknown, fallback: string): string {
	if (typeof name !== 'string') return fallback;
	// Control characters (below a space, and DEL) dropped.
	const base = [...(name.split(/[\\/]/).pop() ?? '')].filter((c) => c >= ' ' && c !== '\u007f').join('').trim();
	return base === '' || base === '.' || base === '..' ? fallback : base;
}

/** Moves an rr.created item's return receipt from its JSON to binary data, saying whether it is a readable PDF (`fileUnreadable`, `fileProblem`). */
export async function attachReturnReceipt(
	this: IWebhookFunctions,
	item: INodeExecutionData,
	data: IDataObject,
	binaryPropertyName: string,
): Promise<void> {
	const flag = (problem: string) => {
		item.json.fileUnreadable = true;
		item.json.fileProblem = problem;
	};
	const file = data.file;
	if (file === null || file === undefined) return flag('the service could not read the document (file is null)');
	if (!isObject(file)) return flag('file is not an object with name and base64');
	const { base64, ...fileWithoutContent } = file;
	item.json.data = { ...data, file: fileWithoutContent };
	if (typeof base64 !== 'string') return flag('file.base64 is missing or not a string');
	const decoded = decodeBase64(base64);
	if ('problem' in decoded) return flag(decoded.problem);

	const fileName = safeFileName(file.name, `return-receipt-${typeof data.id === 'string' ? data.id : 'file'}.pdf`);
	const problem = pdfProblem(decoded.bytes);
	// n8n would type a file named .pdf as a PDF by its name alone; bytes that are not one are not.
	const mimeType = problem === undefined ? 'application/pdf' : /\.pdf$/i.test(fileName) ? 'application/octet-stream' : undefined;
	item.binary = {
		[binaryPropertyName]: await this.helpers.prepareBinaryData(decoded.bytes, fileName, mimeType),
	};
	if (problem !== undefined) return flag(problem);
	item.json.fileUnreadable = false;
}
