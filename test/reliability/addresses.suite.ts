/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
/**
 * One address for one route, whoever asks: the node (every operation), `npm run check-service` and
 * each credential's Test, for every shape a Base URL comes in (a trailing slash or several, a path
 * prefix, another host name and a port, a query). A server on 127.0.0.1 records what each asked.
 * Figures: requests whose address is not the Base URL's own path followed by the route's, and
 * Base URLs with a query that anything asked at all (the node and check-service refuse them).
 *
 * A Base URL the node cannot use (no scheme, a host and port only, another protocol, no host) is
 * refused before any request, naming the field, by every operation and by check-service; both
 * credentials' Test fail on it. And each network failure × before or after the request's bytes
 * left × read or write: a failure before says "Could not connect … Nothing was sent", one after
 * says the write may have been accepted and never repeats it. Figures: runs that say otherwise.
 */
import { createServer as createTcpServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

import { ROUTES } from '../../nodes/PostalService/contract/routes';
import type { TestItem } from '../harness/engine';
import { credentialsAt } from '../harness/sends';
import { counter, runAction, type SuiteRow, type ReliabilitySuite, type SuiteContext } from './types';

const TOKEN = 'addr-token-93be';
const EMAIL = 'conta@example.com';

/** A route's path as a pattern, its placeholders any one segment. */
const ROUTE_PATTERNS = Object.entries(ROUTES).map(([name, route]) => ({
	name,
	pattern: new RegExp(`${route.path.replace(/\{\w+\}/g, '[^/]+')}$`),
}));

export const suite: ReliabilitySuite = {
	name: 'Addresses',
	async run(context: SuiteContext): Promise<SuiteRow[]> {
		const { runCredentialTest } = await import('../harness/engine');
		const { startHttpServer } = await import('../harness/httpServer');
		const { everyOperation } = await import('../harness/sends');
		const { checkService } = await import('../../scripts/check-service/run');
		// Whatever is asked gets an answer the node reads as no success: only the address matters here.
		const server = await startHttpServer((_req, res) => {
			res.setHeader('content-type', 'application/json');
			res.end('{"status":400,"status_message":"Requisição incompleta","data":null}');
		});
		const OPERATIONS = Object.values(await everyOperation());
		const root = server.url;
		const alias = root.replace('127.0.0.1', 'localhost');
		const SHAPES: Array<{ base: string; prefix?: string }> = [
			{ base: root, prefix: '' },
			{ base: `${root}/`, prefix: '' },
			{ base: `${root}//`, prefix: '' },
			{ base: `${root}/homolog-api`, prefix: '/homolog-api' },
			{ base: `${root}/homolog-api/`, prefix: '/homolog-api' },
			{ base: `${alias}/a/b`, prefix: '/a/b' },
			// Spaces around it, as a paste leaves them: every client reads the same address.
			{ base: ` ${root}/homolog-api/  `, prefix: '/homolog-api' },
			{ base: `${root}/api?key=1` },
			{ base: `${root}/api/#top` },
		];
		const placed = counter(context.log);
		let queryAsked = 0;
		// By path: Send and Get Price share one (test=0 or 1).
		const routesByClient: Record<string, Set<string>> = { node: new Set(), 'check-service': new Set(), 'credential Test': new Set() };
		try {
			for (const shape of SHAPES) {
				const asked: Record<string, string[]> = {};
				const collect = (client: string) => {
					asked[client] = server.requests.splice(0).map((r) => r.url.split('?')[0]);
				};
				for (const { parameters, items } of OPERATIONS) await runAction(parameters, { items, credentials: credentialsAt(shape.base, TOKEN), continueOnFail: true });
				collect('node');
				await checkService({ baseUrl: shape.base, email: EMAIL, token: TOKEN }).catch(() => undefined);
				collect('check-service');
				for (const [name, data] of Object.entries(credentialsAt(shape.base, TOKEN))) await runCredentialTest(name, data);
				collect('credential Test');
				for (const [client, paths] of Object.entries(asked)) {
					if (shape.prefix === undefined) {
						// The node and check-service refuse a Base URL with a query; a credential's Test is n8n's request, which cannot.
						if (client !== 'credential Test') queryAsked += paths.length;
						continue;
					}
					for (const path of paths) {
						const route = ROUTE_PATTERNS.find(({ pattern }) => pattern.test(path));
						if (route) routesByClient[client].add(route.pattern.source);
						placed.check(route !== undefined && path.replace(route.pattern, '') === shape.prefix, `${client}, Base URL ${shape.base}: asked ${path}`);
					}
				}
			}
		} finally {
			await server.close();
		}
		const unusable = await unusableBaseUrls(OPERATIONS, context);
		const network = await networkFailures(context);
		const covered = Object.entries(routesByClient).map(([client, routes]) => `${client} ${routes.size}`).join(', ');
		return [
			{
				case: `${SHAPES.length - 2} Base URL shapes (trailing slashes, a path prefix, another host and port, spaces around it) × every operation of the node, npm run check-service and both credentials' Test`,
				runs: placed.runs,
				measure: "requests not at the Base URL's path followed by the route's",
				bad: placed.bad,
				note: `routes asked of ${new Set(Object.values(ROUTES).map((r) => `${r.method} ${r.path}`)).size}: ${covered}`,
			},
			{
				case: 'a Base URL with a query or a fragment, to the node and npm run check-service',
				runs: 2,
				measure: 'requests sent (both refuse it, saying why)',
				bad: queryAsked,
			},
			unusable,
			network,
		];
	},
};

/** Base URLs the node cannot use × every operation, check-service and both credentials' Test. */
async function unusableBaseUrls(operations: Array<{ parameters: Record<string, unknown>; items?: TestItem[] }>, context: SuiteContext): Promise<SuiteRow> {
	const { runCredentialTest } = await import('../harness/engine');
	const { checkService } = await import('../../scripts/check-service/run');
	const SHAPES = ['api.example.com', 'localhost:8080', '127.0.0.1:8080/api', 'ftp://127.0.0.1/api', 'http://', 'https:///api', 'file:///etc'];
	const count = counter(context.log);
	for (const base of SHAPES) {
		for (const { parameters, items } of operations) {
			const message = String((await runAction(parameters, { items, credentials: credentialsAt(base, TOKEN) })).error?.message);
			count.check(/Could not connect[^]*"Base URL"[^]*Nothing was sent/.test(message), `node, Base URL ${base}, ${String(parameters.resource)} > ${String(parameters.operation)}: ${message}`);
		}
		const refused = await checkService({ baseUrl: base, email: EMAIL, token: TOKEN }).then(
			() => 'ran',
			(error: Error) => error.message,
		);
		count.check(/"Base URL"/.test(refused), `check-service, Base URL ${base}: ${refused}`);
		for (const [name, data] of Object.entries(credentialsAt(base, TOKEN))) {
			count.check((await runCredentialTest(name, data)).status !== 'OK', `${name} Test, Base URL ${base}: passed`);
		}
	}
	return {
		case: `${SHAPES.length} Base URLs the node cannot use (no scheme, host and port only, ftp, file, no host) × every operation of the node, npm run check-service and both credentials' Test`,
		runs: count.runs,
		measure: 'runs that did not refuse it saying "Could not connect", naming "Base URL" and that nothing was sent (a Test that passed)',
		bad: count.bad,
	};
}

/** A TCP server on 127.0.0.1 doing `onSocket` with each connection. */
async function tcpServer(onSocket: (socket: Socket) => void): Promise<{ port: number; close: () => Promise<void> }> {
	const sockets = new Set<Socket>();
	const server = createTcpServer((socket) => {
		sockets.add(socket);
		socket.on('error', () => undefined);
		onSocket(socket);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		port: (server.address() as AddressInfo).port,
		close: () =>
			new Promise<void>((resolve) => {
				sockets.forEach((s) => s.destroy());
				server.close(() => resolve());
			}),
	};
}

/** Each network failure × before or after the request's bytes left × read or write. */
async function networkFailures(context: SuiteContext): Promise<SuiteRow> {
	const { closedPort } = await import('../harness/httpServer');
	const { pdfItem, LETTER } = await import('../harness/sends');
	// Resets a connection at once: over TLS, before the handshake ends, so before any byte of the request.
	const resetAtOnce = await tcpServer((socket) => socket.destroy());
	// Reads the request, then resets: its bytes had left.
	let received = 0;
	const resetAfterRequest = await tcpServer((socket) =>
		socket.once('data', () => {
			received++;
			setTimeout(() => socket.destroy(), 50);
		}),
	);
	const KINDS: Array<{ name: string; baseUrl: string; before: boolean }> = [
		{ name: 'an unknown host', baseUrl: 'http://no-such-host.invalid', before: true },
		{ name: 'a refused connection', baseUrl: `http://127.0.0.1:${await closedPort()}`, before: true },
		{ name: 'a TLS handshake reset', baseUrl: `https://127.0.0.1:${resetAtOnce.port}`, before: true },
		{ name: 'https to a server that is not TLS', baseUrl: `https://127.0.0.1:${resetAfterRequest.port}`, before: true },
		{ name: 'a reset after the request', baseUrl: `http://127.0.0.1:${resetAfterRequest.port}`, before: false },
	];
	const OPERATIONS = [
		{ name: 'Letter > Get', write: false, parameters: { resource: 'order', operation: 'get', orderId: '100001' }, items: undefined },
		{ name: 'Letter > Send', write: true, parameters: { ...LETTER, additionalFields: { checkWithService: 'never' } }, items: [await pdfItem(1)] },
	];
	const count = counter(context.log);
	try {
		for (const kind of KINDS) {
			for (const op of OPERATIONS) {
				received = 0;
				const message = String((await runAction(op.parameters, { items: op.items, credentials: credentialsAt(kind.baseUrl, TOKEN) })).error?.message);
				const right = kind.before
					? /Could not connect[^]*Nothing was sent/.test(message)
					: !/Nothing was sent/.test(message) && (!op.write || (/may have been accepted/.test(message) && received === 1));
				count.check(right, `${kind.name}, ${op.name}: ${message} (${received} request(s) received)`);
			}
		}
	} finally {
		await resetAtOnce.close();
		await resetAfterRequest.close();
	}
	return {
		case: `${KINDS.length} network failures (unknown host, refused, TLS reset or not TLS before the request; a reset after it) × a read and a write`,
		runs: count.runs,
		measure: 'errors that do not say "Could not connect … Nothing was sent" before the request left, or after it say so or repeat a write',
		bad: count.bad,
	};
}
