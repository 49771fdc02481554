/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
/**
 * What the action node costs per item through n8n's engine against the local sandbox: Get Balance
 * and Order > Create with a 1 MiB PDF, one at a time and with Batching 50 (no pause), plus how many
 * credential reads each run made. Figures are medians of `--runs` rounds.
 *
 * Usage: bash scripts/node/with-node24.sh tsx bench/actionCosts.ts [--runs 5] [--reads 1000] [--creates 100]
 */
import { randomBytes } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';
import { PDFDocument, StandardFonts } from 'pdf-lib';

import { startSandbox } from '../sandbox';
import { credentialReadCount, runNode, type TestItem } from '../test/harness/engine';
import { LETTER } from '../test/harness/sends';

const NODE = 'n8n-nodes-postal-service.postalService';
const TOKEN = 'bench-token';

function argument(name: string, fallback: number): number {
	const at = process.argv.indexOf(`--${name}`);
	return at === -1 ? fallback : Number(process.argv[at + 1]);
}

async function pdfOfOneMiB(): Promise<Buffer> {
	const doc = await PDFDocument.create();
	const font = await doc.embedFont(StandardFonts.Helvetica);
	doc.addPage([595, 842]).drawText('Carta', { x: 72, y: 760, size: 18, font });
	// Random bytes do not compress: the file stays about 1 MiB.
	await doc.attach(randomBytes(1024 * 1024 - 4096), 'padding.bin', { mimeType: 'application/octet-stream' });
	return Buffer.from(await doc.save());
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function main() {
	const runs = argument('runs', 5);
	const reads = argument('reads', 1000);
	const creates = argument('creates', 100);
	const sandbox = await startSandbox({ port: 0, token: TOKEN, quiet: true, balance: 1e9 });
	const credentials = { postalServiceApi: { baseUrl: sandbox.baseUrl, securityToken: TOKEN } };
	const pdf = await pdfOfOneMiB();
	const batching = { options: { batching: { batch: { batchSize: 50, batchInterval: 0 } } } };
	const cases: Array<{ name: string; parameters: Record<string, unknown>; items: () => TestItem[] }> = [
		{ name: `Get Balance × ${reads}, sequential`, parameters: { resource: 'account', operation: 'getBalance' }, items: () => Array.from({ length: reads }, () => ({ json: {} })) },
		{ name: `Get Balance × ${reads}, Batching 50`, parameters: { resource: 'account', operation: 'getBalance', ...batching }, items: () => Array.from({ length: reads }, () => ({ json: {} })) },
		{ name: `Create × ${creates}, 1 MiB PDF, sequential`, parameters: LETTER, items: () => Array.from({ length: creates }, () => ({ json: {}, binary: { data: { data: pdf, fileName: 'carta.pdf', mimeType: 'application/pdf' } } })) },
		{ name: `Create × ${creates}, 1 MiB PDF, Batching 50`, parameters: { ...LETTER, ...batching }, items: () => Array.from({ length: creates }, () => ({ json: {}, binary: { data: { data: pdf, fileName: 'carta.pdf', mimeType: 'application/pdf' } } })) },
	];
	console.log(`PDF ${pdf.length} bytes, ${runs} rounds, interleaved`);
	const times = new Map<string, number[]>(cases.map((c) => [c.name, []]));
	const extra = new Map<string, string>();
	for (let round = 0; round <= runs; round++) {
		for (const c of cases) {
			const items = c.items();
			sandbox.control.clearRequests();
			const readsBefore = credentialReadCount();
			const started = performance.now();
			const result = await runNode({ type: NODE, parameters: c.parameters as IDataObject, items, credentials });
			const ms = performance.now() - started;
			if (result.error) throw new Error(`${c.name}: ${String(result.error.message)}`);
			// Round 0 warms up.
			if (round > 0) times.get(c.name)!.push(ms / items.length);
			extra.set(c.name, `credential reads ${credentialReadCount() - readsBefore}`);
		}
		process.stderr.write(`round ${round}/${runs}\n`);
	}
	for (const c of cases) {
		const t = times.get(c.name)!;
		console.log(`${c.name.padEnd(42)} median ${median(t).toFixed(3)} ms/item  (min ${Math.min(...t).toFixed(3)}, max ${Math.max(...t).toFixed(3)})  ${extra.get(c.name)}`);
	}
	await sandbox.stop();
}

void main();
