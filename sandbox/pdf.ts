export type PdfInspection = { ok: true; pages: number } | { ok: false; reason: 'encrypted' | 'invalid' };

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
	const escape = (t: string) => winAnsi(t).replace(/[\\()]/g, (c) => `\\${c}`);
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
	return classicPdf(objects);
}

/**
 * A PDF with a classic cross-reference table whose object i + 1 is `objects[i]`; object 1 is the
 * catalog, and `trailerExtra` ends with a space when given.
 */
export function classicPdf(objects: string[], header = '%PDF-1.4\n', trailerExtra = ''): Buffer {
	let out = header;
	const offsets: number[] = [];
	objects.forEach((body, i) => {
		offsets.push(Buffer.byteLength(out, 'latin1'));
		out += `${i + 1} 0 obj\n${body}\nendobj\n`;
	});
	const xref = Buffer.byteLength(out, 'latin1');
	out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
	out += offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
	out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R ${trailerExtra}>>\nstartxref\n${xref}\n%%EOF\n`;
	return Buffer.from(out, 'latin1');
}

/** Helvetica's WinAnsi covers Portuguese accents but not every character a user may send. */
function winAnsi(text: string): string {
	return text.replace(/[^\x20-\x7e\u00a0-\u00ff]/g, '?');
}
