/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
/**
 * What runs inside a benchmark's child process: the contenders of one group timed in interleaved
 * rounds, or one case run once for its peak memory. The parent passes a JSON task and reads a
 * JSON result back (files, so that progress lines can use stdout freely).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { constants, PerformanceObserver } from 'node:perf_hooks';

import { BinaryDataService } from 'n8n-core';

import { credentialReadCount, runWorkflow } from '../test/harness/engine';
import { registerNodeType } from '../test/harness/registry';
import { contenderWorkflow, HTTP_NODE, parseContender, requestsFor, type ContenderSpec, type GroupSpec } from './cases';
import { httpRequestNode } from './n8nNodes';
import { BenchItemsNode, HelperLoopNode, UndiciLoopNode } from './nodes';
import { TOKEN, type Traffic } from './server';

export interface ChildTask {
	mode: 'group' | 'peak' | 'profile';
	group: GroupSpec;
	/** For `peak` and `profile`: the contender and the items of its runs. */
	contender?: string;
	items?: number;
	baseUrl: string;
	controlUrl: string;
	serverName: string;
	pdfFile: string;
	/** Text every successful answer contains (from the recorded answer), to check each run's output. */
	marker: string;
	/** For `peak`: a full collection this often (ms) during the measured run, so that the peak shows live memory rather than garbage. */
	collectEveryMs?: number;
}

/** Reads of stored binary data through n8n's BinaryDataService during a run. */
export interface BinaryReads {
	/** `getAsBuffer`: a whole file read into memory (`this.helpers.getBinaryDataBuffer`). */
	buffers: number;
	/** `getAsStream`: a file opened as a stream (`this.helpers.getBinaryStream`). */
	streams: number;
}

/** One timed run of one contender. */
export interface Sample {
	round: number;
	ms: number;
	cpuMs: number;
	items: number;
	traffic: Traffic;
	credentialReads: number;
	binaryReads: BinaryReads;
	/** Garbage collection during the run: pauses in ms, and how many were full (mark-compact) collections. */
	gcMs: number;
	majorGcs: number;
	/** What the finished run still holds (its result, as n8n keeps it until the execution is saved), after a full collection. */
	retainedMiB: number;
}

export interface GroupResult {
	samples: Record<string, Sample[]>;
}

export interface PeakResult {
	contender: string;
	items: number;
	ms: number;
	cpuMs: number;
	/** The child's peak resident memory over its whole life, and how much the measured run raised it. */
	peakMiB: number;
	riseMiB: number;
	retainedMiB: number;
	/** The most JavaScript heap in use, and the most memory in buffers (ArrayBuffers), sampled every 5 ms during the measured run. */
	heapMiB: number;
	buffersMiB: number;
	traffic: Traffic;
	credentialReads: number;
	binaryReads: BinaryReads;
}

const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

const collections: Array<{ ms: number; major: boolean }> = [];
new PerformanceObserver((list) => {
	for (const entry of list.getEntries()) {
		collections.push({ ms: entry.duration, major: (entry as unknown as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR });
	}
}).observe({ entryTypes: ['gc'] });

// Counted where every node's file reads end up (the helpers call these two methods), in this process only; n8n's code is otherwise untouched.
const binaryReads: BinaryReads = { buffers: 0, streams: 0 };
function countBinaryReads() {
	const service = BinaryDataService.prototype as unknown as Record<'getAsBuffer' | 'getAsStream', (...args: unknown[]) => Promise<unknown>>;
	for (const [method, counter] of [
		['getAsBuffer', 'buffers'],
		['getAsStream', 'streams'],
	] as const) {
		const original = service[method];
		service[method] = function (this: unknown, ...args: unknown[]) {
			binaryReads[counter]++;
			return original.apply(this, args);
		};
	}
}

function register() {
	countBinaryReads();
	registerNodeType('bench.items', new BenchItemsNode());
	registerNodeType('bench.helperLoop', new HelperLoopNode());
	registerNodeType('bench.undiciLoop', new UndiciLoopNode());
	registerNodeType(HTTP_NODE, httpRequestNode());
}

async function traffic(task: ChildTask): Promise<Traffic> {
	const response = await fetch(`${task.controlUrl}/?server=${task.serverName}`);
	return (await response.json()) as Traffic;
}

async function runOnce(task: ChildTask, contender: ContenderSpec, items: number, round: number): Promise<Sample> {
	const workflow = contenderWorkflow(task.group, contender, task.baseUrl, task.pdfFile, items, task.mode === 'peak');
	const credentials = { postalServiceApi: { baseUrl: task.baseUrl, securityToken: TOKEN } };
	gc();
	await traffic(task); // resets the counters
	await new Promise((resolve) => setImmediate(resolve)); // the forced collection's entry arrives first
	const held = () => {
		const memory = process.memoryUsage();
		return memory.heapUsed + memory.arrayBuffers;
	};
	const heldBefore = held();
	const collectionsBefore = collections.length;
	const reads = credentialReadCount();
	const binaryBefore = { ...binaryReads };
	const cpu = process.cpuUsage();
	const start = performance.now();
	const result = await runWorkflow({ workflow, credentials });
	// The start node that makes each item's file is the same for every contender: not timed.
	const ms = performance.now() - start - (result.task('Items')?.executionTime ?? 0);
	const used = process.cpuUsage(cpu);
	await new Promise((resolve) => setImmediate(resolve));
	const during = collections.slice(collectionsBefore);
	gc();
	const retainedMiB = (held() - heldBefore) / 2 ** 20;
	const sample: Sample = {
		round,
		ms,
		cpuMs: (used.user + used.system) / 1000,
		items,
		traffic: await traffic(task),
		credentialReads: credentialReadCount() - reads,
		binaryReads: { buffers: binaryReads.buffers - binaryBefore.buffers, streams: binaryReads.streams - binaryBefore.streams },
		gcMs: during.reduce((sum, c) => sum + c.ms, 0),
		majorGcs: during.filter((c) => c.major).length,
		retainedMiB,
	};
	const alone = parseContender(contender.id).kind === 'items';
	const output = result.output(alone ? 'Items' : 'Node');
	// Every item answered, and its last item carries the recorded answer (the items alone: each item made).
	if (result.error || output.length !== items || (!alone && !JSON.stringify(output[items - 1]?.json ?? {}).includes(task.marker))) {
		const detail = result.error?.message ?? JSON.stringify(output[0]?.json ?? null).slice(0, 300);
		throw new Error(`${contender.id} in ${task.group.id}: ${output.length} of ${items} items, ${detail}`);
	}
	// A create checked with the service first makes two requests per item: the check, then the send.
	const requests = requestsFor(contender.id, task.group.work, items);
	if (sample.traffic.requests !== requests) throw new Error(`${contender.id} in ${task.group.id}: ${sample.traffic.requests} requests for ${items} items (expected ${requests})`);
	return sample;
}

const say = (task: ChildTask, message: string) => process.stdout.write(`[${task.group.id}] ${message}\n`);

async function runGroup(task: ChildTask): Promise<GroupResult> {
	const { group } = task;
	const samples: Record<string, Sample[]> = Object.fromEntries(group.contenders.map((c) => [c.id, []]));
	// The first runs load code and fill caches; a few items are enough for that.
	for (const contender of group.contenders) await runOnce(task, contender, Math.min(contender.items, 20), -1);
	for (let round = 0; round < group.rounds; round++) {
		// Each round starts with another contender, so none is always first after a pause.
		const order = group.contenders.map((_, i) => group.contenders[(i + round) % group.contenders.length]);
		const line: string[] = [];
		for (const contender of order) {
			const sample = await runOnce(task, contender, contender.items, round);
			samples[contender.id].push(sample);
			line.push(`${contender.id} ${(sample.ms / contender.items).toFixed(2)}`);
		}
		say(task, `round ${round + 1}/${group.rounds}, ms per item: ${line.join(', ')}`);
	}
	return { samples };
}

async function runPeak(task: ChildTask): Promise<PeakResult> {
	const contender = task.group.contenders.find((c) => c.id === task.contender);
	if (!contender || !task.items) throw new Error(`no contender ${task.contender} in ${task.group.id}`);
	await runOnce(task, contender, Math.min(5, task.items), -1);
	gc();
	const before = process.resourceUsage().maxRSS;
	// Where the memory is while the run goes: the most JavaScript heap and the most buffer memory seen (sampled).
	const most = { heap: 0, buffers: 0 };
	const sampler = setInterval(() => {
		const memory = process.memoryUsage();
		most.heap = Math.max(most.heap, memory.heapUsed);
		most.buffers = Math.max(most.buffers, memory.arrayBuffers);
	}, 5);
	const collector = task.collectEveryMs ? setInterval(gc, task.collectEveryMs) : undefined;
	const sample = await runOnce(task, contender, task.items, 0);
	clearInterval(sampler);
	clearInterval(collector);
	const after = process.resourceUsage().maxRSS;
	return {
		contender: contender.id,
		items: task.items,
		ms: sample.ms,
		cpuMs: sample.cpuMs,
		peakMiB: after / 1024,
		riseMiB: (after - before) / 1024,
		retainedMiB: sample.retainedMiB,
		heapMiB: most.heap / 2 ** 20,
		buffersMiB: most.buffers / 2 ** 20,
		traffic: sample.traffic,
		credentialReads: sample.credentialReads,
		binaryReads: sample.binaryReads,
	};
}

export interface ProfileResult {
	samples: Sample[];
	/** V8's CPU profile of the three runs only (not the start-up or the warm-up). */
	profile: object;
	/** V8's sampling heap profile of one more run, counting memory already collected too. */
	allocations: object;
}

/** Runs one contender three times under V8's CPU profiler, then once under its heap sampler. */
async function runProfile(task: ChildTask): Promise<ProfileResult> {
	const contender = task.group.contenders.find((c) => c.id === task.contender);
	if (!contender || !task.items) throw new Error(`no contender ${task.contender} in ${task.group.id}`);
	await runOnce(task, contender, Math.min(20, task.items), -1);
	const session = new Session();
	session.connect();
	await session.post('Profiler.enable');
	await session.post('Profiler.setSamplingInterval', { interval: 250 });
	await session.post('Profiler.start');
	const samples: Sample[] = [];
	for (let run = 0; run < 3; run++) samples.push(await runOnce(task, contender, task.items, run));
	const { profile } = await session.post('Profiler.stop');
	// A fourth run for the allocations alone: the heap sampler slows allocation and collection.
	await session.post('HeapProfiler.enable');
	await session.post('HeapProfiler.startSampling', {
		samplingInterval: 16_384,
		includeObjectsCollectedByMajorGC: true,
		includeObjectsCollectedByMinorGC: true,
	});
	await runOnce(task, contender, task.items, 3);
	const { profile: allocations } = await session.post('HeapProfiler.stopSampling');
	session.disconnect();
	return { samples, profile, allocations };
}

export async function childMain(taskFile: string, resultFile: string): Promise<void> {
	const task = JSON.parse(readFileSync(taskFile, 'utf8')) as ChildTask;
	register();
	const result = task.mode === 'group' ? await runGroup(task) : task.mode === 'peak' ? await runPeak(task) : await runProfile(task);
	writeFileSync(resultFile, JSON.stringify(result));
}
