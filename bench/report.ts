/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
/** The figures as tables (Markdown, also what the README shows) and as a hand-written SVG chart. */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, release, totalmem } from 'node:os';

import { N8N_VERSION } from '../scripts/dev/n8n';
import type { EngineFigures, MemoryComparison } from './engineSuite';
import type { PackageFigures } from './packageSuite';
import type { ServerFigures } from './serverSuite';
import type { Spread } from './stats';

export interface Machine {
	cpu: string;
	cores: number;
	memoryGiB: number;
	node: string;
	n8n: string;
	os: string;
	commit: string;
}

/** When a part ran, and how busy the machine was (1-minute load average, at start and at end). */
export interface RunInfo {
	ranAt: string;
	quick: boolean;
	load: { start: number; end: number };
}

export interface Results {
	machine: Machine;
	engine?: EngineFigures & RunInfo;
	package?: PackageFigures & RunInfo;
	server?: ServerFigures & RunInfo;
}


function cpuModel(): string {
	const fromOs = cpus()[0]?.model.trim() ?? '';
	// Some virtual machines give only the family in /proc/cpuinfo's "model name"; lscpu may know more.
	try {
		const text = readFileSync('/sys/devices/virtual/dmi/id/product_name', 'utf8').trim();
		if (text && !fromOs.includes(text)) return `${fromOs} (${text})`;
	} catch {
		// not readable here
	}
	return fromOs || 'unknown CPU';
}

function commit(): string {
	try {
		const hash = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
		const dirty = execFileSync('git', ['status', '--porcelain', '--', 'nodes', 'credentials'], { encoding: 'utf8' }).trim();
		return dirty ? `${hash}+changes` : hash;
	} catch {
		return 'unknown';
	}
}

export function machine(): Machine {
	return {
		cpu: cpuModel(),
		cores: cpus().length,
		memoryGiB: Math.round(totalmem() / 2 ** 30),
		node: process.version,
		n8n: N8N_VERSION,
		os: `Linux ${release()}`,
		commit: commit(),
	};
}

export function describeMachine(m: Machine): string {
	return `${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, ${m.os}, Node ${m.node}, n8n ${m.n8n}, commit ${m.commit}`;
}

function table(header: string[], rows: string[][]): string {
	return [`| ${header.join(' | ')} |`, `|${header.map((_, i) => (i === 0 ? '---' : '--:')).join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

const x = (value: number) => `${value.toFixed(2)}×`;
const range = (s: Spread) => `${s.min.toFixed(2)}–${s.max.toFixed(2)}`;
const ms = (s: Spread) => (s.median >= 10 ? s.median.toFixed(1) : s.median.toFixed(2));
const goalCell = (goal?: { text: string }, met?: boolean) => (goal ? `${goal.text} ${met ? 'met' : '**not met**'}` : '');

export function engineTables(e: EngineFigures): string {
	const rows: string[][] = [];
	for (const group of e.groups) {
		const find = (id: string) => group.contenders.find((c) => c.id === id);
		for (const c of group.comparisons) {
			const subject = find(c.subject)!;
			const base = find(c.baseline);
			rows.push([
				group.title,
				`${c.subject} ÷ ${c.baseline}`,
				`**${x(c.ratio.median)}**`,
				range(c.ratio),
				goalCell(c.goal, c.met),
				`${ms(subject.msPerItem)} / ${base ? ms(base.msPerItem) : (group.latencyMs / 50).toFixed(2)}`,
				`${subject.connections} / ${base ? base.connections : '–'}`,
				`${subject.credentialReads} / ${base ? base.credentialReads : '–'}`,
			]);
		}
	}
	const time = table(['Case', 'Ratio of', 'Median', 'Rounds min–max', 'Goal', 'ms per item', 'Connections per run', 'Credential reads per run'], rows);
	const memory = table(
		['Memory case', 'Contender', 'Peak RSS (MiB)', 'Above the items (MiB)', 'Most heap (MiB)', 'Most in buffers (MiB)', 'Buffer reads', 'Streams opened', 'Requests', 'ms per item'],
		e.memory.flatMap((m) =>
			m.contenders.map((c) => [
				m.title,
				c.id,
				`${c.peakMiB.median.toFixed(0)}${c.peakMiB.n > 1 ? ` (${c.peakMiB.min.toFixed(0)}–${c.peakMiB.max.toFixed(0)})` : ''}`,
				c.id === 'items' ? '–' : `${c.aboveItemsMiB.median.toFixed(0)}${c.aboveItemsMiB.n > 1 ? ` (${c.aboveItemsMiB.min.toFixed(0)}–${c.aboveItemsMiB.max.toFixed(0)})` : ''}`,
				c.heapMiB.toFixed(0),
				c.buffersMiB.toFixed(0),
				String(c.binaryReads.buffers),
				String(c.binaryReads.streams),
				String(c.requests),
				c.id === 'items' ? '–' : c.msPerItem.toFixed(2),
			]),
		),
	);
	const growth = table(
		['Work (package, default)', 'Items', 'ms per item', 'CPU ms per item', 'Peak RSS (MiB)', 'Raised by the run (MiB)', 'Held after the run (MiB)'],
		e.growth.map((g) => [g.work === 'read' ? 'Get Balance' : 'Create, 1 MiB PDF (binary, filesystem)', String(g.items), g.msPerItem.toFixed(2), (g.cpuMs / g.items).toFixed(2), g.peakMiB.toFixed(0), g.riseMiB.toFixed(0), g.retainedMiB.toFixed(1)]),
	);
	const perContender = table(
		['Case', 'Contender', 'Items', 'ms per item (p25–p75)', 'CPU ms per item', 'GC ms per item', 'Full GCs per run', 'Connections', 'Most in flight', 'Bytes per request', 'Buffer reads', 'Streams opened', 'Credential reads'],
		e.groups.flatMap((g) =>
			g.contenders.map((c) => [
				g.id,
				c.id,
				String(c.items),
				`${ms(c.msPerItem)} (${c.msPerItem.p25.toFixed(2)}–${c.msPerItem.p75.toFixed(2)})`,
				c.cpuMsPerItem.median.toFixed(2),
				c.gcMsPerItem.toFixed(2),
				String(c.majorGcsPerRun),
				String(c.connections),
				String(c.maxInFlight),
				String(c.bytesPerRequest),
				String(c.binaryReads.buffers),
				String(c.binaryReads.streams),
				String(c.credentialReads),
			]),
		),
	);
	const legend = Object.fromEntries(e.groups.flatMap((g) => g.contenders.map((c) => [c.id, c.label])));
	return [
		'Time: each group ran in one process, its contenders interleaved; a ratio is taken per round, then its median and range.',
		'',
		time,
		'',
		Object.entries(legend)
			.map(([id, label]) => `\`${id}\`: ${label}`)
			.join('; ') + '. `ideal`: items ÷ 50 × the latency.',
		'',
		'Each contender, medians over the rounds (CPU and GC: the child process running the workflow; the server runs elsewhere):',
		'',
		perContender,
		'',
		`Memory: each contender of each case in a fresh process of its own (${e.memory[0]?.runs ?? 0} per contender; median, and range when more than one), after a 5-item warm-up; peak RSS is the process's own (its maximum resident set). Above the items: its peak minus the peak of the items alone (the start node run without any send), process by process. Buffer reads and streams opened: calls of n8n's BinaryDataService getAsBuffer and getAsStream during the measured run (stored files read whole, files opened as streams); a PDF as base64 in the item, or a file n8n keeps in memory, goes through neither.`,
		'',
		memory,
		...(e.growth.length ? ['', 'Growth: one fresh process per size.', '', growth] : []),
		...(e.memoryComparisons.length
			? [
					'',
					table(
						['Memory and growth', 'Ratio of', 'Median', 'Runs min–max', 'Goal'],
						e.memoryComparisons.map(memoryRow),
					),
				]
			: []),
	].join('\n');
}

export function serverTables(s: ServerFigures): string {
	const receivers = (title: string, part: ServerFigures['small']) =>
		part.receivers.map((r) => [
			`${title} (${part.bytes.toLocaleString('en')} bytes × ${part.deliveries})`,
			r.label,
			`${r.ms.median.toFixed(1)} (${r.ms.p25.toFixed(1)}–${r.ms.p75.toFixed(1)})`,
			r.serverCpuMs.median.toFixed(1),
		]);
	const cpu = s.triggerCpu;
	return [
		'Through a real n8n server, one delivery at a time, the three receivers interleaved round by round; a ratio is taken per round (of the round\'s median), then its median and range.',
		'',
		table(
			['Case', 'Ratio of', 'Median', 'Rounds min–max', 'Goal'],
			s.comparisons.map((c) => [c.label, `${c.subject} ÷ ${c.baseline}`, `**${x(c.ratio.median)}**`, range(c.ratio), goalCell(c.goal, c.met)]),
		),
		'',
		table(['Deliveries', 'Receiver', 'Round trip ms, median (p25–p75)', "n8n's CPU ms per delivery"], [...receivers('small signed order.status_updated', s.small), ...receivers('rr.created', s.large)]),
		'',
		`The trigger's own work on a ${(cpu.bodyBytes / 1e6).toFixed(1)} MB rr.created in n8n's engine (${cpu.runs} runs each, interleaved; peak memory from a fresh process each):`,
		'',
		table(
			['Scenario', 'Wall ms (median)', 'CPU ms (median)', 'Peak memory raised (MiB)'],
			Object.entries(cpu.scenarios).map(([name, f]) => [name === 'baseline' ? 'floor: JSON.parse + base64 decode' : name === 'verify' ? 'signature check only' : 'trigger (verify, parse, store the file, run)', f.ms.median.toFixed(1), f.cpuMs.median.toFixed(1), f.peakMiB.toFixed(1)]),
		),
		'',
		`Trigger ÷ floor per round: CPU ${x(cpu.cpuRatio.median)} (${range(cpu.cpuRatio)}), wall ${x(cpu.timeRatio.median)} (${range(cpu.timeRatio)}); peak memory raised by ${cpu.peakPerPayload}× the body.`,
	].join('\n');
}

/** The package's size and cold load, and where the load's time goes (package.md). */
export function packageTables(p: PackageFigures): string {
	const b = p.breakdown;
	const ms = (value: number) => `${value.toFixed(1)} ms`;
	const rest = Math.max(0, b.totalMs - b.resolveMs - b.displayOptionsMs - b.compileMs - b.n8nMs);
	return [
		`Tarball ${(p.tarballBytes / 1024).toFixed(1)} KiB, unpacked ${(p.unpackedBytes / 1024).toFixed(1)} KiB in ${p.files} files.`,
		'',
		`Cold load: \`loadAll()\` of n8n's PackageDirectoryLoader over the installed package (${p.nodes} nodes, ${p.credentials} credentials), ${p.coldLoadMs.n} fresh processes one after another: **${p.coldLoadMs.median.toFixed(1)} ms** median (p25–p75 ${p.coldLoadMs.p25.toFixed(1)}–${p.coldLoadMs.p75.toFixed(1)}, range ${range(p.coldLoadMs)}); the machine's load average ${p.coldLoadLoad.start} when they started, ${p.coldLoadLoad.end} when they ended.`,
		'',
		`Where the time goes: the same load in ${b.runs} more fresh processes, timed with hooks (${ms(b.totalMs)} median with them); medians.`,
		'',
		table(
			['Part of the load', 'Time', 'Share'],
			[
				[`Module resolution (${b.resolveCalls} requests: the package's relative requires, n8n-workflow through NODE_PATH)`, ms(b.resolveMs), `${Math.round((100 * b.resolveMs) / b.totalMs)} %`],
				[`n8n-workflow's updateDisplayOptions at load (${b.displayOptionsCalls} calls, lodash merges)`, ms(b.displayOptionsMs), `${Math.round((100 * b.displayOptionsMs) / b.totalMs)} %`],
				[`V8 compile of the ${b.files} package files (${(b.bytes / 1024).toFixed(0)} KiB; measured apart on a copy)`, ms(b.compileMs), `${Math.round((100 * b.compileMs) / b.totalMs)} %`],
				["n8n's work on each loaded class (codex, icons, description checks)", ms(b.n8nMs), `${Math.round((100 * b.n8nMs) / b.totalMs)} %`],
				[
					"The rest: the modules' own code at load (descriptions, tables), reading the files, garbage collection",
					ms(rest),
					`${Math.round((100 * rest) / b.totalMs)} %`,
				],
			],
		),
		'',
		'Modules with the most time of their own (compiling and running their code, their requires\' resolution included, the modules they load excluded):',
		'',
		table(
			['Module', 'Own time'],
			b.modules.map((m) => [m.file, ms(m.ms)]),
		),
	].join('\n');
}

const mib = (s: Spread) => s.median.toFixed(0);
const mibRange = (s: Spread) => (s.n > 1 ? `${s.min.toFixed(0)}–${s.max.toFixed(0)}` : mib(s));

/** A memory case shows both rises above the items (and their ratio when the HTTP Request node's is above the noise); growth its ratio. */
function memoryRow(c: MemoryComparison): string[] {
	if (!c.amounts) return [c.label, c.of ?? 'single runs', `**${x(c.ratio!.median)}**`, '–', goalCell(c.goal, c.met)];
	const { subject, anchor } = c.amounts;
	const median = `**${c.ratio ? `${x(c.ratio.median)}** (` : ''}${mib(subject)} vs ${mib(anchor)} MiB${c.ratio ? ')' : '**'}`;
	return [c.label, c.of, median, `${mibRange(subject)} / ${mibRange(anchor)} MiB`, goalCell(c.goal, c.met)];
}

/** The header of the one table of ratios `npm run bench` prints (CI looks for it). */
export const RATIO_TABLE_HEADER = ['Case', 'Ratio of', 'Median', 'Rounds min–max', 'Goal'];

/** Every ratio of the run in one table: engine groups, memory and growth, the trigger, the package. */
export function ratioTable(results: Results): string {
	const rows: string[][] = [];
	for (const group of results.engine?.groups ?? []) {
		for (const c of group.comparisons) {
			rows.push([`${group.short}: ${c.label}`, `${c.subject} ÷ ${c.baseline}`, `**${x(c.ratio.median)}**`, range(c.ratio), goalCell(c.goal, c.met)]);
		}
	}
	for (const c of results.engine?.memoryComparisons ?? []) rows.push(memoryRow(c));
	for (const c of results.server?.comparisons ?? []) {
		rows.push([`Trigger: ${c.label}`, `${c.subject} ÷ ${c.baseline}`, `**${x(c.ratio.median)}**`, range(c.ratio), goalCell(c.goal, c.met)]);
	}
	const server = results.server;
	if (server) {
		const peak = server.triggerCpu.peakPerPayload;
		rows.push(['Trigger: peak memory on 10 MB, per byte of payload', 'single run', `**${x(peak)}**`, '–', goalCell({ text: '< 4×' }, peak < 4)]);
	}
	const pkg = results.package;
	if (pkg) {
		const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
		rows.push(['Package: tarball', 'npm pack', `**${kib(pkg.tarballBytes)}**`, '–', goalCell({ text: '< 100 KB' }, pkg.tarballBytes < 100_000)]);
		rows.push(['Package: unpacked', `${pkg.files} files`, `**${kib(pkg.unpackedBytes)}**`, '–', goalCell({ text: '< 250 KB' }, pkg.unpackedBytes < 250_000)]);
		rows.push([
			`Package: cold load (${pkg.nodes} nodes, ${pkg.credentials} credentials; load average ${pkg.coldLoadLoad.start})`,
			`n8n's loader, ${pkg.coldLoadMs.n} fresh processes`,
			`**${pkg.coldLoadMs.median.toFixed(1)} ms**`,
			`${pkg.coldLoadMs.min.toFixed(1)}–${pkg.coldLoadMs.max.toFixed(1)}`,
			goalCell({ text: '< 25 ms' }, pkg.coldLoadMs.median < 25),
		]);
	}
	return table(RATIO_TABLE_HEADER, rows);
}

interface Bar {
	label: string;
	ratio: Spread;
	goal?: number;
}

function bars(results: Results): Bar[] {
	const out: Bar[] = [];
	for (const group of results.engine?.groups ?? []) {
		for (const c of group.comparisons) out.push({ label: `${group.short}: ${c.label}`, ratio: c.ratio, goal: c.goal?.max });
	}
	for (const c of results.engine?.memoryComparisons ?? []) if (c.ratio) out.push({ label: c.label, ratio: c.ratio, goal: c.goal?.max });
	for (const c of results.server?.comparisons ?? []) out.push({ label: `Trigger: ${c.label}`, ratio: c.ratio, goal: c.goal?.max });
	return out;
}

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Ratios on a log scale, one row each: median as a bar from 1×, the rounds' range as a whisker, the goal as a tick. */
export function chart(results: Results): string {
	const rows = bars(results);
	const labelWidth = 470;
	const plotWidth = 420;
	const rowHeight = 22;
	const top = 58;
	const height = top + rows.length * rowHeight + 70;
	const width = labelWidth + plotWidth + 30;
	const [lo, hi] = [0.25, 32];
	const at = (value: number) => labelWidth + (Math.log2(Math.min(hi, Math.max(lo, value)) / lo) / Math.log2(hi / lo)) * plotWidth;
	const parts: string[] = [];
	parts.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="Helvetica, Arial, sans-serif" font-size="12">`);
	parts.push(`<rect width="100%" height="100%" fill="#ffffff"/>`);
	parts.push(`<text x="12" y="22" font-size="15" font-weight="bold">Postal Service package ÷ what users would build instead (lower is better)</text>`);
	parts.push(`<text x="12" y="40" fill="#555">Median of per-round ratios; whisker: min–max over the rounds; tick: the goal of issue 14. Log scale.</text>`);
	for (const tick of [0.25, 0.5, 1, 2, 4, 8, 16, 32]) {
		const tx = at(tick);
		parts.push(`<line x1="${tx}" y1="${top - 6}" x2="${tx}" y2="${top + rows.length * rowHeight}" stroke="${tick === 1 ? '#333' : '#ddd'}" stroke-width="${tick === 1 ? 1.5 : 1}"/>`);
		parts.push(`<text x="${tx}" y="${top + rows.length * rowHeight + 16}" text-anchor="middle" fill="#555">${tick}×</text>`);
	}
	rows.forEach((row, i) => {
		const y = top + i * rowHeight;
		const mid = y + rowHeight / 2;
		const good = row.goal !== undefined ? row.ratio.median <= row.goal : row.ratio.median <= 1;
		const color = row.goal === undefined ? '#8a8a8a' : good ? '#2e8b57' : '#c0392b';
		parts.push(`<text x="${labelWidth - 8}" y="${mid + 4}" text-anchor="end">${escape(row.label)}</text>`);
		const [a, b] = [at(1), at(row.ratio.median)].sort((p, q) => p - q);
		parts.push(`<rect x="${a}" y="${y + 5}" width="${Math.max(1, b - a)}" height="${rowHeight - 10}" fill="${color}" opacity="0.85"/>`);
		parts.push(`<line x1="${at(row.ratio.min)}" y1="${mid}" x2="${at(row.ratio.max)}" y2="${mid}" stroke="#222"/>`);
		if (row.goal !== undefined) parts.push(`<line x1="${at(row.goal)}" y1="${y + 2}" x2="${at(row.goal)}" y2="${y + rowHeight - 2}" stroke="#1f4e9c" stroke-width="2"/>`);
		parts.push(`<text x="${Math.max(at(row.ratio.max), b) + 4}" y="${mid + 4}" fill="#222">${row.ratio.median.toFixed(2)}×</text>`);
	});
	const foot = top + rows.length * rowHeight + 36;
	parts.push(`<text x="12" y="${foot}" fill="#555">${escape(describeMachine(results.machine))}</text>`);
	const part = (name: string, info?: RunInfo) =>
		info ? `${name} ${info.ranAt.slice(0, 16).replace('T', ' ')} UTC${info.quick ? ' (quick)' : ''}, load ${info.load.start}→${info.load.end}` : '';
	const when = [part('engine suite', results.engine), part('server suite', results.server)].filter(Boolean).join('; ');
	parts.push(`<text x="12" y="${foot + 18}" fill="#555">${escape(when)}. Green: goal met; red: not met; grey: no goal. npm run bench</text>`);
	parts.push('</svg>');
	return parts.join('\n') + '\n';
}
