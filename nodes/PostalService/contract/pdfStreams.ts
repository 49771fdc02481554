/**
 * The one stream filter cross-reference and object streams use: /FlateDecode, with its PNG
 * predictors. It uses the runtime's own DecompressionStream: n8n's rules for community packages allow
 * no zlib import.
 */
import { type PdfDict, PdfSyntaxError } from './pdfSyntax';

/** Inflates a /FlateDecode stream (zlib format), giving up beyond `limit` bytes. */
export async function inflate(data: Uint8Array, limit: number): Promise<Uint8Array> {
	const reader = new Blob([new Uint8Array(data)]).stream().pipeThrough(new DecompressionStream('deflate')).getReader();
	const chunks: Uint8Array[] = [];
	let total = 0;
	for (;;) {
		const { done, value } = await reader.read();
		if (done) break;
		total += value.length;
		if (total > limit) {
			await reader.cancel();
			throw new PdfSyntaxError('a stream inflates beyond the limit');
		}
		chunks.push(value);
	}
	return Buffer.concat(chunks);
}

/** Undoes a PNG predictor (cross-reference streams are usually written with /Predictor 12). */
export function unpredict(data: Uint8Array, parms: PdfDict | undefined): Uint8Array {
	const number = (key: string, fallback: number) => {
		const value = parms?.entries[key];
		return typeof value === 'number' ? value : fallback;
	};
	const predictor = number('Predictor', 1);
	if (predictor === 1) return data;
	if (predictor < 10) throw new PdfSyntaxError(`predictor ${predictor} is not handled`);
	const bitsPerPixel = number('Colors', 1) * number('BitsPerComponent', 8);
	const bpp = Math.max(1, Math.ceil(bitsPerPixel / 8));
	const rowLength = Math.ceil((bitsPerPixel * number('Columns', 1)) / 8);
	const rows = Math.floor(data.length / (rowLength + 1));
	const out = new Uint8Array(rows * rowLength);
	for (let r = 0; r < rows; r++) {
		const filter = data[r * (rowLength + 1)];
		const src = r * (rowLength + 1) + 1;
		const row = r * rowLength;
		for (let i = 0; i < rowLength; i++) {
			const left = i >= bpp ? out[row + i - bpp] : 0;
			const up = r > 0 ? out[row - rowLength + i] : 0;
			const upLeft = r > 0 && i >= bpp ? out[row - rowLength + i - bpp] : 0;
			let add = 0;
			if (filter === 1) add = left;
			else if (filter === 2) add = up;
			else if (filter === 3) add = (left + up) >> 1;
			else if (filter === 4) {
				const p = left + up - upLeft;
				const [pa, pb, pc] = [Math.abs(p - left), Math.abs(p - up), Math.abs(p - upLeft)];
				add = pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft;
			} else if (filter !== 0) throw new PdfSyntaxError(`PNG filter ${filter} is not known`);
			out[row + i] = (data[src + i] + add) & 0xff;
		}
	}
	return out;
}
