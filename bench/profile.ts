/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
/**
 * Where one contender's time goes: `npm run bench -- --profile read-instant:pkg.seq[:items]` runs
 * it three times (after a warm-up) in a child under V8's sampling profiler, then prints its CPU time
 * per item by origin (the package, n8n's engine, n8n's request helper, Node's HTTP stack, garbage
 * collection...) and the functions that cost most, self and inclusive. Inclusive times count only
 * the synchronous part of async functions (what the sampler sees on the stack).
 */
import { FULL, groups, QUICK } from './cases';
import type { ProfileResult } from './child';
import { startBench } from './engineSuite';
import { repoRoot, runChild } from './spawn';

interface CallFrame {
	functionName: string;
	url: string;
	lineNumber: number;
}

interface ProfileNode {
	id: number;
	callFrame: CallFrame;
	children?: number[];
}

interface CpuProfile {
	nodes: ProfileNode[];
	samples: number[];
	timeDeltas: number[];
}

// Frames are matched on their path inside the checkout (`nodes/...`, `node_modules/...`) or Node's `node:` URL.
const ORIGINS: Array<[string, (frame: CallFrame) => boolean]> = [
	['garbage collection', (f) => f.functionName === '(garbage collector)'],
	['the profiler itself', (f) => f.url === 'node:inspector'],
	['the package (nodes/, credentials/)', (f) => /^(nodes|credentials)\//.test(f.url) || f.url.includes('n8n-nodes-postal-service/dist/')],
	['benchmark nodes and harness', (f) => /^(bench|test)\//.test(f.url)],
	["n8n's request helper (@n8n/backend-network)", (f) => f.url.includes('@n8n/backend-network')],
	['axios, follow-redirects, form-data', (f) => /node_modules\/(axios|follow-redirects|form-data|combined-stream|proxy-from-env|delayed-stream)\//.test(f.url)],
	["n8n's engine (n8n-core)", (f) => f.url.includes('node_modules/n8n-core/')],
	["n8n's expression isolates (@n8n/expression-runtime, isolated-vm)", (f) => f.url.includes('@n8n/expression-runtime') || f.url.includes('isolated-vm')],
	["n8n's database (@n8n/typeorm, sqlite3)", (f) => /@n8n\/typeorm|\/sqlite3\//.test(f.url)],
	["n8n's server (n8n)", (f) => f.url.includes('node_modules/n8n/')],
	['n8n-workflow (parameters, expressions)', (f) => f.url.includes('node_modules/n8n-workflow/') || f.url.includes('@n8n/tournament')],
	['n8n-nodes-base (HTTP Request node)', (f) => f.url.includes('n8n-nodes-base')],
	['undici (npm)', (f) => f.url.includes('node_modules/undici/')],
	["Node's fetch, FormData, Blob (bundled undici)", (f) => /^node:internal\/(deps\/undici|blob|webstreams|file)/.test(f.url)],
	["Node's HTTP, sockets, streams", (f) => /^node:(_http|http|https|net|stream|internal\/(streams|http|net|stream_base|js_stream|dns|tls|child_process))/.test(f.url)],
	['other Node internals', (f) => f.url.startsWith('node:')],
	['other modules', (f) => f.url.includes('node_modules/')],
	['native and unattributed', () => true],
];

const root = `file://${repoRoot}/`;
const relative = (url: string) => (url.startsWith(root) ? url.slice(root.length) : url.replace(/^(file:\/\/)?\/.*?\/node_modules\//, 'node_modules/'));
const short = (url: string) => url.replace(/^node_modules\//, '').replace(/^.*\/node_modules\//, '');

export function summarise(profile: CpuProfile, items: number): string {
	for (const node of profile.nodes) node.callFrame.url = relative(node.callFrame.url);
	const byId = new Map(profile.nodes.map((n) => [n.id, n]));
	const parent = new Map<number, number>();
	for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
	const self = new Map<number, number>();
	profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000));
	const originOf = (frame: CallFrame) => ORIGINS.find(([, test]) => test(frame))![0];
	// A native function (no URL: a socket's connect, a string write) counts for the code that called it.
	const origin = (id: number): string => {
		for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
			const frame = byId.get(at)!.callFrame;
			if (frame.url || frame.functionName.startsWith('(')) return originOf(frame);
		}
		return originOf(byId.get(id)!.callFrame);
	};
	const byOrigin = new Map<string, number>();
	const selfByFunction = new Map<string, number>();
	const inclusive = new Map<string, number>();
	const key = (f: CallFrame) => `${f.functionName || '(anonymous)'} ${short(f.url)}:${f.lineNumber + 1}`;
	let total = 0;
	for (const [id, ms] of self) {
		const frame = byId.get(id)!.callFrame;
		if (frame.functionName === '(idle)') continue;
		byOrigin.set(origin(id), (byOrigin.get(origin(id)) ?? 0) + ms);
		total += ms;
		selfByFunction.set(key(frame), (selfByFunction.get(key(frame)) ?? 0) + ms);
		const seen = new Set<string>();
		for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
			const k = key(byId.get(at)!.callFrame);
			if (seen.has(k)) continue;
			seen.add(k);
			inclusive.set(k, (inclusive.get(k) ?? 0) + ms);
		}
	}
	const per = (ms: number) => `${(ms / items).toFixed(3).padStart(8)} ms/item  ${((100 * ms) / total).toFixed(1).padStart(5)} %`;
	const top = (map: Map<string, number>, count: number, skip: RegExp) =>
		[...map.entries()]
			.filter(([k]) => !skip.test(k))
			.sort((a, b) => b[1] - a[1])
			.slice(0, count)
			.map(([k, ms]) => `  ${per(ms)}  ${k}`);
	const rootish = /^\((root|program|idle)\)|^(processTicksAndRejections|runMicrotasks|listOnTimeout|processTimers|emit|onStreamRead|afterWrite|afterWriteDispatched|callbackTrampoline) node:/;
	return [
		`CPU time while running (idle excluded): ${(total / items).toFixed(3)} ms per item over ${items} items`,
		'',
		'By origin (self time):',
		...[...byOrigin.entries()].sort((a, b) => b[1] - a[1]).map(([name, ms]) => `  ${per(ms)}  ${name}`),
		'',
		'Functions, self time:',
		...top(selfByFunction, 25, /^\(idle\)/),
		'',
		'Functions, inclusive (synchronous part):',
		...top(inclusive, 40, rootish),
	].join('\n');
}

interface AllocationNode {
	callFrame: CallFrame;
	selfSize: number;
	children: AllocationNode[];
}

/** Bytes allocated per item (collected or not), by the functions that allocate them and their callers. */
export function summariseAllocations(head: AllocationNode, items: number): string {
	const selfBytes = new Map<string, number>();
	const inclusive = new Map<string, number>();
	const key = (f: CallFrame) => `${f.functionName || '(anonymous)'} ${short(relative(f.url))}:${f.lineNumber + 1}`;
	let total = 0;
	const walk = (node: AllocationNode, stack: string[]) => {
		const k = key(node.callFrame);
		const here = [...stack, k];
		if (node.selfSize > 0) {
			total += node.selfSize;
			selfBytes.set(k, (selfBytes.get(k) ?? 0) + node.selfSize);
			for (const f of new Set(here)) inclusive.set(f, (inclusive.get(f) ?? 0) + node.selfSize);
		}
		for (const child of node.children) walk(child, here);
	};
	walk(head, []);
	const kib = (bytes: number) => `${(bytes / items / 1024).toFixed(1).padStart(8)} KiB/item  ${((100 * bytes) / total).toFixed(1).padStart(5)} %`;
	const top = (map: Map<string, number>, count: number) =>
		[...map.entries()]
			.filter(([k]) => !/^\((root)\)|^(processTicksAndRejections|runMicrotasks|processTimers|listOnTimeout) /.test(k))
			.sort((a, b) => b[1] - a[1])
			.slice(0, count)
			.map(([k, bytes]) => `  ${kib(bytes)}  ${k}`);
	return [
		`Allocated (sampled, collected included): ${(total / items / 1024).toFixed(1)} KiB per item`,
		'',
		'Allocating functions:',
		...top(selfBytes, 15),
		'',
		'Allocations by caller (inclusive):',
		...top(inclusive, 30),
	].join('\n');
}

export async function runProfile(spec: string, options: { quick: boolean; workDir: string; say: (m: string) => void }): Promise<void> {
	const [groupId, contenderId, itemsText] = spec.split(':');
	const group = groups(options.quick ? QUICK : FULL).find((g) => g.id === groupId);
	const contender = group?.contenders.find((c) => c.id === contenderId);
	if (!group || !contender) throw new Error(`--profile wants <group>:<contender>[:items], like read-instant:pkg.seq; got ${spec}`);
	const items = Number(itemsText ?? contender.items);
	const bench = await startBench(options.workDir, options.say);
	try {
		options.say(`profiling ${group.id} ${contender.id} × ${items}, three runs after a warm-up`);
		const { samples, profile, allocations } = await runChild<ProfileResult>(['--child'], bench.task(group, { mode: 'profile', contender: contender.id, items }), {
			env: bench.env(group),
		});
		const wall = samples.map((s) => (s.ms / s.items).toFixed(3)).join(', ');
		const cpu = samples.map((s) => (s.cpuMs / s.items).toFixed(3)).join(', ');
		console.log(`\n${group.id}, ${contender.label}, ${items} items\nwall ms per item per run: ${wall}; CPU ms per item: ${cpu}`);
		console.log(`connections per run: ${samples.map((s) => s.traffic.connections).join(', ')}; credential reads per run: ${samples.map((s) => s.credentialReads).join(', ')}`);
		console.log(`garbage collection per item: ${samples.map((s) => (s.gcMs / s.items).toFixed(3)).join(', ')} ms; full collections per run: ${samples.map((s) => s.majorGcs).join(', ')}`);
		console.log('');
		console.log(summarise(profile as CpuProfile, items * samples.length));
		console.log('');
		console.log(summariseAllocations((allocations as { head: AllocationNode }).head, items));
	} finally {
		await bench.close();
	}
}
