/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
// A small HTTP load balancer in front of n8n's webhook processors, as a queue-mode deployment has:
// round robin per request, only to a processor whose /healthz/readiness answers 200 (a health
// check), moving to the next one when a processor refuses the connection (as nginx's
// `proxy_next_upstream error` does), and passing bodies on byte for byte: the trigger checks the
// signature on the raw bytes, so a balancer must not re-encode, decompress or rewrite.
import { createServer, request, Agent, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Balancer {
	url: string;
	/** Requests answered by each target (by its base URL), requests no target took, and targets passed over as not ready. */
	counts: Record<string, number> & { unavailable: number; notReady: number };
	stop(): Promise<void>;
}

/** Errors that mean the request never reached the target, so another target may take it. */
const NOT_CONNECTED = new Set(['ECONNREFUSED', 'ECONNRESET_BEFORE_SEND', 'EHOSTUNREACH']);

export async function startBalancer(targets: string[], port = 0): Promise<Balancer> {
	// A new connection per request, as nginx opens to its upstreams by default: a kept-alive one that
	// n8n closes after 5 idle seconds can be reset as the next request goes out, which would turn a
	// delivery into a 502 that no processor saw.
	const agent = new Agent({ keepAlive: false, maxSockets: 64 });
	const counts = Object.assign(Object.fromEntries(targets.map((t) => [t, 0])), { unavailable: 0, notReady: 0 }) as Balancer['counts'];
	let next = 0;

	const forward = (incoming: IncomingMessage, body: Buffer, target: string) =>
		new Promise<{ status: number; headers: IncomingMessage['headers']; body: Buffer }>((resolve, reject) => {
			const url = new URL(incoming.url ?? '/', target);
			const outgoing = request(url, { method: incoming.method, headers: incoming.headers, agent }, (response) => {
				const chunks: Buffer[] = [];
				response.on('data', (c: Buffer) => chunks.push(c));
				response.on('end', () => resolve({ status: response.statusCode ?? 502, headers: response.headers, body: Buffer.concat(chunks) }));
				response.on('error', reject);
			});
			let sent = false;
			outgoing.on('finish', () => (sent = true));
			outgoing.on('error', (error: NodeJS.ErrnoException) => {
				// A reset before the request went out is as good as a refusal; after, the target may have acted on it.
				if (error.code === 'ECONNRESET' && !sent) error.code = 'ECONNRESET_BEFORE_SEND';
				reject(error);
			});
			outgoing.end(body);
		});

	// n8n answers every request 200 "n8n is starting up. Please wait" between connecting to its
	// database and the end of its migrations, running nothing: a delivery routed there is lost.
	const ready = (target: string) =>
		new Promise<boolean>((resolve) => {
			const probe = request(new URL('/healthz/readiness', target), { agent }, (response) => {
				response.resume();
				resolve(response.statusCode === 200);
			});
			probe.on('error', () => resolve(false));
			probe.end();
		});

	const server: Server = createServer((incoming, response) => {
		const chunks: Buffer[] = [];
		incoming.on('data', (c: Buffer) => chunks.push(c));
		incoming.on('end', async () => {
			const body = Buffer.concat(chunks);
			const first = next++ % targets.length;
			for (let i = 0; i < targets.length; i++) {
				const target = targets[(first + i) % targets.length];
				if (!(await ready(target))) {
					counts.notReady++;
					continue;
				}
				try {
					const answer = await forward(incoming, body, target);
					counts[target]++;
					response.writeHead(answer.status, answer.headers);
					response.end(answer.body);
					return;
				} catch (error) {
					if (!NOT_CONNECTED.has((error as NodeJS.ErrnoException).code ?? '')) break;
				}
			}
			counts.unavailable++;
			response.writeHead(502, { 'content-type': 'text/plain' });
			response.end('no webhook processor answered');
		});
	});
	await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
	const { port: actual } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${actual}`,
		counts,
		async stop() {
			agent.destroy();
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
