/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';

export interface RecordedRequest {
	method: string;
	url: string;
	headers: IncomingMessage['headers'];
	body: string;
}

/** A small HTTP server on 127.0.0.1 for tests that need a peer other than the sandbox. */
export async function startHttpServer(
	handler: (req: RecordedRequest, res: ServerResponse) => void | Promise<void>,
): Promise<{ url: string; requests: RecordedRequest[]; close: () => Promise<void> }> {
	const requests: RecordedRequest[] = [];
	const server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const recorded = {
				method: req.method ?? 'GET',
				url: req.url ?? '/',
				headers: req.headers,
				body: Buffer.concat(chunks).toString('utf8'),
			};
			requests.push(recorded);
			Promise.resolve(handler(recorded, res)).catch((error: Error) => {
				res.statusCode = 500;
				res.end(error.message);
			});
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		requests,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

/** A port of 127.0.0.1 that refuses connections: one just given up by a server. */
export async function closedPort(): Promise<number> {
	const server = createTcpServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	await new Promise<void>((resolve) => server.close(() => resolve()));
	return port;
}
