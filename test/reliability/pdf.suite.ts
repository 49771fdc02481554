/**
 * PDF fuzz: files that tempt the node's PDF checks into refusing a letter the service would print,
 * or into sending one that needs a password, sent through n8n's engine to the sandbox. Families:
 * page trees whose /Count lies, files encrypted by the standard security handler (owner password
 * only, or a user password too, each revision), unprotected files holding `/Encrypt` outside the
 * trailer, and cross-reference streams that inflate far beyond their file. The truth of each file is
 * how it was made, and pdf-lib's reading of it (which walks the page tree and reads the trailer).
 * Figures: wrong refusals, wrong acceptances of files that need a password, and the peak memory the
 * checks take per file against max(10 × file size, 64 MiB).
 */
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';

import type { IDataObject } from 'n8n-workflow';

import type { TestItem } from '../harness/engine';
import {
	claimedCountPdf,
	ENCRYPT_MENTIONS,
	encryptedPdf,
	encryptMentionPdf,
	pageTreePdf,
	type Revision,
	xrefStreamPdf,
} from '../harness/pdfs';
import { LETTER } from '../harness/sends';
import type { ReliabilityRow, ReliabilitySuite, SuiteContext } from './types';

const TOKEN = 'pdf-fuzz-token-5521';
const EMAIL = 'conta@example.com';
const MiB = 1024 * 1024;

interface Case {
	family: string;
	pdf: Buffer;
	/** Opening it needs a password. */
	needsPassword: boolean;
	/** Its real page count (what the page tree holds). */
	pages: number;
	autoenvelope: boolean;
}

/** Whether the spec's rules refuse the file: a password, over 150 pages, or a multi-page auto-envelope. */
const shouldRefuse = (c: Case) => c.needsPassword || c.pages > 150 || (c.autoenvelope && c.pages !== 1);

function random(seed: number): (n: number) => number {
	let state = seed >>> 0 || 1;
	return (n) => {
		state ^= state << 13;
		state ^= state >>> 17;
		state ^= state << 5;
		return (state >>> 0) % n;
	};
}

async function generate(seed: number, scale: number): Promise<Case[]> {
	const pick = random(seed);
	const count = (n: number) => Math.max(1, Math.round(n * scale));
	const cases: Case[] = [];
	for (let i = 0; i < count(30); i++) {
		const pages = 1 + pick(160);
		let claimed = pick(320);
		if (claimed === pages) claimed++;
		const autoenvelope = pick(4) === 0;
		if (i % 2 === 0) cases.push({ family: 'lying page tree', pdf: pageTreePdf(pages, claimed), needsPassword: false, pages, autoenvelope });
		else cases.push({ family: 'lying page tree', pdf: await claimedCountPdf(pages, claimed, pick(2) === 0), needsPassword: false, pages, autoenvelope });
	}
	for (let i = 0; i < count(10); i++) {
		const pages = pick(2) === 0 ? 1 + pick(3) : 148 + pick(6);
		cases.push({ family: 'honest page tree', pdf: pageTreePdf(pages), needsPassword: false, pages, autoenvelope: pick(3) === 0 });
	}
	const revisions: Revision[] = [2, 3, 4, 5, 6];
	for (let i = 0; i < count(40); i++) {
		const revision = revisions[i % revisions.length];
		const user = pick(2) === 0 ? '' : `user-${pick(1e6)}`;
		const family = user ? 'user password' : 'owner password only';
		cases.push({ family, pdf: encryptedPdf(revision, user, `owner-${pick(1e6)}`), needsPassword: user !== '', pages: 1, autoenvelope: false });
	}
	for (let i = 0; i < count(15); i++) {
		const where = ENCRYPT_MENTIONS[i % ENCRYPT_MENTIONS.length];
		cases.push({ family: '/Encrypt outside the trailer', pdf: encryptMentionPdf(where), needsPassword: false, pages: 1, autoenvelope: pick(2) === 0 });
	}
	for (let i = 0; i < count(8); i++) {
		const pdf =
			i % 2 === 0
				? xrefStreamPdf({ inflatedBytes: (8 + pick(57)) * MiB })
				: xrefStreamPdf({ fillerRows: 100_000 + pick(2_000_000) });
		cases.push({ family: 'decompression bomb', pdf, needsPassword: false, pages: 1, autoenvelope: false });
	}
	return cases;
}

/** Cross-checks the truth of the generated files with pdf-lib (a different reader). */
async function pdfLibAgrees(c: Case): Promise<boolean> {
	if (c.family === 'decompression bomb') return true;
	const { PDFDocument } = await import('pdf-lib');
	try {
		const doc = await PDFDocument.load(c.pdf, { updateMetadata: false });
		return !c.needsPassword && doc.getPageCount() === c.pages;
	} catch (error) {
		// pdf-lib refuses every encrypted file, owner password or not.
		return /encrypted/i.test(String(error)) && c.family.includes('password');
	}
}

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const used = () => {
	const m = process.memoryUsage();
	return m.heapUsed + m.arrayBuffers;
};

/** The largest growth of heap and array buffers (sampled every millisecond) while `work` runs. */
async function peakGrowth(work: () => Promise<unknown>): Promise<number> {
	gc();
	const base = used();
	let peak = base;
	const timer = setInterval(() => (peak = Math.max(peak, used())), 1);
	try {
		await work();
	} finally {
		clearInterval(timer);
	}
	return Math.max(peak, used()) - base;
}

export const suite: ReliabilitySuite = {
	name: 'PDF fuzz',
	async run(context: SuiteContext): Promise<ReliabilityRow[]> {
		process.env.N8N_LOG_LEVEL ??= 'silent';
		const { startSandbox } = await import('../../sandbox');
		const { runNode } = await import('../harness/engine');
		const { readPdfFacts } = await import('../../nodes/PostalService/contract/pdfPages');
		const cases = await generate(context.seed, context.scale);
		const t0 = Date.now();
		context.log(`${cases.length} files`);

		let untrue = 0;
		let overBound = 0;
		let worstRatio = 0;
		let worstPeak = 0;
		for (const c of cases) {
			if (!(await pdfLibAgrees(c))) untrue++;
			const peak = await peakGrowth(() => readPdfFacts(c.pdf));
			const bound = Math.max(10 * c.pdf.length, 64 * MiB);
			if (peak > bound) overBound++;
			worstRatio = Math.max(worstRatio, peak / bound);
			worstPeak = Math.max(worstPeak, peak);
		}

		context.log(`local checks done in ${Date.now() - t0} ms`);
		const sandbox = await startSandbox({ port: 0, token: TOKEN, email: EMAIL, quiet: true, balance: 1_000_000 });
		const refusedLocally: boolean[] = [];
		try {
			// One run per family and envelope, every item its own file, Continue On Fail on.
			const groups = new Map<string, number[]>();
			cases.forEach((c, i) => {
				const key = `${c.family}|${c.autoenvelope}`;
				groups.set(key, [...(groups.get(key) ?? []), i]);
			});
			for (const [key, indexes] of groups) {
				sandbox.control.clearRequests();
				const items: TestItem[] = indexes.map((i) => ({
					json: { tag: `case-${i}` },
					binary: { data: { data: cases[i].pdf, fileName: `case-${i}.pdf`, mimeType: 'application/pdf' } },
				}));
				const additionalFields: IDataObject = {};
				if (key.endsWith('|true')) additionalFields.envelopeType = 'autoenvelope';
				await runNode({
					type: 'n8n-nodes-postal-service.postalService',
					parameters: { ...LETTER, tag: '={{ $json.tag }}', additionalFields } as IDataObject,
					items,
					credentials: { postalServiceApi: { baseUrl: sandbox.baseUrl, securityToken: TOKEN } },
					continueOnFail: true,
				});
				context.log(`${key}: ${indexes.length} items sent at ${Date.now() - t0} ms`);
				const reached = new Set(sandbox.control.requests({ path: '/api/v2/post' }).map((r) => r.fields.tag));
				for (const i of indexes) refusedLocally[i] = !reached.has(`case-${i}`);
			}
		} finally {
			await sandbox.stop();
		}

		const families = [...new Set(cases.map((c) => c.family))];
		const rows: ReliabilityRow[] = families.map((family) => {
			const members = cases.map((c, i) => ({ c, i })).filter(({ c }) => c.family === family);
			const wrongRefusals = members.filter(({ c, i }) => refusedLocally[i] && !shouldRefuse(c)).length;
			const wrongAcceptances = members.filter(({ c, i }) => c.needsPassword && !refusedLocally[i]).length;
			const refused = members.filter(({ i }) => refusedLocally[i]).length;
			return {
				suite: 'PDF fuzz',
				case: family,
				runs: members.length,
				measure: 'refused without cause + sent needing a password',
				bad: wrongRefusals + wrongAcceptances,
				note: `${refused} refused locally, ${members.length - refused} left to the service`,
			};
		});
		rows.push({
			suite: 'PDF fuzz',
			case: 'memory of the checks per file',
			runs: cases.length,
			measure: 'files whose peak > max(10 × size, 64 MiB)',
			bad: overBound,
			note: `largest peak ${(worstPeak / MiB).toFixed(1)} MiB (${(worstRatio * 100).toFixed(0)}% of its bound)`,
		});
		rows.push({
			suite: 'PDF fuzz',
			case: 'generated files read as made',
			runs: cases.length,
			measure: 'files pdf-lib reads otherwise than made',
			bad: untrue,
		});
		return rows;
	},
};
