/**
 * An HTTP endpoint on 127.0.0.1 that stands where n8n's webhook URL would: it hands each request
 * (headers and the bytes received) to the trigger through the engine harness, one workflow for all
 * of them, and answers with the status and body n8n would give.
 */
import { randomUUID } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import { startHttpServer } from '../harness/httpServer';
import { deliver, type Outcome } from './support';

export async function startTriggerReceiver(options: { parameters?: IDataObject; secret?: string } = {}) {
	const workflowId = randomUUID();
	const items: Outcome['items'] = [];
	// One request at a time, as the service sends one delivery after the other here.
	let queue: Promise<unknown> = Promise.resolve();
	const server = await startHttpServer(async (req, res) => {
		// The service sends UTF-8 JSON, so the text the server read gives back the exact bytes.
		const request = { headers: req.headers as Record<string, string | string[]>, rawBody: Buffer.from(req.body) };
		const done = queue.then(() => deliver(request, { parameters: options.parameters, secret: options.secret, workflowId }));
		queue = done.catch(() => undefined);
		const outcome = await done;
		items.push(...outcome.items);
		res.statusCode = outcome.status;
		res.setHeader('content-type', 'application/json');
		res.end(outcome.response.body === undefined ? undefined : JSON.stringify(outcome.response.body));
	});
	return { url: `${server.url}/webhook/postal`, items: () => items, close: server.close };
}
