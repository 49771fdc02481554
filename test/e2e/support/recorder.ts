/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
// A local HTTP endpoint the node after the trigger posts to: it counts, per delivery, how often
// the workflow went past the trigger, independently of what n8n reports about its executions.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Recorder {
	url: string;
	/** Runs per delivery key (`environment:delivery_id`), in the order they arrived. */
	runs: Map<string, string[]>;
	/** Holds every answer this long: executions are then in the middle of that node. */
	holdMs: number;
	/** Requests received and not yet answered. */
	pending: number;
	total(): number;
	/** Keys with exactly n runs, among the given ones. */
	withRuns(keys: string[], n: number): string[];
	stop(): Promise<void>;
}

export async function startRecorder(): Promise<Recorder> {
	const runs = new Map<string, string[]>();
	const recorder: Recorder = {
		url: '',
		runs,
		holdMs: 0,
		pending: 0,
		total: () => [...runs.values()].reduce((sum, list) => sum + list.length, 0),
		withRuns: (keys, n) => keys.filter((key) => (runs.get(key)?.length ?? 0) === n),
		stop: async () => undefined,
	};
	const server = createServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on('data', (c: Buffer) => chunks.push(c));
		request.on('end', () => {
			recorder.pending++;
			let key = 'unreadable';
			let execution = '';
			try {
				const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { environment: string; delivery_id: unknown; execution: string };
				key = `${body.environment}:${String(body.delivery_id)}`;
				execution = String(body.execution);
			} catch {
				// counted under "unreadable", which no test expects
			}
			runs.set(key, [...(runs.get(key) ?? []), execution]);
			setTimeout(() => {
				recorder.pending--;
				response.writeHead(200, { 'content-type': 'application/json' });
				response.end('{"recorded":true}');
			}, recorder.holdMs);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	recorder.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/runs`;
	recorder.stop = async () => {
		server.closeAllConnections();
		await new Promise<void>((resolve) => server.close(() => resolve()));
	};
	return recorder;
}

/** Runs `task` over `items` with at most `limit` at a time. */
export async function inPool<T, R>(items: T[], limit: number, task: (item: T, index: number) => Promise<R>): Promise<R[]> {
	const results = new Array<R>(items.length);
	let next = 0;
	const worker = async () => {
		while (next < items.length) {
			const index = next++;
			results[index] = await task(items[index], index);
		}
	};
	await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
	return results;
}
