/**
 * Just enough of the PDF object syntax (ISO 32000-1, section 7.3) to read cross-reference data and
 * a few dictionaries: numbers, names, strings, arrays, dictionaries, references and where a stream
 * body starts (its filters are in pdfStreams.ts). Anything it does not understand throws a
 * PdfSyntaxError; callers turn that into "unknown".
 */
export class PdfSyntaxError extends Error {}

interface PdfName {
	kind: 'name';
	value: string;
}
interface PdfRef {
	kind: 'ref';
	num: number;
	gen: number;
}
export interface PdfDict {
	kind: 'dict';
	entries: Record<string, PdfValue>;
}
/** A string's bytes, escapes and hex digits decoded (the security handler reads /O, /U and /ID). */
interface PdfString {
	kind: 'string';
	bytes: Uint8Array;
}
/** A bare keyword where a value was expected (obj, endobj, stream, R...). */
interface PdfKeyword {
	kind: 'keyword';
	value: string;
}
export type PdfValue = number | boolean | null | PdfName | PdfRef | PdfDict | PdfString | PdfKeyword | PdfValue[];

const WHITESPACE = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]);
const DELIMITERS = new Set([0x28, 0x29, 0x3c, 0x3e, 0x5b, 0x5d, 0x7b, 0x7d, 0x2f, 0x25]);
const MAX_DEPTH = 64;
const ESCAPES: Record<string, number> = { n: 0x0a, r: 0x0d, t: 0x09, b: 0x08, f: 0x0c };
// Longer than any number, keyword or name a well-formed file has.
const MAX_TOKEN = 512;

export const isDict = (value: PdfValue | undefined): value is PdfDict =>
	!!value && typeof value === 'object' && !Array.isArray(value) && value.kind === 'dict';
export const isRef = (value: PdfValue | undefined): value is PdfRef =>
	!!value && typeof value === 'object' && !Array.isArray(value) && value.kind === 'ref';
export const bytesOf = (value: PdfValue | undefined): Uint8Array | undefined =>
	value && typeof value === 'object' && !Array.isArray(value) && value.kind === 'string' ? value.bytes : undefined;
export const nameOf = (value: PdfValue | undefined): string | undefined =>
	value && typeof value === 'object' && !Array.isArray(value) && value.kind === 'name' ? value.value : undefined;

/** A reader positioned in a byte buffer. */
export class PdfLexer {
	constructor(
		readonly bytes: Uint8Array,
		public pos = 0,
	) {}

	skipSpace(): void {
		const b = this.bytes;
		while (this.pos < b.length) {
			const c = b[this.pos];
			if (WHITESPACE.has(c)) this.pos++;
			else if (c === 0x25) while (this.pos < b.length && b[this.pos] !== 0x0a && b[this.pos] !== 0x0d) this.pos++;
			else return;
		}
	}

	/** The run of regular characters at the current position (a number or a keyword). */
	token(): string {
		this.skipSpace();
		const start = this.pos;
		const b = this.bytes;
		while (this.pos < b.length && !WHITESPACE.has(b[this.pos]) && !DELIMITERS.has(b[this.pos])) this.pos++;
		if (this.pos - start > MAX_TOKEN) throw new PdfSyntaxError('a token is too long');
		return Buffer.from(b.subarray(start, this.pos)).toString('latin1');
	}

	integer(): number {
		const text = this.token();
		if (!/^[+-]?\d+$/.test(text)) throw new PdfSyntaxError(`expected an integer, found "${text.slice(0, 20)}"`);
		return Number(text);
	}

	expectKeyword(keyword: string): void {
		const text = this.token();
		if (text !== keyword) throw new PdfSyntaxError(`expected "${keyword}", found "${text.slice(0, 20)}"`);
	}

	value(depth = 0): PdfValue {
		if (depth > MAX_DEPTH) throw new PdfSyntaxError('nested too deep');
		this.skipSpace();
		const b = this.bytes;
		if (this.pos >= b.length) throw new PdfSyntaxError('unexpected end of data');
		const c = b[this.pos];
		if (c === 0x3c && b[this.pos + 1] === 0x3c) return this.dictionary(depth);
		if (c === 0x3c) return this.hexString();
		if (c === 0x28) return this.literalString();
		if (c === 0x2f) return this.name();
		if (c === 0x5b) {
			this.pos++;
			const items: PdfValue[] = [];
			for (;;) {
				this.skipSpace();
				if (this.pos >= b.length) throw new PdfSyntaxError('unterminated array');
				if (b[this.pos] === 0x5d) {
					this.pos++;
					return items;
				}
				items.push(this.value(depth + 1));
			}
		}
		if (DELIMITERS.has(c)) throw new PdfSyntaxError(`unexpected "${String.fromCharCode(c)}"`);
		const text = this.token();
		if (/^[+-]?\d+$/.test(text)) return this.numberOrRef(Number(text));
		if (/^[+-]?(\d+\.?\d*|\.\d+)$/.test(text)) return Number(text);
		if (text === 'true' || text === 'false') return text === 'true';
		if (text === 'null') return null;
		return { kind: 'keyword', value: text };
	}

	private numberOrRef(first: number): PdfValue {
		const saved = this.pos;
		const second = this.token();
		if (/^\d+$/.test(second) && this.token() === 'R' && first >= 0) return { kind: 'ref', num: first, gen: Number(second) };
		this.pos = saved;
		return first;
	}

	private dictionary(depth: number): PdfDict {
		this.pos += 2;
		const entries: Record<string, PdfValue> = {};
		for (;;) {
			this.skipSpace();
			const b = this.bytes;
			if (this.pos >= b.length) throw new PdfSyntaxError('unterminated dictionary');
			if (b[this.pos] === 0x3e && b[this.pos + 1] === 0x3e) {
				this.pos += 2;
				return { kind: 'dict', entries };
			}
			const key = this.value(depth + 1);
			const keyName = nameOf(key);
			if (keyName === undefined) throw new PdfSyntaxError('a dictionary key is not a name');
			entries[keyName] = this.value(depth + 1);
		}
	}

	private name(): PdfName {
		this.pos++;
		const raw = this.token();
		return { kind: 'name', value: raw.replace(/#([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))) };
	}

	private hexString(): PdfString {
		const end = this.bytes.indexOf(0x3e, this.pos);
		if (end === -1) throw new PdfSyntaxError('unterminated hex string');
		const digits = Buffer.from(this.bytes.subarray(this.pos + 1, end)).toString('latin1').replace(/\s/g, '');
		if (!/^[0-9a-fA-F]*$/.test(digits)) throw new PdfSyntaxError('a hex string holds other characters');
		this.pos = end + 1;
		return { kind: 'string', bytes: Buffer.from(digits.length % 2 ? `${digits}0` : digits, 'hex') };
	}

	private literalString(): PdfString {
		const b = this.bytes;
		const out: number[] = [];
		let depth = 0;
		for (; this.pos < b.length; this.pos++) {
			const c = b[this.pos];
			if (c === 0x28 && depth++ === 0) continue;
			if (c === 0x29 && --depth === 0) {
				this.pos++;
				return { kind: 'string', bytes: Uint8Array.from(out) };
			}
			if (c !== 0x5c) {
				out.push(c);
				continue;
			}
			const next = b[++this.pos];
			const octal = /^[0-7]{1,3}/.exec(Buffer.from(b.subarray(this.pos, this.pos + 3)).toString('latin1'))?.[0];
			if (octal) {
				out.push(parseInt(octal, 8) & 0xff);
				this.pos += octal.length - 1;
			} else if (next === 0x0d || next === 0x0a) {
				// A backslash at the end of a line continues the string on the next one.
				if (next === 0x0d && b[this.pos + 1] === 0x0a) this.pos++;
			} else {
				out.push(ESCAPES[String.fromCharCode(next)] ?? next);
			}
		}
		throw new PdfSyntaxError('unterminated string');
	}

	/**
	 * After a stream dictionary: the position of the stream's first byte (the keyword `stream` and
	 * its end of line skipped), or undefined when no stream follows.
	 */
	streamStart(): number | undefined {
		const saved = this.pos;
		if (this.token() !== 'stream') {
			this.pos = saved;
			return undefined;
		}
		if (this.bytes[this.pos] === 0x0d) this.pos++;
		if (this.bytes[this.pos] === 0x0a) this.pos++;
		return this.pos;
	}
}
