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
	/** What the trigger made of it. */
	outcome: Outcome;
	status: number;
}

export interface TriggerReceiver {
	url: string;
	received: Received[];
	/** Every item the trigger emitted, over all executions it started. */
	items(): Outcome['items'];
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
		items: () => receiver.received.flatMap((r) => r.outcome.items),
		close: async () => {},
	};

	async function handle(request: Delivery): Promise<{ status: number; body: unknown }> {
		const outcome = await deliver(request, { parameters: options.parameters, secret: options.secret ?? SECRET, workflowId });
		receiver.received.push({ request, outcome, status: outcome.status });
		return { status: outcome.status, body: outcome.response.body };
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
