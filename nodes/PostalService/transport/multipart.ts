import { randomBytes } from 'node:crypto';

/** A file of a multipart body: its size known before it is sent, its bytes read while it is. */
export interface FilePart {
	fileName: string;
	type: string;
	size: number;
	read: () => Promise<AsyncIterable<Uint8Array> | Uint8Array[]>;
}

/** Characters a text part is encoded in at a time: a long text (a PDF in base64) is never copied whole. */
const SLICE = 65_536;

async function* textBytes(text: string): AsyncGenerator<Uint8Array> {
	for (let at = 0; at < text.length; ) {
		let end = Math.min(at + SLICE, text.length);
		// A pair of surrogates is one character: never split between two slices.
		if (end < text.length && /[\uD800-\uDBFF]/.test(text[end - 1])) end--;
		yield Buffer.from(text.slice(at, end));
		at = end;
	}
}

/** A Blob of known size whose bytes are made while n8n's HTTP client streams it; its own fields keep n8n from taking it for an empty object. */
class MultipartBody extends Blob {
	// Own properties over Blob's getters of an empty blob.
	override readonly size: number;
	override readonly type: string;

	constructor(
		private readonly parts: Array<string | FilePart>,
		size: number,
		type: string,
	) {
		super([]);
		this.size = size;
		this.type = type;
	}

	override stream(): ReadableStream<Uint8Array> {
		const parts = this.parts;
		const chunks = (async function* () {
			for (const part of parts) yield* typeof part === 'string' ? textBytes(part) : await part.read();
		})();
		return new ReadableStream<Uint8Array>({
			async pull(controller) {
				const { value, done } = await chunks.next();
				if (done) controller.close();
				else controller.enqueue(value);
			},
			async cancel() {
				await chunks.return(undefined);
			},
		});
	}
}

/** A field of a multipart/form-data body: a text, or a file with a name and a type. */
export type FormField = [name: string, value: string | FilePart];

/** A multipart/form-data body: its fields in order. Encoded anew for each request. */
export class Multipart {
	constructor(readonly fields: FormField[]) {}

	encode(extra: Record<string, string>): Blob {
		const boundary = `----PostalService${randomBytes(12).toString('hex')}`;
		const quoted = (text: string) => text.replace(/["\r\n]/g, (c) => encodeURIComponent(c));
		const parts: Array<string | FilePart> = [];
		for (const [name, value] of [...this.fields.filter(([field]) => !(field in extra)), ...Object.entries(extra)]) {
			const file = typeof value === 'string' ? undefined : value;
			parts.push(`--${boundary}\r\nContent-Disposition: form-data; name="${quoted(name)}"${file ? `; filename="${quoted(file.fileName)}"\r\nContent-Type: ${file.type}` : ''}\r\n\r\n`, value, '\r\n');
		}
		parts.push(`--${boundary}--\r\n`);
		const size = parts.reduce((total, part) => total + (typeof part === 'string' ? Buffer.byteLength(part) : part.size), 0);
		return new MultipartBody(parts, size, `multipart/form-data; boundary=${boundary}`);
	}
}
