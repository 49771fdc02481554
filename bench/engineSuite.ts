/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
/**
 * The action node against what a user would build instead, in n8n's engine: each group in a child
 * process of its own with its contenders interleaved; then peak memory and growth, one fresh child
 * per case. The replay servers run here, in the parent.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';

import { BATCH, groups, type ComparisonSpec, type GroupSpec, type Scale } from './cases';
import type { ChildTask, GroupResult, PeakResult, Sample } from './child';
import { makePdf, recordAnswers, startControl, startReplayServer, type Recorded } from './server';
import { runChild } from './spawn';
import { round, roundSpread, spread, type Spread } from './stats';

export interface ContenderFigures {
	id: string;
	label: string;
	items: number;
	msPerItem: Spread;
	cpuMsPerItem: Spread;
	/** Per timed run (medians over the rounds). */
	connections: number;
	maxInFlight: number;
	bytesPerRequest: number;
	credentialReads: number;
	gcMsPerItem: number;
	majorGcsPerRun: number;
}

export interface ComparisonFigures extends ComparisonSpec {
	group: string;
	/** Subject / baseline per round (same round, same process), then their median and spread. */
	ratio: Spread;
	met?: boolean;
}

export interface GroupFigures {
	id: string;
	title: string;
	short: string;
	latencyMs: number;
	binaryMode: string;
	rounds: number;
	contenders: ContenderFigures[];
	comparisons: ComparisonFigures[];
}

export interface PeakFigures extends PeakResult {
	group: string;
	msPerItem: number;
}

export interface EngineFigures {
	scale: Scale;
	server: string;
	pdfBytes: number;
	groups: GroupFigures[];
	peaks: PeakFigures[];
	growth: Array<PeakFigures & { work: string }>;
	/** Ratios from single runs: peak memory against the HTTP Request node, and growth with the item count. */
	memoryComparisons: Array<{ label: string; ratio: Spread; goal?: { max: number; text: string }; met?: boolean }>;
	seconds: number;
}

const single = (value: number): Spread => ({ median: round(value), p25: round(value), p75: round(value), min: round(value), max: round(value), n: 1 });

function memoryComparisons(peaks: PeakFigures[], growth: EngineFigures['growth'], all: GroupSpec[]): EngineFigures['memoryComparisons'] {
	const out: EngineFigures['memoryComparisons'] = [];
	for (const group of all) {
		const ours = peaks.find((p) => p.group === group.id && p.contender === 'pkg.b50');
		const theirs = peaks.find((p) => p.group === group.id && p.contender === 'http.default');
		if (!ours || !theirs || group.work !== 'create') continue;
		const ratio = single(ours.peakMiB / theirs.peakMiB);
		out.push({ label: `${group.short}: peak RSS, Batching 50 vs HTTP Request`, ratio, goal: { max: 1, text: '≤ 1.0×' }, met: ratio.median <= 1 });
	}
	for (const work of ['read', 'create']) {
		const sizes = growth.filter((g) => g.work === work);
		if (sizes.length < 2) continue;
		const [first, last] = [sizes[0], sizes[sizes.length - 1]];
		const what = work === 'read' ? 'Read' : 'Create';
		out.push({ label: `Growth, ${what}: ms per item at ${last.items} vs ${first.items}`, ratio: single(last.msPerItem / first.msPerItem) });
		out.push({ label: `Growth, ${what}: peak RSS at ${last.items} vs ${first.items}`, ratio: single(last.peakMiB / first.peakMiB) });
	}
	return out;
}

const median = (values: number[]) => spread(values).median;

function contenderFigures(group: GroupSpec, samples: Record<string, Sample[]>): ContenderFigures[] {
	return group.contenders.map((c) => {
		const runs = samples[c.id];
		return {
			id: c.id,
			label: c.label,
			items: c.items,
			msPerItem: roundSpread(spread(runs.map((s) => s.ms / s.items)), 3),
			cpuMsPerItem: roundSpread(spread(runs.map((s) => s.cpuMs / s.items)), 3),
			connections: median(runs.map((s) => s.traffic.connections)),
			maxInFlight: median(runs.map((s) => s.traffic.maxInFlight)),
			bytesPerRequest: Math.round(median(runs.map((s) => s.traffic.bytesIn / Math.max(1, s.traffic.requests)))),
			credentialReads: median(runs.map((s) => s.credentialReads)),
			gcMsPerItem: round(median(runs.map((s) => s.gcMs / s.items)), 3),
			majorGcsPerRun: median(runs.map((s) => s.majorGcs)),
		};
	});
}

function comparisonFigures(group: GroupSpec, samples: Record<string, Sample[]>): ComparisonFigures[] {
	return group.comparisons.map((comparison) => {
		const subject = samples[comparison.subject];
		const ratios = subject.map((s, i) => {
			const perItem = s.ms / s.items;
			if (comparison.baseline === 'ideal') return perItem / (group.latencyMs / BATCH);
			const base = samples[comparison.baseline][i];
			return perItem / (base.ms / base.items);
		});
		const ratio = roundSpread(spread(ratios), 2);
		return { ...comparison, group: group.id, ratio, met: comparison.goal ? ratio.median <= comparison.goal.max : undefined };
	});
}

/** Which cases get a fresh child for their peak memory. */
function peakCases(all: GroupSpec[], quick: boolean): Array<{ group: GroupSpec; contender: string }> {
	const wanted: Record<string, string[]> = quick
		? { 'read-instant': ['pkg.b50', 'http.default'], 'create-binary-filesystem': ['pkg.b50', 'http.default'] }
		: {
				'read-instant': ['pkg.seq', 'pkg.b50', 'undici.seq', 'http.default'],
				'create-binary-filesystem': ['pkg.seq', 'pkg.b50', 'undici.seq', 'http.default'],
				'create-binary-memory': ['pkg.b50', 'http.default'],
				'create-base64': ['pkg.b50', 'http.default'],
			};
	return all.flatMap((group) => (wanted[group.id] ?? []).map((contender) => ({ group, contender })));
}

export interface Bench {
	task(group: GroupSpec, extra?: Partial<ChildTask>): ChildTask;
	env(group: GroupSpec): NodeJS.ProcessEnv;
	pdfBytes: number;
	close(): Promise<void>;
}

/** The PDF, the sandbox's recorded answers and the two replay servers (at once, after 50 ms). */
export async function startBench(workDir: string, say: (message: string) => void): Promise<Bench> {
	const pdf = await makePdf();
	const pdfFile = path.join(workDir, 'letter.pdf');
	writeFileSync(pdfFile, pdf);
	const recorded: Recorded = await recordAnswers(pdf);
	say(`recorded the sandbox's answers to Get Balance and Create; PDF of ${pdf.length} bytes`);
	const servers = { instant: await startReplayServer(recorded, 0), slow: await startReplayServer(recorded, 50) };
	const control = await startControl(servers);
	const marker = String((JSON.parse(recorded.create.body) as { data?: { id?: unknown } }).data?.id ?? '');
	return {
		pdfBytes: pdf.length,
		task(group, extra = {}) {
			const server = group.latencyMs > 0 ? 'slow' : 'instant';
			return {
				mode: 'group',
				group,
				baseUrl: servers[server].url,
				controlUrl: control.url,
				serverName: server,
				pdfFile,
				marker: group.work === 'create' ? marker : '"balance"',
				...extra,
			};
		},
		env: (group) => ({ N8N_DEFAULT_BINARY_DATA_MODE: group.binaryMode }),
		async close() {
			await control.close();
			await servers.instant.close();
			await servers.slow.close();
		},
	};
}

export async function runEngineSuite(options: {
	scale: Scale;
	quick: boolean;
	only?: string;
	workDir: string;
	say: (message: string) => void;
}): Promise<EngineFigures> {
	const { scale, say } = options;
	const started = Date.now();
	const bench = await startBench(options.workDir, say);
	const { task, env } = bench;
	const all = groups(scale).filter((g) => !options.only || g.id.includes(options.only));
	try {
		const figures: GroupFigures[] = [];
		for (const [index, group] of all.entries()) {
			say(`group ${index + 1}/${all.length}: ${group.title} (${group.contenders.length} contenders, ${group.rounds} rounds)`);
			const result = await runChild<GroupResult>(['--child'], task(group), { env: env(group), onLine: (line) => say(`  ${line}`) });
			const comparisons = comparisonFigures(group, result.samples);
			for (const c of comparisons) say(`  ${c.label}: ${c.ratio.median}× (${c.ratio.min}–${c.ratio.max})`);
			figures.push({
				id: group.id,
				title: group.title,
				short: group.short,
				latencyMs: group.latencyMs,
				binaryMode: group.binaryMode,
				rounds: group.rounds,
				contenders: contenderFigures(group, result.samples),
				comparisons,
			});
		}

		const peaks: PeakFigures[] = [];
		const cases = peakCases(all, options.quick);
		for (const [index, { group, contender }] of cases.entries()) {
			const items = group.contenders.find((c) => c.id === contender)!.items;
			const result = await runChild<PeakResult>(['--child'], task(group, { mode: 'peak', contender, items }), { env: env(group) });
			peaks.push({ ...result, group: group.id, msPerItem: round(result.ms / items, 3), peakMiB: round(result.peakMiB, 1), riseMiB: round(result.riseMiB, 1), retainedMiB: round(result.retainedMiB, 1) });
			say(`peak memory ${index + 1}/${cases.length}: ${group.id} ${contender} × ${items}: ${result.peakMiB.toFixed(0)} MiB (run raised it by ${result.riseMiB.toFixed(0)} MiB)`);
		}

		const growth: EngineFigures['growth'] = [];
		const sizes = options.quick ? { read: [100, 1000], create: [10, 100] } : { read: [100, 1000, 10_000], create: [100, 1000, 10_000] };
		const growthGroups = { read: groups(scale)[0], create: groups(scale)[2] };
		if (!options.only) {
			for (const work of ['read', 'create'] as const) {
				for (const items of sizes[work]) {
					const group = growthGroups[work];
					// The same case may have run for its peak memory already: a fresh process either way.
					const earlier = peaks.find((p) => p.group === group.id && p.contender === 'pkg.seq' && p.items === items);
					if (earlier) {
						growth.push({ ...earlier, work });
						say(`growth: ${work} × ${items}: ${earlier.msPerItem.toFixed(2)} ms per item, peak ${earlier.peakMiB.toFixed(0)} MiB (the peak-memory run above)`);
						continue;
					}
					const result = await runChild<PeakResult>(['--child'], task(group, { mode: 'peak', contender: 'pkg.seq', items }), { env: env(group) });
					growth.push({ ...result, work, group: group.id, msPerItem: round(result.ms / items, 3), peakMiB: round(result.peakMiB, 1), riseMiB: round(result.riseMiB, 1), retainedMiB: round(result.retainedMiB, 1) });
					say(`growth: ${work} × ${items}: ${(result.ms / items).toFixed(2)} ms per item, peak ${result.peakMiB.toFixed(0)} MiB`);
				}
			}
		}
		return {
			scale,
			server: 'replay',
			pdfBytes: bench.pdfBytes,
			groups: figures,
			peaks,
			growth,
			memoryComparisons: memoryComparisons(peaks, growth, all),
			seconds: Math.round((Date.now() - started) / 1000),
		};
	} finally {
		await bench.close();
	}
}
