/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
/**
 * The package as users get it: the tarball's size, and its cold load by n8n's package loader in
 * fresh processes (`bench/coldLoad.cjs`), then the same load with hooks that say where its time goes.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

import { buildAndPack, installPackage } from '../scripts/dev/n8n';
import { n8nDir } from './n8nNodes';
import { repoRoot } from './spawn';
import { loadAverage, round, roundSpread, spread, type Spread } from './stats';

export interface ColdLoadBreakdown {
	runs: number;
	/** Medians over the instrumented runs, in ms (the hooks add a little to the total). */
	totalMs: number;
	resolveMs: number;
	resolveCalls: number;
	displayOptionsMs: number;
	displayOptionsCalls: number;
	n8nMs: number;
	compileMs: number;
	files: number;
	bytes: number;
	/** The modules with the most time of their own (compiling and running their code), medians. */
	modules: Array<{ file: string; ms: number }>;
}

export interface PackageFigures {
	tarballBytes: number;
	unpackedBytes: number;
	files: number;
	nodes: number;
	credentials: number;
	/** `loadAll()` of the installed package, one fresh process per run. */
	coldLoadMs: Spread;
	/** The machine's 1-minute load average when the cold loads started and ended. */
	coldLoadLoad: { start: number; end: number };
	breakdown: ColdLoadBreakdown;
}

interface LoadResult {
	ms: number;
	nodes: number;
	credentials: number;
	breakdown?: Omit<ColdLoadBreakdown, 'runs' | 'totalMs' | 'modules'> & { modules: Record<string, number> };
}

function coldLoad(installed: string, breakdown: boolean): LoadResult {
	const args = [path.join(repoRoot, 'bench', 'coldLoad.cjs'), n8nDir, installed, ...(breakdown ? ['--breakdown'] : [])];
	const out = execFileSync(process.execPath, args, { encoding: 'utf8' });
	return JSON.parse(out.trim().split('\n').pop()!) as LoadResult;
}

const median = (values: number[]) => round(spread(values).median, 2);

function breakdownOf(results: LoadResult[]): ColdLoadBreakdown {
	const parts = results.map((r) => r.breakdown!);
	const files = new Set(parts.flatMap((p) => Object.keys(p.modules)));
	const modules = [...files]
		.map((file) => ({ file, ms: median(parts.map((p) => p.modules[file] ?? 0)) }))
		.sort((a, b) => b.ms - a.ms)
		.slice(0, 12);
	return {
		runs: results.length,
		totalMs: median(results.map((r) => r.ms)),
		resolveMs: median(parts.map((p) => p.resolveMs)),
		resolveCalls: median(parts.map((p) => p.resolveCalls)),
		displayOptionsMs: median(parts.map((p) => p.displayOptionsMs)),
		displayOptionsCalls: median(parts.map((p) => p.displayOptionsCalls)),
		n8nMs: median(parts.map((p) => p.n8nMs)),
		compileMs: median(parts.map((p) => p.compileMs)),
		files: parts[0].files,
		bytes: parts[0].bytes,
		modules,
	};
}

export async function runPackageSuite(options: { quick: boolean; workDir: string; say: (m: string) => void }): Promise<PackageFigures> {
	const { quick, say } = options;
	say('package: build, npm pack, and the tarball laid out as n8n installs it');
	const tarball = await buildAndPack(path.join(options.workDir, 'pack'));
	const installed = await installPackage(path.join(options.workDir, 'package-user'), tarball);
	const files: string[] = [];
	const walk = (dir: string) => {
		for (const entry of readdirSync(dir, { withFileTypes: true })) {
			const full = path.join(dir, entry.name);
			if (entry.isDirectory()) walk(full);
			else files.push(full);
		}
	};
	walk(installed);

	// Many fresh processes, one after another: the median is what a load of n8n meets.
	const runs = quick ? 9 : 31;
	const start = loadAverage();
	const loads = Array.from({ length: runs }, () => coldLoad(installed, false));
	const end = loadAverage();
	const coldLoadMs = roundSpread(spread(loads.map((l) => l.ms)), 1);
	say(`package: cold load ${coldLoadMs.median} ms median of ${runs} fresh processes (${coldLoadMs.min}–${coldLoadMs.max}), load average ${start}→${end}`);
	const breakdown = breakdownOf(Array.from({ length: quick ? 5 : 15 }, () => coldLoad(installed, true)));
	say(
		`package: where it goes (instrumented, ${breakdown.totalMs} ms): resolution ${breakdown.resolveMs} ms, updateDisplayOptions ${breakdown.displayOptionsMs} ms, ` +
			`n8n's work per file ${breakdown.n8nMs} ms, V8 compile of the ${breakdown.files} files ${breakdown.compileMs} ms`,
	);
	return {
		tarballBytes: statSync(tarball).size,
		unpackedBytes: files.reduce((sum, f) => sum + statSync(f).size, 0),
		files: files.length,
		nodes: loads[0].nodes,
		credentials: loads[0].credentials,
		coldLoadMs,
		coldLoadLoad: { start, end },
		breakdown,
	};
}
