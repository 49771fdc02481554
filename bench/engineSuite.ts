/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
/**
 * The action node against n8n's HTTP Request node doing the same sends in n8n's engine: each group
 * in a child process of its own, its contenders interleaved, a ratio per round; then peak memory,
 * one fresh child per contender. The replay servers run here, in the parent.
 */
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { BATCH, groups, memoryCases, type GroupSpec, type MemoryCaseSpec, type Scale } from './cases';
import type { ChildTask, PeakResult, Sample } from './child';
import { makePdf, recordAnswers, startReplayServers } from './server';
import { compare, round, roundSpread, spread } from './stats';

export type GroupFigures = ReturnType<typeof groupFigures>;
export type MemoryCaseFigures = ReturnType<typeof memoryFigures>;
export type EngineFigures = Awaited<ReturnType<typeof runEngineSuite>>;

/** Below this rise, one process's peak against another's says nothing (peaks of one case move by several MiB). */
export const MEMORY_NOISE_MIB = 8;

/** Medians of what a contender's runs did: requests, connections, requests in flight, credential and binary reads. */
function counts(runs: Sample[]) {
	const of = (pick: (s: Sample) => number) => spread(runs.map(pick)).median;
	return {
		requests: of((s) => s.traffic.requests),
		connections: of((s) => s.traffic.connections),
		maxInFlight: of((s) => s.traffic.maxInFlight),
		credentialReads: of((s) => s.credentialReads),
		binaryReads: { buffers: of((s) => s.binaryReads.buffers), streams: of((s) => s.binaryReads.streams) },
	};
}

/**
 * Runs `bench/run.ts --child` in a fresh process (same Node, tsx, `gc()`) with its own n8n user
 * folder; hands it the tasks and takes back its results over the IPC channel.
 */
async function runChild(tasks: ChildTask[], env: NodeJS.ProcessEnv): Promise<unknown[]> {
	const folder = mkdtempSync(path.join(tmpdir(), 'postal-harness-bench-'));
	try {
		const child = fork(path.join(__dirname, 'run.ts'), ['--child'], {
			execArgv: ['--expose-gc', '--import', 'tsx'],
			cwd: path.resolve(__dirname, '..'),
			env: { ...process.env, N8N_USER_FOLDER: folder, N8N_LOG_LEVEL: 'silent', ...env },
			stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
		});
		let stderr = '';
		child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-8000)));
		let results: unknown[] | undefined;
		child.on('message', (message) => (results = message as unknown[]));
		child.send(tasks);
		const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
		if (code !== 0 || !results) throw new Error(`benchmark child exited with ${code}:\n${stderr}`);
		return results;
	} finally {
		rmSync(folder, { recursive: true, force: true });
	}
}

function groupFigures(group: GroupSpec, samples: Record<string, Sample[]>) {
	const contenders = group.contenders.map((id) => {
		const runs = samples[id];
		return { id, items: group.items, msPerItem: roundSpread(spread(runs.map((s) => s.ms / s.items)), 3), ...counts(runs) };
	});
	const comparisons = group.comparisons.map((comparison) =>
		compare(
			comparison,
			samples[comparison.subject].map((s, i) => {
				const base = samples[comparison.baseline]?.[i];
				return s.ms / s.items / (base ? base.ms / base.items : group.latencyMs / BATCH);
			}),
		),
	);
	const { id, short, latencyMs, rounds } = group;
	return { id, short, latencyMs, rounds, contenders, comparisons };
}

/** A memory case: each contender's peak over its processes, and its rise above the items alone, process by process. */
function memoryFigures(c: MemoryCaseSpec, peaks: Record<string, PeakResult[]>, runs: number) {
	const figures = (id: string) => {
		const list = peaks[id];
		const peakMiB = roundSpread(spread(list.map((r) => r.peakMiB)), 1);
		const aboveItemsMiB = roundSpread(spread(list.map((r, i) => r.peakMiB - peaks.items[i].peakMiB)), 1);
		return { id, peakMiB, aboveItemsMiB, ...counts(list) };
	};
	const [subject, anchor] = [figures(c.subject), figures(c.anchor)];
	// Processes are independent: the medians of the rises are compared, not run against run.
	const [rise, anchorRise] = [subject.aboveItemsMiB.median, anchor.aboveItemsMiB.median];
	const ratio = anchorRise >= MEMORY_NOISE_MIB ? round(rise / anchorRise, 2) : undefined;
	const { id, title, short, group } = c;
	const contenders = [figures('items'), subject, anchor];
	return { id, title, short, items: group.items, runs, subject: c.subject, anchor: c.anchor, contenders, ratio, goal: { max: 1, text: '≤ 1.0×' }, met: rise <= anchorRise };
}

export async function runEngineSuite(options: { scale: Scale; check: boolean; only?: string; workDir: string; say: (message: string) => void }) {
	const { scale, say } = options;
	const started = Date.now();
	const pdf = await makePdf();
	const pdfFile = path.join(options.workDir, 'letter.pdf');
	writeFileSync(pdfFile, pdf);
	const recorded = await recordAnswers(pdf);
	say(`engine: recorded the sandbox's answers to Get Balance and Create; PDF of ${pdf.length} bytes`);
	const servers = await startReplayServers(recorded);
	const created = String((JSON.parse(recorded.create.body) as { data?: { id?: unknown } }).data?.id ?? '');
	const task = (group: GroupSpec, extra: Partial<ChildTask> = {}): ChildTask => {
		const server = group.latencyMs > 0 ? 'slow' : 'instant';
		const marker = group.work === 'create' ? created : '"balance"';
		return { mode: 'group', group, baseUrl: servers.urls[server], controlUrl: `${servers.controlUrl}/?server=${server}`, pdfFile, marker, ...extra };
	};
	const wanted = ({ id }: { id: string }) => !options.only || id.includes(options.only);
	try {
		const timed = groups(scale).filter(wanted);
		const cases = memoryCases(scale).filter(wanted);
		// The cases share their items and their HTTP Request node: each contender runs once per round of processes.
		const ids = [...new Set(cases.flatMap((c) => ['items', c.subject, c.anchor]))];
		const peakTask = (id: string) => task(cases[0].group, { mode: 'peak', contender: id });
		const peakTasks = cases.length ? Array.from({ length: scale.memoryRuns }, () => ids.map(peakTask)).flat() : [];
		const tasks = [...timed.map((group) => task(group)), ...peakTasks];
		// A full run gives each task a fresh process; a check, whose figures mean nothing, one process per binary data mode.
		const modes = [...new Set(tasks.map((t) => t.group.binaryMode))];
		const batches = options.check ? modes.map((mode) => tasks.filter((t) => t.group.binaryMode === mode)) : tasks.map((t) => [t]);
		const results = new Map<ChildTask, unknown>();
		for (const batch of batches) {
			say(`engine: ${batch.map((t) => (t.mode === 'group' ? t.group.id : `memory ${t.contender}`)).join(', ')} in a fresh process`);
			const out = await runChild(batch, { N8N_DEFAULT_BINARY_DATA_MODE: batch[0].group.binaryMode });
			batch.forEach((t, i) => results.set(t, out[i]));
		}
		const figures = timed.map((group, i) => groupFigures(group, results.get(tasks[i]) as Record<string, Sample[]>));
		const peaks: Record<string, PeakResult[]> = Object.fromEntries(ids.map((id) => [id, []]));
		for (const t of peakTasks) peaks[t.contender!].push(results.get(t) as PeakResult);
		const memory = cases.map((c) => memoryFigures(c, peaks, scale.memoryRuns));
		return { scale, pdfBytes: pdf.length, groups: figures, memory, seconds: Math.round((Date.now() - started) / 1000) };
	} finally {
		await servers.close();
	}
}
