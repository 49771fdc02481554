import { text, type Ctx } from './http';
import { isLoopbackHost } from './util';

type PdfInspection = { ok: true; pages: number } | { ok: false; reason: 'encrypted' | 'invalid' };

/** Reads a PDF for real: the page count, or why it cannot be printed. */
export async function inspectPdf(bytes: Uint8Array): Promise<PdfInspection> {
	if (Buffer.from(bytes.subarray(0, 1024)).toString('latin1').indexOf('%PDF-') === -1) {
		return { ok: false, reason: 'invalid' };
	}
	try {
		// Loaded on first use: the library is large and the command line should be ready at once.
		const { PDFDocument } = await import('pdf-lib');
		const doc = await PDFDocument.load(bytes, { updateMetadata: false });
		return { ok: true, pages: doc.getPageCount() };
	} catch (error) {
		const message = error instanceof Error ? error.message : String(error);
		return { ok: false, reason: /encrypted/i.test(message) ? 'encrypted' : 'invalid' };
	}
}

/**
 * A one-page PDF with the given lines, written by hand so that it is synchronous: generated
 * documents (fronts, receipts) appear in the same tick as the status change that makes them.
 */
export function textPdf(title: string, lines: string[]): Buffer {
	// Helvetica's WinAnsi covers Portuguese accents but not every character a user may send.
	const escape = (t: string) => t.replace(/[^\x20-\x7e\u00a0-\u00ff]/g, '?').replace(/[\\()]/g, (c) => `\\${c}`);
	const content = [
		`BT /F1 18 Tf 50 780 Td (${escape(title)}) Tj ET`,
		...lines.map((line, i) => `BT /F1 11 Tf 50 ${740 - i * 18} Td (${escape(line)}) Tj ET`),
	].join('\n');
	const objects = [
		'<< /Type /Catalog /Pages 2 0 R >>',
		'<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
		'<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
		`<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`,
		'<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
	];
	// A classic cross-reference table: object i + 1 is objects[i], object 1 the catalog.
	let out = '%PDF-1.4\n';
	const offsets: number[] = [];
	objects.forEach((body, i) => {
		offsets.push(Buffer.byteLength(out, 'latin1'));
		out += `${i + 1} 0 obj\n${body}\nendobj\n`;
	});
	const xref = Buffer.byteLength(out, 'latin1');
	out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
	out += offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
	out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
	return Buffer.from(out, 'latin1');
}

/** The pdfFile of a create request: an uploaded file, base64 or a data: URL, or a loopback URL to fetch. */
export async function loadPdf(ctx: Ctx): Promise<{ bytes: Buffer; name: string } | { error: string } | null> {
	const file = ctx.files.find((f) => f.field === 'pdfFile');
	if (file) return { bytes: file.data, name: file.fileName || 'documento.pdf' };
	const value = text(ctx.fields.pdfFile)?.trim();
	if (!value) return null;
	if (/^https?:\/\//i.test(value)) {
		let url: URL;
		try {
			url = new URL(value);
		} catch {
			return { error: 'pdfFile: URL inválida' };
		}
		if (!isLoopbackHost(url.hostname)) {
			return { error: 'pdfFile: o sandbox só baixa PDFs de endereços locais (127.0.0.1, localhost)' };
		}
		// A fresh agent per download, closed at once: nothing lingers after the sandbox stops.
		const { Agent, request } = await import('undici');
		const agent = new Agent({ keepAliveTimeout: 10 });
		try {
			const response = await request(url, { dispatcher: agent, headersTimeout: 10_000, bodyTimeout: 10_000 });
			const bytes = Buffer.from(await response.body.arrayBuffer());
			if (response.statusCode < 200 || response.statusCode >= 300) {
				return { error: `pdfFile: não foi possível baixar o arquivo (HTTP ${response.statusCode})` };
			}
			return { bytes, name: decodeURIComponent(url.pathname.split('/').pop() || 'documento.pdf') };
		} catch (error) {
			return { error: `pdfFile: não foi possível baixar o arquivo (${error instanceof Error ? error.message : error})` };
		} finally {
			await agent.close();
		}
	}
	const base64 = value.replace(/^data:[^;,]*;base64,/i, '').replace(/\s+/g, '');
	if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(base64)) return { error: 'pdfFile: base64 inválido (ou URL sem http/https)' };
	return { bytes: Buffer.from(base64, 'base64'), name: 'documento.pdf' };
}
