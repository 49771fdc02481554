/**
 * The Timeout option bounds the whole operation: every operation of the action node, reads with
 * their retries and the pauses between them included, against a server that never answers and one
 * that trickles its answer a byte at a time, under several Timeout values. Figure: the longest run
 * divided by its Timeout; a run longer than FACTOR × Timeout + SLACK_MS is bad.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { IDataObject } from 'n8n-workflow';
import { PDFDocument } from 'pdf-lib';

import type { TestItem } from '../harness/engine';
import { CHAT_MESSAGE, LETTER } from '../harness/sends';
import type { ReliabilityRow, ReliabilitySuite, SuiteContext } from './types';

const FACTOR = 1.5;
/** What n8n's engine takes to start and finish a run around the request. */
const SLACK_MS = 1000;
const TIMEOUTS = [300, 800, 1500];

type Behaviour = 'silent' | 'trickle';

async function startServer(behaviour: Behaviour) {
	const open = new Set<ServerResponse>();
	const server = createServer((req, res) => {
		req.resume();
		open.add(res);
		res.on('close', () => open.delete(res));
		if (behaviour === 'silent') return;
		res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100000' });
		res.write('{');
		const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write(' ')), 100);
		res.on('close', () => clearInterval(timer));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		close: () =>
			new Promise<void>((resolve) => {
				for (const res of open) res.destroy();
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

async function pdfItems(): Promise<TestItem[]> {
	const doc = await PDFDocument.create();
	doc.addPage([200, 200]);
	return [{ json: {}, binary: { data: { data: Buffer.from(await doc.save()), fileName: 'a.pdf', mimeType: 'application/pdf' } } }];
}

export const suite: ReliabilitySuite = {
	name: 'Timeouts',
	async run(context: SuiteContext): Promise<ReliabilityRow[]> {
		process.env.N8N_LOG_LEVEL ??= 'silent';
		const { runNode } = await import('../harness/engine');
		const withPdf = await pdfItems();
		const id = { orderId: '100001' };
		const emailId = { orderId: 'E100001' };
		const operations: Array<{ label: string; read: boolean; parameters: Record<string, unknown>; items?: TestItem[] }> = [
			{ label: 'Account > Get Balance', read: true, parameters: { resource: 'account', operation: 'getBalance' } },
			{ label: 'Account > Get Logo', read: true, parameters: { resource: 'account', operation: 'getLogo' } },
			{ label: 'Chat Sender > Get Many', read: true, parameters: { resource: 'chatSender', operation: 'getMany' } },
			{ label: 'Chat Template > Get Many', read: true, parameters: { resource: 'chatTemplate', operation: 'getMany', returnAll: true } },
			{ label: 'Order > Get', read: true, parameters: { resource: 'order', operation: 'get', ...id } },
			{ label: 'Order > Get Price', read: true, parameters: { ...LETTER, operation: 'getPrice' }, items: withPdf },
			{ label: 'Order > Download File', read: true, parameters: { resource: 'order', operation: 'downloadFile', fileType: 'pdf', ...id } },
			{ label: 'Receipt > Get', read: true, parameters: { resource: 'receipt', operation: 'get', ...id } },
			{ label: 'Registered E-Mail > Get', read: true, parameters: { resource: 'registeredEmail', operation: 'get', ...emailId } },
			{ label: 'Registered E-Mail > Download File', read: true, parameters: { resource: 'registeredEmail', operation: 'downloadFile', fileType: 'pdf', ...emailId } },
			{ label: 'Order > Create', read: false, parameters: LETTER, items: withPdf },
			{ label: 'Order > Cancel', read: false, parameters: { resource: 'order', operation: 'cancel', ...id } },
			{ label: 'Registered E-Mail > Cancel', read: false, parameters: { resource: 'registeredEmail', operation: 'cancel', ...emailId } },
			{ label: 'Chat Message > Send', read: false, parameters: CHAT_MESSAGE },
			{ label: 'Chat Message > Reprocess', read: false, parameters: { resource: 'chatMessage', operation: 'reprocess', messageId: 5 } },
			{ label: 'Saved Contact > Update', read: false, parameters: { resource: 'savedContact', operation: 'update', contactId: 1, updateFields: { label: 'x' } } },
		];

		const rows: ReliabilityRow[] = [];
		for (const behaviour of ['silent', 'trickle'] as const) {
			const server = await startServer(behaviour);
			const credentials = {
				postalServiceApi: { baseUrl: server.url, securityToken: 'timeout-token' },
				postalServiceChatApi: { baseUrl: server.url, email: 'conta@example.com', securityToken: 'timeout-token' },
			};
			let runs = 0;
			let bad = 0;
			let worst = 0;
			let worstCase = '';
			let unreached = 0;
			try {
				// Once, unmeasured: the first run of a process loads n8n's modules.
				await runNode({ type: 'n8n-nodes-postal-service.postalService', parameters: { ...operations[0].parameters, options: { timeout: 100 } }, credentials });
				for (const timeout of TIMEOUTS) {
					for (const op of operations) {
						const started = Date.now();
						const result = await runNode({
							type: 'n8n-nodes-postal-service.postalService',
							parameters: { ...op.parameters, options: { timeout } } as IDataObject,
							items: op.items,
							credentials,
						});
						const elapsed = Date.now() - started;
						runs++;
						// A run that failed for another reason (a check before sending) proves nothing about the Timeout.
						if (!/did not answer in time/.test(String(result.error?.message))) {
							unreached++;
							context.log(`${behaviour}, ${op.label}, Timeout ${timeout}: no timeout (${String(result.error?.message)})`);
						}
						const ratio = elapsed / timeout;
						if (ratio > worst) {
							worst = ratio;
							worstCase = `${op.label}, Timeout ${timeout} ms: ${elapsed} ms`;
						}
						if (elapsed > FACTOR * timeout + SLACK_MS) {
							bad++;
							context.log(`${behaviour}, ${op.label}, Timeout ${timeout}: ${elapsed} ms`);
						}
					}
				}
			} finally {
				await server.close();
			}
			rows.push({
				suite: 'Timeouts',
				case: `${operations.length} operations (${operations.filter((o) => o.read).length} reads with their retries) × Timeout ${TIMEOUTS.join(', ')} ms, ${behaviour === 'silent' ? 'a server that never answers' : 'a server trickling its answer'}`,
				runs,
				measure: `runs longer than ${FACTOR} × Timeout + ${SLACK_MS} ms, or that did not time out`,
				bad: bad + unreached,
				note: `longest run ÷ Timeout = ${worst.toFixed(2)} (${worstCase})`,
			});
		}
		return rows;
	},
};
