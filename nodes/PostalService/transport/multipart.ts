import { randomBytes } from 'node:crypto';

/** A multipart/form-data body: its fields in order, a file as its bytes with a name and a type. */
export class Multipart {
	constructor(readonly fields: Array<[name: string, value: string | { bytes: Buffer; fileName: string; type: string }]>) {}

	/** The body as one buffer, written in place: a file or a long text is copied once. */
	encode(extra: Record<string, string>): { body: Buffer; contentType: string } {
		const boundary = `----PostalService${randomBytes(12).toString('hex')}`;
		const quoted = (text: string) => text.replace(/["\r\n]/g, (c) => encodeURIComponent(c));
		const pieces: Array<string | Buffer> = [];
		for (const [name, value] of [...this.fields.filter(([field]) => !(field in extra)), ...Object.entries(extra)]) {
			const file = typeof value === 'string' ? undefined : value;
			pieces.push(`--${boundary}\r\nContent-Disposition: form-data; name="${quoted(name)}"${file ? `; filename="${quoted(file.fileName)}"\r\nContent-Type: ${file.type}` : ''}\r\n\r\n`);
			pieces.push(file ? file.bytes : (value as string), '\r\n');
		}
		pieces.push(`--${boundary}--\r\n`);
		const body = Buffer.allocUnsafe(pieces.reduce((size, piece) => size + (typeof piece === 'string' ? Buffer.byteLength(piece) : piece.length), 0));
		let at = 0;
		for (const piece of pieces) at += typeof piece === 'string' ? body.write(piece, at) : piece.copy(body, at);
		return { body, contentType: `multipart/form-data; boundary=${boundary}` };
	}
}
