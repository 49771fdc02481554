/**
 * Hand-made PDFs for the node's PDF checks: lying page trees, text that merely mentions /Encrypt,
 * files encrypted by the standard security handler (owner password only, or a user password too),
 * and cross-reference streams that inflate far beyond their file.
 */
import { createHash, randomBytes } from 'node:crypto';
import { deflateSync } from 'node:zlib';

import {
	legacyFileKey,
	legacyUserValue,
	md5,
	PASSWORD_PADDING,
	rc4,
	revision6Hash,
} from '../../nodes/PostalService/contract/pdfSecurity';
import { classicPdf } from '../../sandbox/pdf';

/** A classic PDF 1.7, with the binary comment line most writers add, whose object i + 1 is `objects[i]`. */
export function handPdf(objects: string[], trailerExtra = ''): Buffer {
	return classicPdf(objects, '%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', trailerExtra);
}

const PAGE = '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R >>';
const CONTENT = (text: string) => {
	const body = `BT /F1 12 Tf 50 780 Td (${text}) Tj ET`;
	return `<< /Length ${body.length} >>\nstream\n${body}\nendstream`;
};

/** `pages` real pages under a root that claims `claimed` (a lying tree when they differ). */
export function pageTreePdf(pages: number, claimed = pages, trailerExtra = ''): Buffer {
	const kids = Array.from({ length: pages }, (_, i) => `${5 + i} 0 R`).join(' ');
	const objects = [
		'<< /Type /Catalog /Pages 2 0 R >>',
		`<< /Type /Pages /Kids [${kids}] /Count ${claimed} >>`,
		'<< /Producer (hand) >>',
		CONTENT('Hello'),
		...Array.from({ length: pages }, () => PAGE),
	];
	return handPdf(objects, trailerExtra);
}

/** A one-page unprotected PDF whose link and text mention /Encrypt (as a guide's address does). */
export function mentionsEncryptPdf(): Buffer {
	return handPdf([
		'<< /Type /Catalog /Pages 2 0 R >>',
		'<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
		'<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Annots [5 0 R] >>',
		CONTENT('See /Encrypt in the guide'),
		'<< /Type /Annot /Subtype /Link /Rect [50 700 300 720] /A << /S /URI /URI (https://example.org/docs/Encrypt/Encryption-guide) >> >>',
	]);
}

export type Revision = 2 | 3 | 4 | 5 | 6;
const pad = (password: string) => Buffer.concat([Buffer.from(password, 'latin1'), PASSWORD_PADDING]).subarray(0, 32);
const hex = (bytes: Uint8Array) => `<${Buffer.from(bytes).toString('hex')}>`;

/** The standard security handler's dictionary for these passwords (ISO 32000 algorithms 3 to 5, 8 and 9). */
export function standardEncrypt(revision: Revision, user: string, owner: string, id: Buffer): string {
	const p = -3904;
	if (revision <= 4) {
		const length = revision === 2 ? 5 : 16;
		let ownerHash = md5(pad(owner || user));
		if (revision >= 3) for (let i = 0; i < 50; i++) ownerHash = md5(ownerHash);
		const ownerKey = ownerHash.subarray(0, length);
		let o = rc4(ownerKey, pad(user));
		if (revision >= 3) for (let i = 1; i <= 19; i++) o = rc4(ownerKey.map((b) => b ^ i), o);
		const key = legacyFileKey(pad(user), o, p, id, revision, length);
		const u = revision === 2 ? legacyUserValue(key, id, 2) : Buffer.concat([legacyUserValue(key, id, revision), Buffer.alloc(16)]);
		const heads: Record<number, string> = {
			2: '/V 1 /R 2 /Length 40',
			3: '/V 2 /R 3 /Length 128',
			4: '/V 4 /R 4 /Length 128 /CF << /StdCF << /CFM /AESV2 /Length 16 /AuthEvent /DocOpen >> >> /StmF /StdCF /StrF /StdCF',
		};
		const head = heads[revision];
		return `<< /Filter /Standard ${head} /O ${hex(o)} /U ${hex(u)} /P ${p} >>`;
	}
	const hash = (password: string, salt: Buffer, userKey: Buffer) =>
		revision === 5
			? createHash('sha256').update(Buffer.concat([Buffer.from(password), salt, userKey])).digest()
			: revision6Hash(Buffer.from(password), salt, userKey);
	const [uSalts, oSalts] = [randomBytes(16), randomBytes(16)];
	const u = Buffer.concat([hash(user, uSalts.subarray(0, 8), Buffer.alloc(0)), uSalts]);
	const o = Buffer.concat([hash(owner, oSalts.subarray(0, 8), u), oSalts]);
	const [ue, oe, perms] = [randomBytes(32), randomBytes(32), randomBytes(16)];
	return (
		`<< /Filter /Standard /V 5 /R ${revision} /Length 256 /CF << /StdCF << /CFM /AESV3 /Length 32 /AuthEvent /DocOpen >> >> ` +
		`/StmF /StdCF /StrF /StdCF /O ${hex(o)} /U ${hex(u)} /OE ${hex(oe)} /UE ${hex(ue)} /Perms ${hex(perms)} /P ${p} >>`
	);
}

/** A one-page PDF whose trailer names a standard security handler for these passwords. */
export function encryptedPdf(revision: Revision, user: string, owner: string): Buffer {
	const id = randomBytes(16);
	const objects = [
		'<< /Type /Catalog /Pages 2 0 R >>',
		'<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
		'<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>',
		standardEncrypt(revision, user, owner, id),
	];
	return handPdf(objects, `/Encrypt 4 0 R /ID [${hex(id)} ${hex(id)}] `);
}

/**
 * A one-page PDF whose cross-reference stream inflates to `inflatedBytes`: its rows for the real
 * objects, then `fillerRows` rows of free entries (each listed object costs the reader a lookup
 * entry), then padding beyond /Index that only costs inflating.
 */
export function xrefStreamPdf(options: { fillerRows?: number; inflatedBytes?: number } = {}): Buffer {
	const objects = ['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [3 0 R] /Count 1 >>', '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>'];
	let out = '%PDF-1.7\n';
	const offsets: number[] = [];
	objects.forEach((body, i) => {
		offsets.push(out.length);
		out += `${i + 1} 0 obj\n${body}\nendobj\n`;
	});
	const xrefOffset = out.length;
	const row = (type: number, field: number) => Buffer.from([type, (field >>> 24) & 0xff, (field >>> 16) & 0xff, (field >>> 8) & 0xff, field & 0xff, 0]);
	const rows = [row(0, 0), ...offsets.map((o) => row(1, o)), row(1, xrefOffset)];
	const listed = rows.length + (options.fillerRows ?? 0);
	const data = Buffer.alloc(Math.max(listed * 6, options.inflatedBytes ?? 0));
	Buffer.concat(rows).copy(data);
	const compressed = deflateSync(data, { level: 9 });
	const dict = `<< /Type /XRef /Size ${listed} /Index [0 ${listed}] /W [1 4 1] /Root 1 0 R /Filter /FlateDecode /Length ${compressed.length} >>`;
	const head = Buffer.from(`${out}4 0 obj\n${dict}\nstream\n`, 'latin1');
	const tail = Buffer.from(`\nendstream\nendobj\nstartxref\n${xrefOffset}\n%%EOF\n`, 'latin1');
	return Buffer.concat([head, compressed, tail]);
}

/** Where a file that is not protected may still hold the bytes `/Encrypt`. */
export const ENCRYPT_MENTIONS = ['link', 'text', 'catalog', 'comment', 'info'] as const;

/** A one-page unprotected PDF holding `/Encrypt` in the given place. */
export function encryptMentionPdf(where: (typeof ENCRYPT_MENTIONS)[number]): Buffer {
	if (where === 'link') return mentionsEncryptPdf();
	const catalog = where === 'catalog' ? '<< /Type /Catalog /Pages 2 0 R /Encrypt 3 0 R >>' : '<< /Type /Catalog /Pages 2 0 R >>';
	const objects = [
		catalog,
		'<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
		'<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R >>',
		CONTENT(where === 'text' ? 'Encrypt\\(ed\\) with /Encrypt 5 0 R' : 'Hello'),
		where === 'comment' ? '% written without /Encrypt 5 0 R\n<< /Producer (hand) >>' : '<< /Producer (/Encrypt 4 0 R) /Title <2f456e6372797074> >>',
	];
	return handPdf(objects, '/Info 5 0 R ');
}

/**
 * A pdf-lib document with `pages` pages and an incremental update whose page tree claims `claimed`
 * (its kids unchanged), as a careless editor writes.
 */
export async function claimedCountPdf(pages: number, claimed: number, useObjectStreams: boolean): Promise<Buffer> {
	const { PDFDocument, PDFName } = await import('pdf-lib');
	const doc = await PDFDocument.create();
	for (let i = 0; i < pages; i++) doc.addPage([200, 300]);
	const original = Buffer.from(await doc.save({ useObjectStreams, objectsPerTick: Infinity }));
	const loaded = await PDFDocument.load(original);
	const pagesRef = loaded.catalog.get(PDFName.of('Pages'))!.toString().replace(/ R$/, '');
	const kids = loaded.getPages().map((page) => page.ref.toString()).join(' ');
	const text = original.toString('latin1');
	const prev = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(text)![1];
	const [num, gen] = pagesRef.split(' ');
	const body = `${num} ${gen} obj\n<< /Type /Pages /Kids [${kids}] /Count ${claimed} >>\nendobj\n`;
	const offset = original.length;
	const xref = offset + Buffer.byteLength(body, 'latin1');
	const size = loaded.context.largestObjectNumber + 1;
	const root = loaded.context.trailerInfo.Root!.toString();
	const update =
		body +
		`xref\n${num} 1\n${String(offset).padStart(10, '0')} ${gen.padStart(5, '0')} n \n` +
		`trailer\n<< /Size ${size} /Root ${root} /Prev ${prev} >>\nstartxref\n${xref}\n%%EOF\n`;
	return Buffer.concat([original, Buffer.from(update, 'latin1')]);
}
