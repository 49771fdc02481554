/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
/**
 * An HTTP endpoint on 127.0.0.1 that stands where n8n's webhook URL would: it hands each request
 * (headers and the exact bytes received) to the trigger through the engine harness, one workflow
 * for all of them, and answers with the status and body n8n would give.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { IDataObject } from 'n8n-workflow';

import { deliver, type Outcome, SECRET } from './support';

export interface TriggerReceiver {
	url: string;
	/** Every item the trigger emitted, over all executions it started. */
	items(): Outcome['items'];
	close(): Promise<void>;
}

export async function startTriggerReceiver(options: { parameters?: IDataObject; secret?: string } = {}): Promise<TriggerReceiver> {
	const workflowId = randomUUID();
	const items: Outcome['items'] = [];
	// One request at a time, as the service sends one delivery after the other here.
	let queue: Promise<unknown> = Promise.resolve();
	const server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			// A header Node gives as a list becomes one value.
			const headers = Object.fromEntries(Object.entries(req.headers).map(([name, value]) => [name, [value ?? ''].flat().join(', ')]));
			const request = { headers, rawBody: Buffer.concat(chunks) };
			const done = queue.then(() => deliver(request, { parameters: options.parameters, secret: options.secret ?? SECRET, workflowId }));
			queue = done.catch(() => undefined);
			done.then(
				(outcome) => {
					items.push(...outcome.items);
					res.statusCode = outcome.status;
					res.setHeader('content-type', 'application/json');
					res.end(outcome.response.body === undefined ? undefined : JSON.stringify(outcome.response.body));
				},
				(error: Error) => {
					res.statusCode = 500;
					res.end(JSON.stringify({ message: error.message }));
				},
			);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook/postal`,
		items: () => items,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}
