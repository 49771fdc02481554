/**
 * What the node reads of a PDF before sending it: the newest trailer's /Encrypt, and the page
 * count of the tree under /Root's /Pages. When any step cannot be read the answer is "unknown":
 * the service then decides, so a valid file is never refused on a guess.
 */
import { MAX_PDF_PAGES, type PdfFacts, type ValidationProblem } from './order';
import { PdfFile } from './pdfFile';
import { openingOf } from './pdfSecurity';
import type { PdfValue } from './pdfSyntax';
import { bytesOf, isDict, isRef, nameOf } from './pdfSyntax';

/**
 * The root page tree's /Count when a walk of the tree finds exactly that many pages; undefined
 * when the tree cannot be read or says otherwise (the service then counts).
 */
async function confirmedPageCount(file: PdfFile): Promise<number | undefined> {
	const catalog = await file.resolve(file.trailer?.Root);
	if (!isDict(catalog)) return undefined;
	const pages = await file.resolve(catalog.entries.Pages);
	if (!isDict(pages)) return undefined;
	const type = nameOf(pages.entries.Type);
	if (type !== undefined && type !== 'Pages') return undefined;
	const count = await file.resolve(pages.entries.Count);
	if (typeof count !== 'number' || !Number.isInteger(count) || count < 0) return undefined;
	let leaves = 0;
	const visited = new Set<number>();
	const pending: PdfValue[] = [catalog.entries.Pages];
	while (pending.length > 0) {
		const node = pending.pop();
		if (!isRef(node) || visited.has(node.num)) return undefined;
		visited.add(node.num);
		const dict = await file.resolve(node);
		if (!isDict(dict)) return undefined;
		const kids = await file.resolve(dict.entries.Kids);
		const nodeType = nameOf(dict.entries.Type);
		if (nodeType !== 'Page' && Array.isArray(kids)) pending.push(...kids);
		else if (nodeType === 'Pages' || ++leaves > count) return undefined;
	}
	return leaves === count ? count : undefined;
}

/**
 * The facts the checks need of a PDF's bytes, read in one pass: the header, whether opening it
 * needs a password (only when the trailer's security handler says so for sure), and its page count
 * when the page tree confirms it (`null` when unknown).
 */
export async function readPdfFacts(bytes: Uint8Array): Promise<PdfFacts> {
	const header = Buffer.from(bytes.subarray(0, 1024)).indexOf('%PDF-') !== -1;
	if (!header) return { header, needsPassword: false, pages: null };
	const file = new PdfFile(bytes);
	try {
		await file.load();
	} catch {
		// A damaged or unusual file: nothing is known of it, and nothing is refused on a guess.
		return { header, needsPassword: false, pages: null };
	}
	let needsPassword = false;
	if (file.trailer?.Encrypt !== undefined) {
		const encrypt = await file.resolve(file.trailer.Encrypt).catch(() => undefined);
		const id = Array.isArray(file.trailer.ID) ? bytesOf(file.trailer.ID[0]) : undefined;
		needsPassword = isDict(encrypt) && openingOf(encrypt, id) === 'password';
	}
	if (needsPassword) return { header, needsPassword, pages: null };
	const pages = await confirmedPageCount(file).catch(() => undefined);
	return { header, needsPassword, pages: pages ?? null };
}

/** Pages of the PDF according to its page tree, or undefined when that cannot be read for sure. */
export async function countPdfPages(bytes: Uint8Array): Promise<number | undefined> {
	return (await readPdfFacts(bytes)).pages ?? undefined;
}

/**
 * The page rules the node can check once it knows the PDF's facts: the Limits table's 150 pages and
 * rule 5's single page for the auto-envelope. Files whose count is not confirmed pass.
 */
export function pageProblems(fields: Record<string, string>, facts: PdfFacts | undefined): ValidationProblem[] {
	const pages = facts?.pages;
	if (pages === null || pages === undefined) return [];
	const problems: ValidationProblem[] = [];
	if (pages > MAX_PDF_PAGES) {
		problems.push({ field: 'pdfFile', message: `"pdfFile" has ${pages} pages; the limit is ${MAX_PDF_PAGES} pages` });
	}
	if (fields.envelope_type === 'autoenvelope' && pages !== 1) {
		problems.push({
			field: 'envelope_type',
			message: `"envelope_type" autoenvelope needs a single-page PDF; this one has ${pages} pages`,
		});
	}
	return problems;
}
