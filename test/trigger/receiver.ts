/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
/**
 * An HTTP endpoint on 127.0.0.1 that stands where n8n's webhook URL would: it hands each request
 * (headers, the exact bytes received, and the parsed body) to the trigger through the engine
 * harness, one workflow for all of them, and answers with the status and body n8n would give.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { IDataObject } from 'n8n-workflow';

import { deliver, type Delivery, type Outcome, SECRET } from './support';

export interface Received {
	request: Delivery;
	/** What the trigger made of it; undefined when the receiver answered without asking it. */
	outcome?: Outcome;
	status: number;
}

export interface TriggerReceiver {
	url: string;
	received: Received[];
	/** Every item the trigger emitted, over all executions it started. */
	items(): Outcome['items'];
	/** How many executions the trigger started (a resend starts one that ends at the trigger). */
	executions(): number;
	/** How many items reached the node after the trigger, over all executions. */
	runsAfter(): number;
	/** Changes the request on its way to the trigger (a proxy in between, a delay...). */
	transform?: (request: Delivery) => Delivery | Promise<Delivery>;
	/** The next N requests are answered 500 before they reach the trigger (n8n unreachable). */
	failBefore: number;
	/** The next N requests reach the trigger, but the answer is lost and the service sees 500. */
	loseAnswer: number;
	close(): Promise<void>;
}

function headersOf(req: IncomingMessage): Record<string, string> {
	const headers: Record<string, string> = {};
	for (const [name, value] of Object.entries(req.headers)) {
		if (typeof value === 'string') headers[name] = value;
		else if (Array.isArray(value)) headers[name] = value.join(', ');
	}
	return headers;
}

export async function startTriggerReceiver(
	options: { parameters?: IDataObject; secret?: string } = {},
): Promise<TriggerReceiver> {
	// One request at a time, as the service sends one delivery after the other here.
	let queue: Promise<unknown> = Promise.resolve();
	const workflowId = randomUUID();
	const receiver: TriggerReceiver = {
		url: '',
		received: [],
		items: () => receiver.received.flatMap((r) => r.outcome?.items ?? []),
		executions: () => receiver.received.filter((r) => r.outcome?.run !== undefined).length,
		runsAfter: () => receiver.received.reduce((sum, r) => sum + (r.outcome?.after.length ?? 0), 0),
		failBefore: 0,
		loseAnswer: 0,
		close: async () => {},
	};

	async function handle(request: Delivery): Promise<{ status: number; body: unknown }> {
		if (receiver.failBefore > 0) {
			receiver.failBefore--;
			receiver.received.push({ request, status: 500 });
			return { status: 500, body: { message: 'n8n is not reachable' } };
		}
		const handed = receiver.transform ? await receiver.transform(request) : request;
		const outcome = await deliver(handed, { parameters: options.parameters, secret: options.secret ?? SECRET, workflowId });
		let status = outcome.status;
		let body: unknown = outcome.response.body;
		if (receiver.loseAnswer > 0) {
			receiver.loseAnswer--;
			status = 500;
			body = { message: 'connection lost before the answer' };
		}
		receiver.received.push({ request: handed, outcome, status });
		return { status, body };
	}

	const server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const request: Delivery = { headers: headersOf(req), rawBody: Buffer.concat(chunks) };
			const done = queue.then(() => handle(request));
			queue = done.catch(() => undefined);
			done.then(
				({ status, body }) => {
					res.statusCode = status;
					res.setHeader('content-type', 'application/json');
					res.end(body === undefined ? undefined : JSON.stringify(body));
				},
				(error: Error) => {
					res.statusCode = 500;
					res.end(JSON.stringify({ message: error.message }));
				},
			);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook/postal`;
	receiver.close = () =>
		new Promise<void>((resolve) => {
			server.closeAllConnections();
			server.close(() => resolve());
		});
	return receiver;
}
