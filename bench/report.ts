/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
/** The figures as Markdown tables: the one table of ratios every run prints, and the detailed tables a run writes. */
import { execFileSync } from 'node:child_process';
import { cpus, release, totalmem } from 'node:os';

import { N8N_VERSION } from '../scripts/dev/n8n';
import type { EngineFigures, MemoryCaseFigures } from './engineSuite';
import type { ServerFigures } from './serverSuite';
import type { Spread } from './stats';

/** When a part ran, and how busy the machine was (1-minute load average, at start and at end). */
export interface RunInfo {
	ranAt: string;
	check: boolean;
	load: { start: number; end: number };
}

export interface Results {
	machine: ReturnType<typeof machine>;
	engine?: EngineFigures & RunInfo;
	server?: ServerFigures & RunInfo;
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

export function machine() {
	const cpu = cpus()[0]?.model.trim() || 'unknown CPU';
	const memoryGiB = Math.round(totalmem() / 2 ** 30);
	return { cpu, cores: cpus().length, memoryGiB, node: process.version, n8n: N8N_VERSION, os: `Linux ${release()}`, commit: commit() };
}

export function describeMachine(m: Results['machine']): string {
	return `${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, ${m.os}, Node ${m.node}, n8n ${m.n8n}, commit ${m.commit}`;
}

function table(header: string[], rows: string[][]): string {
	const align = `|${header.map((_, i) => (i === 0 ? '---' : '--:')).join('|')}|`;
	return [`| ${header.join(' | ')} |`, align, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

const x = (value: number) => `${value.toFixed(2)}×`;
const range = (s: Spread) => `${s.min.toFixed(2)}–${s.max.toFixed(2)}`;
const ms = (s: Spread) => (s.median >= 10 ? s.median.toFixed(1) : s.median.toFixed(2));
const goalCell = (goal?: { text: string }, met?: boolean) => (goal ? `${goal.text} ${met ? 'met' : '**not met**'}` : '');
const mib = (s: Spread) => `${s.median.toFixed(0)}${s.n > 1 ? ` (${s.min.toFixed(0)}–${s.max.toFixed(0)})` : ''}`;

/** A memory case shows both rises above the items, and their ratio when the HTTP Request node's is above the noise. */
function memoryRow(m: MemoryCaseFigures): string[] {
	const [subject, anchor] = [m.contenders[1].aboveItemsMiB, m.contenders[2].aboveItemsMiB];
	const figure = `${m.ratio === undefined ? '' : `**${x(m.ratio)}** `}(${mib(subject)} vs ${mib(anchor)} MiB)`;
	return [`${m.short}: peak RSS above the items`, `${m.subject} ÷ ${m.anchor}`, figure, m.runs > 1 ? `${m.runs} processes each` : '–', goalCell(m.goal, m.met)];
}

/** The header of the one table of ratios `npm run bench` prints (CI looks for it). */
export const RATIO_TABLE_HEADER = ['Case', 'Ratio of', 'Median', 'Rounds min–max', 'Goal'];

/** Every ratio of the run in one table: engine groups, memory, the trigger. */
export function ratioTable(results: Results): string {
	type Ratio = { label: string; subject: string; baseline: string; ratio: Spread; goal?: { text: string }; met?: boolean };
	const row = (prefix: string, c: Ratio) => [`${prefix}: ${c.label}`, `${c.subject} ÷ ${c.baseline}`, `**${x(c.ratio.median)}**`, range(c.ratio), goalCell(c.goal, c.met)];
	return table(RATIO_TABLE_HEADER, [
		...(results.engine?.groups ?? []).flatMap((group) => group.comparisons.map((c) => row(group.short, c))),
		...(results.engine?.memory ?? []).map(memoryRow),
		...(results.server?.comparisons ?? []).map((c) => row('Trigger', c)),
	]);
}

/** engine.md: every contender's time and traffic per group, and the memory cases process by process. */
export function engineTables(e: EngineFigures): string {
	const perContender = table(
		['Case', 'Contender', 'Items', 'ms per item (p25–p75)', 'Requests', 'Connections', 'Most in flight', 'Buffer reads', 'Streams opened', 'Credential reads'],
		e.groups.flatMap((g) =>
			g.contenders.map((c) => {
				const counts = [c.requests, c.connections, c.maxInFlight, c.binaryReads.buffers, c.binaryReads.streams, c.credentialReads];
				return [g.id, c.id, String(c.items), `${ms(c.msPerItem)} (${c.msPerItem.p25.toFixed(2)}–${c.msPerItem.p75.toFixed(2)})`, ...counts.map(String)];
			}),
		),
	);
	const memory = table(
		['Memory case', 'Contender', 'Peak RSS (MiB)', 'Above the items (MiB)', 'Buffer reads', 'Streams opened', 'Requests'],
		e.memory.flatMap((m) =>
			m.contenders.map((c) => {
				const counts = [c.binaryReads.buffers, c.binaryReads.streams, c.requests].map(String);
				return [m.title, c.id, mib(c.peakMiB), c.id === 'items' ? '–' : mib(c.aboveItemsMiB), ...counts];
			}),
		),
	);
	return [
		'Each group ran in one process, its contenders interleaved; a ratio is taken per round, then its median and range (the table `npm run bench` prints).',
		'Each contender, medians over the rounds:',
		'',
		perContender,
		'',
		'What each contender runs: the table of contenders in docs/performance.md.',
		'',
		`Memory: each contender in fresh processes of its own (${e.memory[0]?.runs ?? 0} each; median, and range when more than one), after a 5-item warm-up; peak RSS is the process's own. Above the items: its peak minus the peak of the items alone, process by process. Buffer reads and streams opened: calls of n8n's BinaryDataService getAsBuffer and getAsStream during the measured run.`,
		'',
		memory,
	].join('\n');
}

/** server.md: each receiver's round trip and n8n's CPU per delivery. */
export function serverTables(s: ServerFigures): string {
	const receivers = (title: string, part: ServerFigures['small']) =>
		part.receivers.map((r) => [
			`${title} (${part.bytes.toLocaleString('en')} bytes × ${part.deliveries})`,
			r.label,
			`${r.ms.median.toFixed(1)} (${r.ms.p25.toFixed(1)}–${r.ms.p75.toFixed(1)})`,
			r.serverCpuMs.median.toFixed(1),
		]);
	return [
		"Through a real n8n server, one delivery at a time, the three receivers interleaved round by round; a ratio is taken per round (of the round's median), then its median and range (the table `npm run bench` prints).",
		'',
		table(['Deliveries', 'Receiver', 'Round trip ms, median (p25–p75)', "n8n's CPU ms per delivery"], [...receivers('small signed order.status_updated', s.small), ...receivers('rr.created', s.large)]),
	].join('\n');
}
