/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
// A local HTTP endpoint the node after the trigger posts to: it counts, per delivery, how often
// the workflow went past the trigger, independently of what n8n reports about its executions.
import { startHttpServer } from '../../harness/httpServer';

export type Recorder = Awaited<ReturnType<typeof startRecorder>>;

export async function startRecorder() {
	/** Runs per delivery key (`environment:delivery_id`), their executions in the order they arrived. */
	const runs = new Map<string, string[]>();
	const recorder = {
		url: '',
		runs,
		/** Holds every answer this long: executions are then in the middle of that node. */
		holdMs: 0,
		/** Requests received and not yet answered. */
		pending: 0,
		/** Keys with exactly n runs, among the given ones. */
		withRuns: (keys: string[], n: number) => keys.filter((key) => (runs.get(key)?.length ?? 0) === n),
		stop: (): Promise<void> => Promise.resolve(),
	};
	const server = await startHttpServer(async (request, response) => {
		recorder.pending++;
		let key = 'unreadable';
		let execution = '';
		try {
			const body = JSON.parse(request.body) as { environment: string; delivery_id: unknown; execution: string };
			key = `${body.environment}:${String(body.delivery_id)}`;
			execution = String(body.execution);
		} catch {
			// counted under "unreadable", which no test expects
		}
		runs.set(key, [...(runs.get(key) ?? []), execution]);
		await new Promise((resolve) => setTimeout(resolve, recorder.holdMs));
		recorder.pending--;
		response.writeHead(200, { 'content-type': 'application/json' }).end('{"recorded":true}');
	});
	recorder.url = `${server.url}/runs`;
	recorder.stop = server.close;
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
