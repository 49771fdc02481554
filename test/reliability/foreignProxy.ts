/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
/**
 * A proxy or gateway in front of the service, as users run one (nginx, Envoy, a cloud load
 * balancer): it passes each request on to the service and then, as the next planned answer says,
 * hands back the service's answer, an answer of its own (a bare 502/503/504/429, an HTML error
 * page, a redirect, a body echoing whatever it is given) or a reset connection.
 */
import { createServer, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type ProxyAnswer = (

	/** The service's own answer. */
	| { kind: 'pass' }
	/** The service did the work; the proxy answers this instead. */
	| { kind: 'replace'; status: number; contentType: string; body: string; headers?: Record<string, string> }
	/** The service did the work; the proxy resets the connection. */
	| { kind: 'reset' }
	/** The proxy answers by itself; the service never sees the request. */
	| { kind: 'own'; status: number; contentType: string; body: string; headers?: Record<string, string> }
) & {
	/** Only for requests whose path and query match. */
	path?: RegExp;
};

/** Bare answers of proxies, by status: what nginx, Envoy and cloud gateways send. */
export const BARE: Record<string, { status: number; contentType: string; body: string }> = {
	'502 text': { status: 502, contentType: 'text/plain', body: 'upstream connect error or disconnect/reset before headers. reset reason: connection termination' },
	'503 text': { status: 503, contentType: 'text/plain', body: 'no healthy upstream' },
	'504 text': { status: 504, contentType: 'text/plain', body: 'upstream request timeout' },
	'429 text': { status: 429, contentType: 'text/plain', body: 'Too Many Requests' },
	'502 html': {
		status: 502,
		contentType: 'text/html',
		body: '<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>',
	},
	'503 html': {
		status: 503,
		contentType: 'text/html',
		body: '<!DOCTYPE html><html><head><title>Service Unavailable</title></head><body><h1>503 Service Unavailable</h1></body></html>',
	},
	'503 json': { status: 503, contentType: 'application/json', body: '{"message":"Service Unavailable"}' },
	'429 json': { status: 429, contentType: 'application/json', body: '{"error":"rate limited","retry_after":1}' },
};

export async function startForeignProxy(target: string) {
	const plan: ProxyAnswer[] = [];
	async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const chunks: Buffer[] = [];
		for await (const chunk of req) chunks.push(chunk as Buffer);
		// The first planned answer for this request's path (an answer without a path is for any request).
		const at = plan.findIndex((a) => !('path' in a) || a.path === undefined || a.path.test(req.url ?? ''));
		const answer = at === -1 ? { kind: 'pass' as const } : plan.splice(at, 1)[0];
		const upstream = answer.kind === 'own' ? undefined : await forward(target, req.method ?? 'GET', req.url ?? '/', req.headers, Buffer.concat(chunks));
		if (answer.kind === 'reset') return void res.socket?.resetAndDestroy();
		if (answer.kind === 'pass') res.writeHead(upstream!.status, upstream!.headers).end(upstream!.body);
		else res.writeHead(answer.status, { 'content-type': answer.contentType, ...answer.headers }).end(answer.body);
	}
	const server = createServer((req, res) => {
		handle(req, res).catch(() => res.socket?.destroy());
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		/** Answers for the next requests, in order; after them every request passes. */
		plan(...answers: ProxyAnswer[]) {
			plan.push(...answers);
		},
		/** Drops the answers not used yet. */
		clear() {
			plan.length = 0;
		},
		close: () =>
			new Promise<void>((resolve) => {
				plan.length = 0;
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

function forward(target: string, method: string, url: string, headers: IncomingHttpHeaders, body: Buffer) {
	return new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
		const to = new URL(url, target);
		const out = httpRequest(to, { method, headers: { ...headers, host: to.host } }, (res) => {
			const chunks: Buffer[] = [];
			res.on('data', (c: Buffer) => chunks.push(c));
			res.on('end', () => {
				const { 'transfer-encoding': _chunked, connection: _connection, ...rest } = res.headers;
				resolve({ status: res.statusCode ?? 502, headers: rest, body: Buffer.concat(chunks) });
			});
			res.on('error', reject);
		});
		out.on('error', reject);
		out.end(body);
	});
}

/**
 * The token scan's places: a server in front of the service echoes the token (as `text`, in some
 * encoding) in a redirect's Location, an error in the service's envelope, plain text and HTML; or
 * answers nothing at all.
 */
export function echoPlaces(elsewhereUrl: string): Record<string, (text: string) => ProxyAnswer> {
	return {
		'Location of a 302': (text) => ({ kind: 'own', status: 302, contentType: 'text/plain', body: '', headers: { location: `${elsewhereUrl}/login?next=${text}` } }),
		'Location of a 307, relative': (text) => ({ kind: 'own', status: 307, contentType: 'text/plain', body: '', headers: { location: `/moved/${text}` } }),
		'error in envelope A': (text) => ({ kind: 'own', status: 401, contentType: 'application/json', body: JSON.stringify({ status: 401, status_message: `Token inválido: ${text}`, data: null }) }),
		'error in envelope B': (text) => ({ kind: 'own', status: 401, contentType: 'application/json', body: JSON.stringify({ code: 401, status: 'error', message: `Não autorizado ${text}`, data: null, request_id: text }) }),
		'plain-text 502': (text) => ({ kind: 'own', status: 502, contentType: 'text/plain', body: `bad gateway for ${text}` }),
		'HTML error page 503': (text) => ({ kind: 'own', status: 503, contentType: 'text/html', body: `<html><head><title>${text}</title></head><body>${text}</body></html>` }),
		'HTML page with 200': (text) => ({ kind: 'own', status: 200, contentType: 'text/html', body: `<html><head><title>Sign in ${text}</title></head></html>` }),
		'empty answer with 200': () => ({ kind: 'own', status: 200, contentType: 'application/json', body: '' }),
	};
}
