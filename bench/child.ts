/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
/**
 * What runs inside a benchmark's child process: the contenders of one group timed in interleaved
 * rounds, or one contender run once for its peak memory (a figure only when it is the process's one
 * task). Every run's answers and request count are checked, so a broken comparison stops the
 * benchmark instead of printing a figure.
 */
import { BinaryDataService } from 'n8n-core';

import { credentialReadCount, runWorkflow } from '../test/harness/engine';
import { registerNodeType } from '../test/harness/registry';
import { contenderWorkflow, HTTP_NODE, parseContender, requestsFor, type GroupSpec } from './cases';
import { BenchItemsNode, collectGarbage as gc, httpRequestNode } from './nodes';
import { TOKEN, type Traffic } from './server';
import { interleave } from './stats';

export interface ChildTask {
	mode: 'group' | 'peak';
	group: GroupSpec;
	/** For `peak`: the contender measured. */
	contender?: string;
	baseUrl: string;
	/** Where this process reads (and resets) the replay server's traffic counters. */
	controlUrl: string;
	pdfFile: string;
	/** Text every successful answer contains (from the recorded answer), to check each run's output. */
	marker: string;
}

export type Sample = Awaited<ReturnType<typeof runOnce>>;
export type PeakResult = Awaited<ReturnType<typeof runPeak>>;

// Stored files read whole (`getAsBuffer`) and opened as streams (`getAsStream`), counted where every
// node's file reads end up, in this process only; n8n's code is otherwise untouched.
const binaryReads = { buffers: 0, streams: 0 };
function countBinaryReads() {
	const service = BinaryDataService.prototype as unknown as Record<'getAsBuffer' | 'getAsStream', (...args: unknown[]) => Promise<unknown>>;
	for (const [method, counter] of [['getAsBuffer', 'buffers'], ['getAsStream', 'streams']] as const) {
		const original = service[method];
		service[method] = function (this: unknown, ...args: unknown[]) {
			binaryReads[counter]++;
			return original.apply(this, args);
		};
	}
}

async function traffic(task: ChildTask): Promise<Traffic> {
	return (await (await fetch(task.controlUrl)).json()) as Traffic;
}

async function runOnce(task: ChildTask, id: string, items: number) {
	const workflow = contenderWorkflow(task.group, id, task.baseUrl, task.pdfFile, items, task.mode === 'peak');
	gc();
	await traffic(task); // resets the counters
	const reads = credentialReadCount();
	const binaryBefore = { ...binaryReads };
	const start = performance.now();
	const result = await runWorkflow({ workflow, credentials: { postalServiceApi: { baseUrl: task.baseUrl, securityToken: TOKEN } } });
	// The start node that makes each item's file is the same for every contender: not timed.
	const ms = performance.now() - start - (result.task('Items')?.executionTime ?? 0);
	const sample = {
		ms,
		items,
		traffic: await traffic(task),
		credentialReads: credentialReadCount() - reads,
		binaryReads: { buffers: binaryReads.buffers - binaryBefore.buffers, streams: binaryReads.streams - binaryBefore.streams },
	};
	const alone = parseContender(id).kind === 'items';
	const output = result.output(alone ? 'Items' : 'Node');
	// Every item answered, and its last item carries the recorded answer (the items alone: each item made).
	if (result.error || output.length !== items || (!alone && !JSON.stringify(output[items - 1]?.json ?? {}).includes(task.marker))) {
		const detail = result.error?.message ?? JSON.stringify(output[0]?.json ?? null).slice(0, 300);
		throw new Error(`${id} in ${task.group.id}: ${output.length} of ${items} items, ${detail}`);
	}
	const requests = requestsFor(id, task.group.work, items);
	if (sample.traffic.requests !== requests) throw new Error(`${id} in ${task.group.id}: ${sample.traffic.requests} requests for ${items} items (expected ${requests})`);
	return sample;
}

async function runGroup(task: ChildTask): Promise<Record<string, Sample[]>> {
	const { group } = task;
	// The first runs load code and fill caches; a few items are enough for that (a check's one round does it).
	if (group.rounds > 1) for (const id of group.contenders) await runOnce(task, id, Math.min(group.items, 20));
	return await interleave(group.contenders, group.rounds, (id) => runOnce(task, id, group.items), (round, done) => {
		const line = done.map(([id, sample]) => `${id} ${(sample.ms / group.items).toFixed(2)}`).join(', ');
		console.log(`  [${group.id}] round ${round + 1}/${group.rounds}, ms per item: ${line}`);
	});
}

/** The child's peak resident memory over its whole life (a figure only when this run is the process's one task). */
async function runPeak(task: ChildTask) {
	const id = task.contender!;
	await runOnce(task, id, Math.min(5, task.group.items));
	gc();
	const sample = await runOnce(task, id, task.group.items);
	return { ...sample, contender: id, peakMiB: process.resourceUsage().maxRSS / 1024 };
}

/** Runs the tasks the parent sends (a check runs several in one process, a full run one) and sends back their results. */
export async function childMain(): Promise<void> {
	try {
		const tasks = await new Promise<ChildTask[]>((resolve) => process.once('message', resolve));
		countBinaryReads();
		registerNodeType('bench.items', new BenchItemsNode());
		registerNodeType(HTTP_NODE, httpRequestNode());
		const results: unknown[] = [];
		for (const task of tasks) results.push(task.mode === 'group' ? await runGroup(task) : await runPeak(task));
		await new Promise((resolve) => process.send!(results, resolve));
	} finally {
		process.disconnect();
	}
}
