/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
/**
 * The action node against what a user would build instead, in n8n's engine: each group in a child
 * process of its own with its contenders interleaved; then peak memory and growth, one fresh child
 * per case. The replay servers run here, in the parent.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';

import { BATCH, groups, memoryCases, type ComparisonSpec, type GroupSpec, type MemoryCaseSpec, type Scale } from './cases';
import type { BinaryReads, ChildTask, GroupResult, PeakResult, Sample } from './child';
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
	/** Stored files read whole and opened as streams, per run (medians). */
	binaryReads: BinaryReads;
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

/** One contender of a memory case, over its fresh processes (medians). */
export interface MemoryContenderFigures {
	id: string;
	label: string;
	peakMiB: Spread;
	/** Peak RSS above the items alone, run by run. */
	aboveItemsMiB: Spread;
	/** The most heap and the most buffer memory seen during the run (sampled), medians. */
	heapMiB: number;
	buffersMiB: number;
	binaryReads: BinaryReads;
	requests: number;
	msPerItem: number;
}

export interface MemoryCaseFigures {
	id: string;
	title: string;
	short: string;
	items: number;
	runs: number;
	subject: string;
	anchor: string;
	contenders: MemoryContenderFigures[];
	/** Peak RSS above the items alone, the package's and the HTTP Request node's (MiB, over the runs). */
	subjectAboveMiB: Spread;
	anchorAboveMiB: Spread;
	/** Their medians' ratio; none when the HTTP Request node's rise is within the noise of a peak (under 8 MiB). */
	ratio?: number;
	goal: { max: number; text: string };
	/** The package's median rise at or under the HTTP Request node's. */
	met: boolean;
}

/** Below this rise, one process's peak against another's says nothing (peaks of one case move by several MiB). */
export const MEMORY_NOISE_MIB = 8;

export interface MemoryComparison {
	label: string;
	/** What the ratio divides, as the table shows it. */
	of: string;
	/** None for a memory case whose HTTP Request node barely rose (see `amounts`). */
	ratio?: Spread;
	/** For memory cases: the two rises above the items, MiB (medians, and ranges over the runs). */
	amounts?: { subject: Spread; anchor: Spread };
	goal?: { max: number; text: string };
	met?: boolean;
}

export interface EngineFigures {
	scale: Scale;
	server: string;
	pdfBytes: number;
	groups: GroupFigures[];
	memory: MemoryCaseFigures[];
	growth: Array<PeakFigures & { work: string }>;
	/** Peak memory against the HTTP Request node (fresh processes), and growth with the item count (single runs). */
	memoryComparisons: MemoryComparison[];
	seconds: number;
}

const single = (value: number): Spread => ({ median: round(value), p25: round(value), p75: round(value), min: round(value), max: round(value), n: 1 });

function memoryComparisons(memory: MemoryCaseFigures[], growth: EngineFigures['growth']): MemoryComparison[] {
	const out: MemoryComparison[] = memory.map((m) => ({
		label: `${m.short}: peak RSS above the items, ${m.subject} vs HTTP Request`,
		of: `${m.subject} ÷ ${m.anchor}, above items`,
		ratio: m.ratio === undefined ? undefined : single(m.ratio),
		amounts: { subject: m.subjectAboveMiB, anchor: m.anchorAboveMiB },
		goal: m.goal,
		met: m.met,
	}));
	for (const work of ['read', 'create']) {
		const sizes = growth.filter((g) => g.work === work);
		if (sizes.length < 2) continue;
		const [first, last] = [sizes[0], sizes[sizes.length - 1]];
		const what = work === 'read' ? 'Read' : 'Create (Never)';
		out.push({ label: `Growth, ${what}: ms per item at ${last.items} vs ${first.items}`, of: 'single runs', ratio: single(last.msPerItem / first.msPerItem) });
		out.push({ label: `Growth, ${what}: peak RSS at ${last.items} vs ${first.items}`, of: 'single runs', ratio: single(last.peakMiB / first.peakMiB) });
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
			binaryReads: { buffers: median(runs.map((s) => s.binaryReads.buffers)), streams: median(runs.map((s) => s.binaryReads.streams)) },
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

/**
 * The memory cases: every contender of every case in fresh processes, `runs` times, the contenders
 * of a run one after another; a child shared by two cases (the same items, the same contender) runs once.
 */
async function runMemoryCases(
	cases: MemoryCaseSpec[],
	runs: number,
	bench: Bench,
	say: (message: string) => void,
	collectEveryMs?: number,
): Promise<MemoryCaseFigures[]> {
	const results = new Map<string, PeakResult[]>();
	const key = (group: GroupSpec, contender: string) => `${group.id}:${contender}`;
	const children = cases.flatMap((c) => [c.baseline, c.subject, c.anchor].map((contender) => ({ group: c.group, contender })));
	const unique = children.filter((child, i) => children.findIndex((other) => key(other.group, other.contender) === key(child.group, child.contender)) === i);
	for (let run = 0; run < runs; run++) {
		for (const [index, { group, contender }] of unique.entries()) {
			const items = group.contenders.find((c) => c.id === contender)!.items;
			const result = await runChild<PeakResult>(['--child'], bench.task(group, { mode: 'peak', contender, items, collectEveryMs }), { env: bench.env(group) });
			results.set(key(group, contender), [...(results.get(key(group, contender)) ?? []), result]);
			const reads = `${result.binaryReads.buffers} buffer reads, ${result.binaryReads.streams} streams, ${result.traffic.requests} requests`;
			const where = `most heap ${result.heapMiB.toFixed(0)} MiB, most in buffers ${result.buffersMiB.toFixed(0)} MiB`;
			say(`memory ${run * unique.length + index + 1}/${runs * unique.length}: ${group.id} ${contender} × ${items}: peak ${result.peakMiB.toFixed(0)} MiB; ${where} (${reads})`);
		}
	}
	return cases.map((c) => {
		const baseline = results.get(key(c.group, c.baseline))!;
		const figures = (id: string): MemoryContenderFigures => {
			const list = results.get(key(c.group, id))!;
			return {
				id,
				label: c.group.contenders.find((contender) => contender.id === id)!.label,
				peakMiB: roundSpread(spread(list.map((r) => r.peakMiB)), 1),
				aboveItemsMiB: roundSpread(spread(list.map((r, i) => r.peakMiB - baseline[i].peakMiB)), 1),
				heapMiB: round(median(list.map((r) => r.heapMiB)), 1),
				buffersMiB: round(median(list.map((r) => r.buffersMiB)), 1),
				binaryReads: { buffers: median(list.map((r) => r.binaryReads.buffers)), streams: median(list.map((r) => r.binaryReads.streams)) },
				requests: median(list.map((r) => r.traffic.requests)),
				msPerItem: round(median(list.map((r) => r.ms / r.items)), 2),
			};
		};
		// Processes are independent: the medians of the rises are compared, not run against run.
		const [subject, anchor] = [figures(c.subject), figures(c.anchor)];
		const ratio = anchor.aboveItemsMiB.median >= MEMORY_NOISE_MIB ? round(subject.aboveItemsMiB.median / anchor.aboveItemsMiB.median, 2) : undefined;
		const goal = { max: 1, text: '≤ 1.0×' };
		return {
			id: c.id,
			title: collectEveryMs ? `${c.title}, a full collection every ${collectEveryMs} ms` : c.title,
			short: collectEveryMs ? `${c.short}, collected every ${collectEveryMs} ms` : c.short,
			items: c.group.contenders[0].items,
			runs,
			subject: c.subject,
			anchor: c.anchor,
			contenders: [c.baseline, c.subject, c.anchor].map(figures),
			subjectAboveMiB: subject.aboveItemsMiB,
			anchorAboveMiB: anchor.aboveItemsMiB,
			ratio,
			goal,
			met: subject.aboveItemsMiB.median <= anchor.aboveItemsMiB.median,
		};
	});
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
	/** Memory cases only: a full collection this often during each measured run (live memory, not garbage). */
	collectEveryMs?: number;
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

		const memory = await runMemoryCases(
			memoryCases(scale).filter((c) => !options.only || c.id.includes(options.only)),
			scale.memoryRuns,
			bench,
			say,
			options.collectEveryMs,
		);
		for (const m of memory) {
			const ratio = m.ratio === undefined ? '' : ` (${m.ratio}×)`;
			say(`  ${m.short}: above the items, ${m.subject} ${m.subjectAboveMiB.median} MiB vs ${m.anchor} ${m.anchorAboveMiB.median} MiB${ratio}`);
		}

		const growth: EngineFigures['growth'] = [];
		const sizes = options.quick ? { read: [100, 1000], create: [10, 100] } : { read: [100, 1000, 10_000], create: [100, 1000, 10_000] };
		const growthGroups = { read: groups(scale)[0], create: groups(scale)[2] };
		// One item at a time, one request per item (a create: Check With the Service First: Never).
		const growthContender = { read: 'pkg.seq', create: 'pkg.seq.never' };
		if (!options.only) {
			for (const work of ['read', 'create'] as const) {
				for (const items of sizes[work]) {
					const group = growthGroups[work];
					const result = await runChild<PeakResult>(['--child'], task(group, { mode: 'peak', contender: growthContender[work], items }), { env: env(group) });
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
			memory,
			growth,
			memoryComparisons: memoryComparisons(memory, growth),
			seconds: Math.round((Date.now() - started) / 1000),
		};
	} finally {
		await bench.close();
	}
}
