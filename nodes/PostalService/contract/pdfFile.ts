/**
 * A PDF's objects, found the way a viewer finds them: from `startxref` through cross-reference
 * tables and streams, incremental updates and compressed object streams. Anything it cannot read,
 * or that would make it hold more than a bound proportionate to the file, throws a PdfSyntaxError.
 */
import type { PdfDict, PdfValue } from './pdfSyntax';
import { inflate, unpredict } from './pdfStreams';
import { isDict, isRef, nameOf, PdfLexer, PdfSyntaxError } from './pdfSyntax';

type XrefEntry = { type: 0 } | { type: 1; offset: number } | { type: 2; stream: number; index: number };

const MAX_SECTIONS = 64;
const MAX_REFERENCE_HOPS = 16;
// What a file may make the reader hold, proportionate to its size: a small file that inflates to
// gigabytes, or lists millions of objects, is given up on ("unknown") instead of exhausting memory.
const INFLATE_FLOOR = 4 * 1024 * 1024;
const INFLATE_PER_BYTE = 4;
const ENTRIES_FLOOR = 50_000;
const BYTES_PER_ENTRY = 32;

export class PdfFile {
	private readonly xref = new Map<number, XrefEntry>();
	private readonly objects = new Map<number, Promise<PdfValue>>();
	private readonly objectStreams = new Map<number, Promise<{ data: Uint8Array; offsets: Map<number, number> }>>();
	private readonly loading = new Set<number>();
	private readonly visitedSections = new Set<number>();
	private inflateLeft: number;
	private entriesLeft: number;
	/** The newest trailer's entries (an incremental update's trailer repeats what still holds). */
	trailer: Record<string, PdfValue> | undefined;

	constructor(private readonly bytes: Uint8Array) {
		this.inflateLeft = Math.max(INFLATE_FLOOR, INFLATE_PER_BYTE * bytes.length);
		this.entriesLeft = Math.max(ENTRIES_FLOOR, Math.floor(bytes.length / BYTES_PER_ENTRY));
	}

	async load(): Promise<void> {
		const tail = Buffer.from(this.bytes.subarray(Math.max(0, this.bytes.length - 2048))).toString('latin1');
		const at = tail.lastIndexOf('startxref');
		const match = at === -1 ? null : /^startxref\s+(\d+)/.exec(tail.slice(at));
		if (!match) throw new PdfSyntaxError('no startxref');
		await this.section(Number(match[1]));
	}

	/** Reads one cross-reference section; entries already known (from newer sections) win. */
	private async section(offset: number): Promise<void> {
		if (this.visitedSections.has(offset) || this.visitedSections.size >= MAX_SECTIONS || offset >= this.bytes.length) {
			throw new PdfSyntaxError('cross-reference sections loop or run out of the file');
		}
		this.visitedSections.add(offset);
		const lexer = new PdfLexer(this.bytes, offset);
		const trailer = lexer.token() === 'xref' ? this.table(lexer) : await this.stream(offset);
		this.trailer ??= trailer.entries;
		const hybrid = trailer.entries.XRefStm;
		if (typeof hybrid === 'number') await this.section(hybrid);
		const prev = trailer.entries.Prev;
		if (typeof prev === 'number') await this.section(prev);
	}

	private spendEntries(count: number): void {
		this.entriesLeft -= count;
		if (this.entriesLeft < 0) throw new PdfSyntaxError('the cross-reference data lists more objects than the file can hold');
	}

	private table(lexer: PdfLexer): PdfDict {
		for (;;) {
			const word = lexer.token();
			if (word === 'trailer') {
				const trailer = lexer.value();
				if (!isDict(trailer)) throw new PdfSyntaxError('the trailer is not a dictionary');
				return trailer;
			}
			if (!/^\d+$/.test(word)) throw new PdfSyntaxError('a cross-reference subsection is malformed');
			const start = Number(word);
			const count = lexer.integer();
			if (count < 0 || count > this.bytes.length / 18) throw new PdfSyntaxError('a cross-reference subsection is too long');
			this.spendEntries(count);
			for (let i = 0; i < count; i++) {
				const offset = lexer.integer();
				lexer.integer();
				const kind = lexer.token();
				if (kind !== 'n' && kind !== 'f') throw new PdfSyntaxError('a cross-reference entry is malformed');
				if (!this.xref.has(start + i)) this.xref.set(start + i, kind === 'n' ? { type: 1, offset } : { type: 0 });
			}
		}
	}

	private async stream(offset: number): Promise<PdfDict> {
		const { dict, data } = await this.indirect(offset);
		if (nameOf(dict.entries.Type) !== 'XRef' || !data) throw new PdfSyntaxError('not a cross-reference stream');
		const widths = dict.entries.W;
		if (!Array.isArray(widths) || widths.length !== 3 || !widths.every((w) => typeof w === 'number' && w >= 0 && w <= 8)) {
			throw new PdfSyntaxError('/W of a cross-reference stream is malformed');
		}
		const [w0, w1, w2] = widths as number[];
		const size = dict.entries.Size;
		const index = Array.isArray(dict.entries.Index) ? dict.entries.Index : [0, size];
		const rowLength = w0 + w1 + w2;
		if (rowLength === 0 || !index.every((n) => typeof n === 'number')) throw new PdfSyntaxError('/Index is malformed');
		const field = (row: number, from: number, width: number) => {
			let value = 0;
			for (let k = 0; k < width; k++) value = value * 256 + data[row + from + k];
			return value;
		};
		let row = 0;
		for (let s = 0; s + 1 < index.length; s += 2) {
			const [start, count] = [index[s] as number, index[s + 1] as number];
			this.spendEntries(Math.min(count, Math.floor((data.length - row) / rowLength)));
			for (let i = 0; i < count && row + rowLength <= data.length; i++, row += rowLength) {
				const type = w0 === 0 ? 1 : field(row, 0, w0);
				const a = field(row, w0, w1);
				const b = field(row, w0 + w1, w2);
				if (this.xref.has(start + i)) continue;
				if (type === 1) this.xref.set(start + i, { type: 1, offset: a });
				else if (type === 2) this.xref.set(start + i, { type: 2, stream: a, index: b });
				else if (type === 0) this.xref.set(start + i, { type: 0 });
			}
		}
		return dict;
	}

	/** The object that starts at `offset` (`n g obj ...`), with its decoded stream if it has one. */
	private async indirect(offset: number, expected?: number): Promise<{ dict: PdfDict; data?: Uint8Array; value: PdfValue }> {
		const lexer = new PdfLexer(this.bytes, offset);
		const num = lexer.integer();
		lexer.integer();
		lexer.expectKeyword('obj');
		if (expected !== undefined && num !== expected) throw new PdfSyntaxError('the cross-reference points at another object');
		const value = lexer.value();
		if (!isDict(value)) return { dict: { kind: 'dict', entries: {} }, value };
		const start = lexer.streamStart();
		if (start === undefined) return { dict: value, value };
		return { dict: value, value, data: await this.decode(value, start) };
	}

	private async decode(dict: PdfDict, start: number): Promise<Uint8Array> {
		let length = dict.entries.Length;
		if (isRef(length)) length = (await this.resolve(length)) ?? null;
		let end = typeof length === 'number' && length >= 0 ? start + length : -1;
		if (end < 0 || end > this.bytes.length) end = Buffer.from(this.bytes.buffer, this.bytes.byteOffset, this.bytes.length).indexOf('endstream', start);
		if (end < 0) throw new PdfSyntaxError('a stream has no end');
		let data: Uint8Array = this.bytes.subarray(start, end);
		const filters = Array.isArray(dict.entries.Filter) ? dict.entries.Filter : dict.entries.Filter ? [dict.entries.Filter] : [];
		const parms = Array.isArray(dict.entries.DecodeParms) ? dict.entries.DecodeParms : [dict.entries.DecodeParms];
		for (const [i, filter] of filters.entries()) {
			if (nameOf(filter) !== 'FlateDecode') throw new PdfSyntaxError(`filter ${nameOf(filter)} is not handled`);
			const p = parms[i];
			const inflated = await inflate(data, this.inflateLeft);
			this.inflateLeft -= inflated.length;
			data = unpredict(inflated, isDict(p) ? p : undefined);
		}
		return data;
	}

	async resolve(value: PdfValue | undefined, hops = 0): Promise<PdfValue | undefined> {
		if (!isRef(value)) return value;
		if (hops > MAX_REFERENCE_HOPS) throw new PdfSyntaxError('references go round in a circle');
		return await this.resolve(await this.object(value.num), hops + 1);
	}

	private object(num: number): Promise<PdfValue> {
		// An object whose reading needs itself (a stream length pointing at its own stream) would wait forever.
		if (this.loading.has(num)) return Promise.reject(new PdfSyntaxError(`object ${num} refers to itself`));
		let pending = this.objects.get(num);
		if (!pending) {
			this.loading.add(num);
			pending = this.read(num).finally(() => this.loading.delete(num));
			this.objects.set(num, pending);
		}
		return pending;
	}

	private async read(num: number): Promise<PdfValue> {
		const entry = this.xref.get(num);
		if (!entry || entry.type === 0) throw new PdfSyntaxError(`object ${num} is not in the file`);
		if (entry.type === 1) return (await this.indirect(entry.offset, num)).value;
		const { data, offsets } = await this.objectStream(entry.stream);
		const offset = offsets.get(num);
		if (offset === undefined) throw new PdfSyntaxError('an object stream does not hold the object');
		return new PdfLexer(data, offset).value();
	}

	/** An object stream, decoded once however many of its objects are read. */
	private objectStream(num: number): Promise<{ data: Uint8Array; offsets: Map<number, number> }> {
		let pending = this.objectStreams.get(num);
		if (!pending) {
			pending = this.decodeObjectStream(num);
			this.objectStreams.set(num, pending);
		}
		return pending;
	}

	private async decodeObjectStream(num: number): Promise<{ data: Uint8Array; offsets: Map<number, number> }> {
		const holder = this.xref.get(num);
		if (!holder || holder.type !== 1) throw new PdfSyntaxError('an object stream is not in the file');
		const { dict, data } = await this.indirect(holder.offset, num);
		const [first, count] = [dict.entries.First, dict.entries.N];
		if (nameOf(dict.entries.Type) !== 'ObjStm' || !data || typeof first !== 'number' || typeof count !== 'number') {
			throw new PdfSyntaxError('not an object stream');
		}
		this.spendEntries(count);
		const header = new PdfLexer(data);
		const offsets = new Map<number, number>();
		for (let i = 0; i < count; i++) offsets.set(header.integer(), first + header.integer());
		return { data, offsets };
	}
}
