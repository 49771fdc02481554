/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
/**
 * Runs every reliability suite (`test/reliability/*.suite.ts`) and prints one table of figures.
 * Exits non-zero when any row has a bad count, or when no row ran at all.
 *
 * Usage: npm run reliability [-- --seed 42] [-- --scale 0.1] [-- --only forgery]
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { Sandbox } from '../../sandbox';
import type { ReliabilityRow, ReliabilitySuite } from './types';

function argument(name: string): string | undefined {
	const index = process.argv.indexOf(`--${name}`);
	return index >= 0 ? process.argv[index + 1] : undefined;
}

function table(rows: ReliabilityRow[]): string {
	const header = ['Suite', 'Case', 'Runs', 'Measure', 'Bad', 'Note'];
	const cells = rows.map((r) => [r.suite, r.case, String(r.runs), r.measure, String(r.bad), r.note ?? '']);
	const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
	const line = (c: string[]) => `| ${c.map((v, i) => v.padEnd(widths[i])).join(' | ')} |`;
	return [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...cells.map(line)].join('\n');
}

async function main(): Promise<void> {
	const seed = Number(argument('seed') ?? process.env.RELIABILITY_SEED ?? 20261123);
	const scale = Number(argument('scale') ?? 1);
	const only = argument('only');
	// n8n's execution contexts write into the user folder: keep them away from the home folder. The
	// engine harness takes a folder of this name as its own, so no suite leaves one of its own behind.
	const userFolder = mkdtempSync(path.join(tmpdir(), 'postal-harness-reliability-'));
	process.env.N8N_USER_FOLDER = userFolder;
	process.env.N8N_LOG_LEVEL ??= 'silent';
	// Imported once the environment is set: the sandbox and n8n's modules read it when they load.
	const { startSandbox } = await import('../../sandbox');
	const files = readdirSync(__dirname)
		.filter((f) => f.endsWith('.suite.ts'))
		.filter((f) => !only || f.includes(only))
		.sort();
	const rows: ReliabilityRow[] = [];
	const started = Date.now();
	try {
		for (const file of files) {
			const { suite } = (await import(path.join(__dirname, file))) as { suite: ReliabilitySuite };
			const t0 = Date.now();
			console.log(`[reliability] ${suite.name}: running (seed ${seed})`);
			const sandboxes: Sandbox[] = [];
			const sandbox = async (options: Parameters<typeof startSandbox>[0]) => {
				sandboxes.push(await startSandbox({ port: 0, quiet: true, balance: 1_000_000, ...options }));
				return sandboxes.at(-1)!;
			};
			try {
				const suiteRows = await suite.run({ seed, scale, sandbox, log: (m) => console.log(`[reliability] ${suite.name}: ${m}`) });
				rows.push(...suiteRows.map((row) => ({ suite: suite.name, ...row })));
				console.log(`[reliability] ${suite.name}: ${suiteRows.length} rows in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
			} finally {
				for (const started of sandboxes) await started.stop();
			}
		}
	} finally {
		rmSync(userFolder, { recursive: true, force: true });
	}
	console.log(`\nReliability figures (seed ${seed}, ${((Date.now() - started) / 1000).toFixed(0)} s)\n`);
	console.log(table(rows));
	const failed = rows.filter((r) => r.bad !== 0);
	console.log(`\nreliability: ${rows.length - failed.length} passed, ${failed.length} failed`);
	if (rows.length === 0) {
		console.error('reliability: no suite ran');
		process.exit(1);
	}
	if (failed.length > 0) process.exit(1);
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
