/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
/**
 * The package against what users would build instead (issue 14's suite).
 *
 *   npm run bench                  everything (about 30 minutes on 2 cores): the action node in n8n's
 *                                  engine against n8n's HTTP Request node, n8n's request helper and raw
 *                                  undici, peak memory against the HTTP Request node, and growth; the
 *                                  package's size and cold load by n8n's loader, and where that goes;
 *                                  then the trigger through a real n8n against n8n's Webhook node 1
 *                                  and 2 and the trigger's own CPU against the floor
 *   npm run bench -- --quick       the same, smaller (a few minutes; CI runs it)
 *   npm run bench -- --engine      only the engine part; `--package` only the package part, `--server`
 *                                  only the server part (they combine)
 *   npm run bench -- --only read   only the engine groups and memory cases whose id contains `read`
 *                                  (no growth); `--only memory-` runs the memory cases alone
 *   npm run bench -- --only memory- --collect-every 300
 *                                  the memory cases with a full collection every 300 ms of each
 *                                  measured run: the peaks then show live memory, not garbage
 *   npm run bench -- --profile read-instant:pkg.seq[:items]
 *                                  where one contender's CPU time goes (nothing is written)
 *   npm run bench -- --server --profile trigger [--deliveries 200]
 *                                  where n8n's server spends its CPU on one receiver's deliveries
 *
 * Prints progress, then one table of ratios; writes bench/results/latest.json, chart.svg and the
 * detailed tables (engine.md, package.md, server.md), or the same under bench/results/quick/ for
 * --quick, --only and --collect-every runs.
 * Everything runs on 127.0.0.1; n8n must be installed (`bash scripts/dev/install-n8n.sh`, once).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { childMain } from './child';
import { FULL, QUICK } from './cases';
import { runEngineSuite } from './engineSuite';
import { n8nInstalled, n8nDir } from './n8nNodes';
import { runProfile } from './profile';
import { profileServer } from './serverProfile';
import { runPackageSuite } from './packageSuite';
import { chart, describeMachine, engineTables, machine, packageTables, ratioTable, serverTables, type Results } from './report';
import { loadAverage } from './stats';
import { runServerSuite, serverChildMain } from './serverSuite';

// The README shows the figures of a full run; quick and partial runs (CI, developers) go beside them.
const fullResults = path.join(__dirname, 'results');

function argument(name: string): string | undefined {
	const index = process.argv.indexOf(`--${name}`);
	return index >= 0 ? process.argv[index + 1] : undefined;
}

function previous(resultsFile: string): Partial<Results> {
	try {
		return JSON.parse(readFileSync(resultsFile, 'utf8')) as Partial<Results>;
	} catch {
		return {};
	}
}

async function main() {
	const args = process.argv.slice(2);
	if (args[0] === '--child') return await childMain(args[1], args[2]);
	if (args[0] === '--server-child') return await serverChildMain(args[1], args[2], args[3]);

	const quick = args.includes('--quick');
	const only = argument('only');
	// A diagnostic run (collections forced during the memory cases) is no full run either.
	const resultsDir = quick || only || argument('collect-every') ? path.join(fullResults, 'quick') : fullResults;
	const resultsFile = path.join(resultsDir, 'latest.json');
	const started = Date.now();
	const say = (message: string) => console.log(`[bench ${((Date.now() - started) / 1000).toFixed(0).padStart(4)}s] ${message}`);
	if (!n8nInstalled()) throw new Error(`n8n is not installed in ${n8nDir}: run \`bash scripts/dev/install-n8n.sh\` first (once)`);
	const results: Results = { ...previous(resultsFile), machine: machine() } as Results;
	const loadAtStart = loadAverage();
	say(`${describeMachine(results.machine)}; load average ${loadAtStart}`);
	const info = () => ({ ranAt: new Date().toISOString(), quick, load: { start: loadAtStart, end: loadAverage() } });
	mkdirSync(resultsDir, { recursive: true });
	const save = () => {
		writeFileSync(resultsFile, JSON.stringify(results, null, '\t') + '\n');
		writeFileSync(path.join(resultsDir, 'chart.svg'), chart(results));
	};
	const workDir = mkdtempSync(path.join(tmpdir(), 'postal-bench-'));
	try {
		const profile = argument('profile');
		if (profile && args.includes('--server')) return await profileServer(profile, Number(argument('deliveries') ?? 200), { workDir, say });
		if (profile) return await runProfile(profile, { quick, workDir, say });
		// Every part by default; `--engine`, `--package` or `--server` runs those named and keeps the others' last figures.
		const named = ['engine', 'package', 'server'].filter((part) => args.includes(`--${part}`));
		const parts = new Set(only !== undefined ? ['engine'] : named.length ? named : ['engine', 'package', 'server']);
		if (parts.has('engine')) {
			const collectEvery = argument('collect-every');
			const engine = await runEngineSuite({ scale: quick ? QUICK : FULL, quick, only, collectEveryMs: collectEvery ? Number(collectEvery) : undefined, workDir, say });
			results.engine = { ...engine, ...info() };
			writeFileSync(path.join(resultsDir, 'engine.md'), engineTables(results.engine) + '\n');
			// Kept at once: a failure in the server part must not lose a long engine run.
			save();
		}
		if (parts.has('package')) {
			results.package = { ...(await runPackageSuite({ quick, workDir, say })), ...info() };
			writeFileSync(path.join(resultsDir, 'package.md'), packageTables(results.package) + '\n');
			save();
		}
		if (parts.has('server')) {
			// The package part has just built the package: the server installs that build.
			results.server = { ...(await runServerSuite({ quick, workDir, build: !parts.has('package'), say })), ...info() };
			writeFileSync(path.join(resultsDir, 'server.md'), serverTables(results.server) + '\n');
		}
		console.log(`\nRatios (${describeMachine(results.machine)}); details in ${path.relative(process.cwd(), resultsDir)}/engine.md, package.md and server.md:\n`);
		console.log(ratioTable(results));
	} finally {
		rmSync(workDir, { recursive: true, force: true });
	}
	save();
	say(`figures written to ${path.relative(process.cwd(), resultsFile)} and chart.svg beside it`);
}

main().catch((error) => {
	console.error(error);
	process.exitCode = 1;
});
