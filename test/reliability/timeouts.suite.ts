/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
/**
 * The Timeout option bounds everything one item does: every operation of the action node, reads
 * with their retries and the pauses between them included, against a server that never answers and
 * one that trickles its answer a byte at a time; and every operation that makes more than one
 * request for an item (Letter > Send priced or checked first) against a server that answers each
 * request, slowly or trickled, in 0.6 × Timeout, so that only one deadline for both stops it (the send
 * cut off at it, or not started in what the price left: a write starts only with a second to spare). Figure:
 * the longest run divided by its Timeout; a run longer than FACTOR × Timeout + SLACK_MS is bad.
 *
 * Every wait inside an item spends from the same deadline: the pause before a repeat, the pacing
 * clock before a repeat, the clock between a price or a check and its send; × Timeout × Batch
 * Interval × read or write, against the sandbox (a read answered 500; a write whose port opens 1.5 s
 * late, or a price or a check before its send, while the service takes 0.8 s to answer). A repeat or
 * a send that could not start with the floor left is not made, and the item says what really
 * happened. Figure: runs over the bound, writes that started too late to get their answer, and reads
 * reported as timeouts.
 */
import type { IDataObject } from 'n8n-workflow';

import type { TestItem } from '../harness/engine';
import { closedPort, startHttpServer } from '../harness/httpServer';
import { credentialsAt, everyOperation, LETTER, pdfItem } from '../harness/sends';
import { counter, runAction, type SuiteRow, type ReliabilitySuite, type SuiteContext } from './types';

const FACTOR = 1.5;
/** What n8n's engine takes to start and finish a run around the request. */
const SLACK_MS = 1000;
/** The bound is relative to the Timeout, so a short one and a long one suffice. */
const TIMEOUTS = [300, 1500];
/** Two requests an item: below 1 s the send is refused unstarted (it would not get a second for its answer); at 3 s it starts and is stopped. */
const TWO_REQUEST_TIMEOUTS = [800, 3000];
const WAIT_TIMEOUTS = [1500, 3500];
/** No Batch Interval, one shorter than either Timeout and one longer than both. */
const WAIT_INTERVALS = [0, 1000, 5000];

type Behaviour = 'silent' | 'trickle' | 'slow answers' | 'trickled answers';

/** What the service answers a create: a price when test=1 is in the body, else a new order's id. */
function serviceAnswer(body: string): string {
	const data = /name="test"\r\n\r\n1\r\n/.test(body) ? { value: 12.5 } : '100001';
	return JSON.stringify({ status: 200, status_message: 'Sucesso - pedido aceito', data });
}

/** `answer.ms`: how long a whole answer takes with the slow behaviours (0.6 × the run's Timeout). */
function startServer(behaviour: Behaviour, answer: { ms: number } = { ms: 0 }) {
	return startHttpServer((req, res) => {
		if (behaviour === 'silent' || res.destroyed) return;
		if (behaviour === 'trickle') {
			res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100000' });
			res.write('{');
			const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write(' ')), 100);
			res.on('close', () => clearInterval(timer));
			return;
		}
		const text = serviceAnswer(req.body);
		if (behaviour === 'slow answers') {
			const timer = setTimeout(() => res.destroyed || res.writeHead(200, { 'content-type': 'application/json' }).end(text), answer.ms);
			res.on('close', () => clearTimeout(timer));
			return;
		}
		// The answer a byte at a time, its last byte after answer.ms.
		res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(text.length) });
		let sent = 0;
		const timer = setInterval(() => {
			if (res.destroyed) return clearInterval(timer);
			res.write(text[sent++]);
			if (sent === text.length) {
				clearInterval(timer);
				res.end();
			}
		}, answer.ms / text.length);
		res.on('close', () => clearInterval(timer));
	});
}

export const suite: ReliabilitySuite = {
	name: 'Timeouts',
	async run(context: SuiteContext): Promise<SuiteRow[]> {
		const withPdf = [await pdfItem(1)];
		const operations: Array<{ label: string; read: boolean; parameters: Record<string, unknown>; items?: TestItem[] }> = Object.entries(
			await everyOperation(),
		).map(([label, { parameters, items, writes }]) => ({ label, read: !writes, parameters, items }));

		// Letter > Send makes two requests for an item when it is priced or checked first.
		const twoRequests: typeof operations = [
			{ label: 'Letter > Send with Maximum Price', read: false, parameters: { ...LETTER, additionalFields: { maxPrice: 100 } }, items: withPdf },
			{ label: 'Letter > Send checked first (Always)', read: false, parameters: { ...LETTER, additionalFields: { checkWithService: 'always' } }, items: withPdf },
		];

		const behaviours: Array<[Behaviour, typeof operations, string, number[]]> = [
			['silent', operations, 'a server that never answers', TIMEOUTS],
			['trickle', operations, 'a server trickling its answer', TIMEOUTS],
			['slow answers', twoRequests, 'a server answering each request in 0.6 × Timeout', TWO_REQUEST_TIMEOUTS],
			['trickled answers', twoRequests, 'a server trickling each answer, its last byte at 0.6 × Timeout', TWO_REQUEST_TIMEOUTS],
		];
		// The servers are apart and each run is measured against its own Timeout: the behaviours run side by side.
		const rows: SuiteRow[] = await Promise.all(behaviours.map(async ([behaviour, measured, what, timeouts]): Promise<SuiteRow> => {
			const answer = { ms: 0 };
			const server = await startServer(behaviour, answer);
			const credentials = credentialsAt(server.url, 'timeout-token');
			const count = counter(context.log);
			let worst = 0;
			let worstCase = '';
			try {
				// Once, unmeasured: the first run of a process loads n8n's modules.
				await runAction({ ...operations[0].parameters, options: { timeout: 100 } }, { credentials });
				for (const timeout of timeouts) {
					answer.ms = 0.6 * timeout;
					for (const op of measured) {
						const started = Date.now();
						const result = await runAction({ ...op.parameters, options: { timeout } }, { items: op.items, credentials });
						const elapsed = Date.now() - started;
						// Stopped by the one deadline: a request cut off at it, or a send not started in what the first request left.
						// A run that failed for another reason (a check before sending) proves nothing about the Timeout.
						const stopped = /did not answer in time|was used up by this item's earlier requests/.test(String(result.error?.message));
						count.check(stopped && elapsed <= FACTOR * timeout + SLACK_MS, `${behaviour}, ${op.label}, Timeout ${timeout}: ${elapsed} ms (${String(result.error?.message)})`);
						if (elapsed / timeout > worst) {
							worst = elapsed / timeout;
							worstCase = `${op.label}, Timeout ${timeout} ms: ${elapsed} ms`;
						}
					}
				}
			} finally {
				await server.close();
			}
			const reads = measured.filter((o) => o.read).length;
			return {
				case: `${measured.length} operations${reads ? ` (${reads} reads with their retries)` : ', two requests per item'} × Timeout ${timeouts.join(', ')} ms, ${what}`,
				runs: count.runs,
				measure: `runs longer than ${FACTOR} × Timeout + ${SLACK_MS} ms, or not stopped by the Timeout`,
				bad: count.bad,
				note: `longest run ÷ Timeout = ${worst.toFixed(2)} (${worstCase})`,
			};
		}));
		rows.push(await waitsRow(context, withPdf));
		return rows;
	},
};

/** Every wait inside an item (a pause, the clock before a repeat, the clock between a price and its send) × Timeout × Batch Interval × read or write. */
async function waitsRow(context: SuiteContext, withPdf: TestItem[]): Promise<SuiteRow> {
	const { startSandbox } = await import('../../sandbox');
	const token = 'waits-token-7d1e';
	type Case = { label: string; read: boolean; parameters: IDataObject; items?: TestItem[]; portOpensAfterMs?: number; fault?: IDataObject };
	const CASES: Case[] = [
		{ label: 'Letter > Get, each answer a 500 (pauses and the clock before each repeat)', read: true, parameters: { resource: 'order', operation: 'get', orderId: '100001' }, fault: { method: 'GET', path: '/api/v2/get/', kind: '500', count: 3 } },
		{ label: 'Letter > Send, the port closed for 1.5 s (pauses and the clock before each repeat)', read: false, parameters: LETTER, items: withPdf, portOpensAfterMs: 1500 },
		{ label: 'Letter > Send with Maximum Price (the clock between the price and its send)', read: false, parameters: { ...LETTER, additionalFields: { maxPrice: 1000, checkWithService: 'never' } }, items: withPdf },
		{ label: 'Letter > Send checked first (Always; the clock between the check and its send)', read: false, parameters: { ...LETTER, additionalFields: { checkWithService: 'always' } }, items: withPdf },
	];
	let runs = 0;
	let over = 0;
	let late = 0;
	let misreported = 0;
	let worst = 0;
	for (const c of CASES) {
		for (const timeout of WAIT_TIMEOUTS) {
			for (const interval of WAIT_INTERVALS) {
				const port = await closedPort();
				let sandbox: Awaited<ReturnType<typeof startSandbox>> | undefined;
				let seeded = 0;
				const open = async () => {
					sandbox = await startSandbox({ port, token, quiet: true, balance: 1_000_000 });
					seeded = sandbox.control.orders().length;
					// A write's answer takes 0.8 s: one started with less than the floor left would run out of time.
					if (!c.read) sandbox.control.setLatency(800);
					if (c.fault) sandbox.control.injectFault(c.fault as never);
				};
				const opening = c.portOpensAfterMs ? new Promise((resolve) => setTimeout(resolve, c.portOpensAfterMs)).then(open) : open();
				if (!c.portOpensAfterMs) await opening;
				const started = Date.now();
				const result = await runAction(
					{ ...c.parameters, options: { timeout, batching: { batch: { batchSize: 1, batchInterval: interval } } } },
					{ items: c.items, credentials: credentialsAt(`http://127.0.0.1:${port}`, token) },
				);
				const elapsed = Date.now() - started;
				await opening;
				const message = String(result.error?.message ?? '');
				runs++;
				worst = Math.max(worst, elapsed / timeout);
				const say = (what: string) => context.log(`${c.label}, Timeout ${timeout} ms, Batch Interval ${interval} ms: ${what} (${elapsed} ms; ${message || 'succeeded'})`);
				if (elapsed > FACTOR * timeout + SLACK_MS) {
					over++;
					say('over the bound');
				}
				// A write started with its floor left gets its answer in 0.8 s: one cut off started too late.
				if (!c.read && /may have been accepted/.test(message)) {
					late++;
					say('a write started too late');
				}
				if (!c.read && /Nothing was sent/.test(message) && sandbox!.control.orders().length > seeded) {
					late++;
					say('"Nothing was sent", yet the letter exists');
				}
				if (c.read && /did not answer in time/.test(message)) {
					misreported++;
					say('reported as a timeout');
				}
				await sandbox?.stop();
			}
		}
	}
	return {
		case: `every wait inside an item: ${CASES.length} cases (a read's repeats, a write's repeats, a price or a check then its send) × Timeout ${WAIT_TIMEOUTS.join(', ')} ms × Batch Interval ${WAIT_INTERVALS.join(', ')} ms`,
		runs,
		measure: `runs longer than ${FACTOR} × Timeout + ${SLACK_MS} ms, writes started with less than a second left, reads reported as a timeout`,
		bad: over + late + misreported,
		note: `longest run ÷ Timeout = ${worst.toFixed(2)}; over ${over}, late ${late}, misreported ${misreported}`,
	};
}
