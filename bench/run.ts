/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
/**
 * The package against what users would build with n8n's own nodes, as ratios against a baseline run
 * in the same process: the action node against n8n's HTTP Request node doing the same sends in n8n's
 * engine (time, and peak memory with 1 MiB PDFs), and the trigger against n8n's Webhook node taking
 * the same deliveries through a real n8n server. Its modes (`--check` for CI, `--engine`, `--server`,
 * `--only <id>`) and what each writes: docs/performance.md, "Running the benchmarks".
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';

import { CHECK, FULL } from './cases';
import { childMain } from './child';
import { runEngineSuite } from './engineSuite';
import { n8nDir, n8nInstalled } from './nodes';
import { describeMachine, engineTables, machine, ratioTable, serverTables, type Results } from './report';
import { runServerSuite } from './serverSuite';

const loadAverage = () => Number(loadavg()[0].toFixed(2));

async function main() {
	const args = process.argv.slice(2);
	if (args[0] === '--child') return await childMain();
	const check = args.includes('--check') || args.includes('--quick');
	const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;
	// docs/performance.md quotes a full run's figures; checks and partial runs go beside them.
	const resultsDir = path.join(__dirname, 'results', check || only ? 'quick' : '');
	const resultsFile = path.join(resultsDir, 'latest.json');
	const started = Date.now();
	const say = (message: string) => console.log(`[bench ${((Date.now() - started) / 1000).toFixed(0).padStart(4)}s] ${message}`);
	if (!n8nInstalled()) throw new Error(`n8n is not installed in ${n8nDir}: run \`bash scripts/dev/install-n8n.sh\` first (once)`);
	const previous = existsSync(resultsFile) ? (JSON.parse(readFileSync(resultsFile, 'utf8')) as Partial<Results>) : {};
	const results: Results = { machine: machine(), engine: previous.engine, server: previous.server };
	const loadAtStart = loadAverage();
	say(`${describeMachine(results.machine)}; load average ${loadAtStart}`);
	const info = () => ({ ranAt: new Date().toISOString(), check, load: { start: loadAtStart, end: loadAverage() } });
	mkdirSync(resultsDir, { recursive: true });
	// `--engine` or `--server` runs the part named and keeps the other's last figures.
	const named = ['engine', 'server'].filter((part) => args.includes(`--${part}`));
	const parts = new Set(only !== undefined ? ['engine'] : named.length ? named : ['engine', 'server']);
	const workDir = mkdtempSync(path.join(tmpdir(), 'postal-bench-'));
	try {
		const engine = async () => {
			if (!parts.has('engine')) return;
			results.engine = { ...(await runEngineSuite({ scale: check ? CHECK : FULL, check, only, workDir, say })), ...info() };
			writeFileSync(path.join(resultsDir, 'engine.md'), engineTables(results.engine) + '\n');
		};
		const server = async () => {
			if (!parts.has('server')) return;
			results.server = { ...(await runServerSuite({ check, workDir, say })), ...info() };
			writeFileSync(path.join(resultsDir, 'server.md'), serverTables(results.server) + '\n');
		};
		// A check's figures are not judged, so its parts share the machine; a full run measures one at a time.
		if (check) await Promise.all([engine(), server()]);
		else for (const part of [engine, server]) await part();
	} finally {
		rmSync(workDir, { recursive: true, force: true });
	}
	writeFileSync(resultsFile, JSON.stringify(results, null, '\t') + '\n');
	const what = check ? 'a check: each comparison ran, with too few items for its figure to mean anything' : describeMachine(results.machine);
	console.log(`\nRatios (${what}); details in ${path.relative(process.cwd(), resultsDir)}/engine.md and server.md:\n`);
	console.log(ratioTable(results));
	say(`figures written to ${path.relative(process.cwd(), resultsFile)}`);
}

main().catch((error) => {
	console.error(error);
	process.exitCode = 1;
});
