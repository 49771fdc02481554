/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

import { authenticated, PLACEMENTS, type Placement } from './auth';
import type { SandboxControl } from './control';
import { httpArguments } from './controlArguments';
import type { LoggedRequest, SandboxCore } from './core';
import { createOrder } from './create';
import { BodyError, envelopeA, errorReply, parseBody, type Ctx, type Family, type Reply } from './http';
import { ControlError } from './orders';
import { PANEL_HTML, LOGO_SVG } from './panel';
import { RECEIVER_PATH } from './receiver';
import { getBalance, getLogo, updateFavorite } from './routes/account';
import { listSenders, listTemplates, reprocessChatMessage, sendChatMessage } from './routes/chat';
import { cancelOrder, downloadFile, getOrder, getReceipt } from './routes/letters';
import { SAMPLE_LETTER_PATH, sampleLetter } from './sample';
import { sha256Hex } from './util';

/** Each kind of route: where it reads the token (auth.ts), its error envelope and the words of its 401. */
const ACCESS = {
	read: { places: PLACEMENTS.read, family: 'A', denied: 'Token inválido' },
	write: { places: PLACEMENTS.write, family: 'A', denied: 'Token inválido' },
	receipts: { places: PLACEMENTS.logoAndReceipts, family: 'A', denied: 'Token inválido' },
	logo: { places: PLACEMENTS.logoAndReceipts, family: 'logo', denied: 'Token de segurança inválido' },
	favorites: { places: PLACEMENTS.write, family: 'C', denied: 'Não autorizado' },
	chat: { places: PLACEMENTS.chat, family: 'A', denied: 'Unauthorized - invalid credentials' },
	templates: { places: PLACEMENTS.chat, family: 'B', denied: 'Não autorizado — credenciais inválidas' },
} as const satisfies Record<string, { places: readonly Placement[]; family: Family; denied: string }>;

interface Route {
	method: string;
	pattern: RegExp;
	access: keyof typeof ACCESS;
	/** Letter and e-mail routes answer 503 during maintenance. */
	maintenance: boolean;
	handler: (core: SandboxCore, ctx: Ctx) => Promise<Reply>;
}

const ROUTES: Route[] = [
	{ method: 'POST', pattern: /^\/api\/v2\/post\/?$/, access: 'write', maintenance: true, handler: createOrder },
	{ method: 'GET', pattern: /^\/api\/v2\/get\/([^/]+)\/([^/]+)\/?$/, access: 'read', maintenance: true, handler: getOrder },
	{ method: 'GET', pattern: /^\/api\/v2\/download\/([^/]+)\/([^/]+)\/([^/]+)\/?$/, access: 'read', maintenance: true, handler: downloadFile },
	{ method: 'DELETE', pattern: /^\/api\/v2\/delete\/([^/]+)\/([^/]+)\/?$/, access: 'read', maintenance: true, handler: cancelOrder },
	{ method: 'GET', pattern: /^\/api\/v2\/balance\/([^/]+)\/?$/, access: 'read', maintenance: true, handler: getBalance },
	{ method: 'GET', pattern: /^\/api\/v2\/logo\/?$/, access: 'logo', maintenance: false, handler: getLogo },
	{ method: 'PUT', pattern: /^\/api\/v2\/favorites\/?$/, access: 'favorites', maintenance: false, handler: updateFavorite },
	{ method: 'GET', pattern: /^\/api\/receipts\/v1\/get\/?$/, access: 'receipts', maintenance: false, handler: getReceipt },
	{ method: 'POST', pattern: /^\/api\/chat\/v1\/post\/?$/, access: 'chat', maintenance: false, handler: sendChatMessage },
	{ method: 'POST', pattern: /^\/api\/chat\/v1\/process\/?$/, access: 'chat', maintenance: false, handler: reprocessChatMessage },
	{ method: 'GET', pattern: /^\/api\/chat\/v1\/templates\/get\/?$/, access: 'templates', maintenance: false, handler: listTemplates },
	{ method: 'GET', pattern: /^\/api\/chat\/v1\/senders\/get\/?$/, access: 'chat', maintenance: false, handler: listSenders },
];

const MAX_BODY_BYTES = 64 * 1024 * 1024;
// Arrivals and finished answers share one counter, so tests can tell which requests overlapped.
let requestEvents = 0;

async function readBody(req: IncomingMessage): Promise<Buffer> {
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of req as AsyncIterable<Buffer>) {
		size += chunk.length;
		if (size > MAX_BODY_BYTES) {
			req.destroy();
			throw new BodyError('corpo da requisição grande demais');
		}
		chunks.push(chunk);
	}
	return Buffer.concat(chunks);
}

function send(res: ServerResponse, reply: Reply): void {
	if (res.headersSent || res.destroyed) return;
	const headers: Record<string, string> = { ...reply.headers };
	let payload: Buffer;
	if (reply.raw) {
		payload = reply.raw;
	} else {
		payload = Buffer.from(JSON.stringify(reply.body));
		headers['content-type'] ??= 'application/json; charset=utf-8';
	}
	headers['content-length'] = String(payload.length);
	res.writeHead(reply.status, headers);
	res.end(payload);
}

async function handleControl(core: SandboxCore, control: SandboxControl, req: IncomingMessage, url: URL): Promise<Reply> {
	const name = url.pathname.slice('/_sandbox/'.length).replace(/\/$/, '');
	if (name === 'logo.svg') {
		return { status: 200, body: null, raw: Buffer.from(LOGO_SVG), headers: { 'content-type': 'image/svg+xml' } };
	}
	if (name === 'info') {
		return {
			status: 200,
			body: {
				baseUrl: core.baseUrl,
				email: core.settings.email,
				environment: core.settings.environment,
				timeScale: core.settings.timeScale,
				maintenance: core.maintenance,
				latencyMs: core.latencyMs,
				receiverUrl: `${core.baseUrl}${RECEIVER_PATH}`,
				deliveryIds: core.settings.deliveryIds ?? 'delivery',
			},
		};
	}
	if (!Object.prototype.hasOwnProperty.call(control, name)) {
		return { status: 404, body: { error: `unknown control method: ${name}` } };
	}
	const method = name as keyof SandboxControl;
	let input: Record<string, unknown> = Object.fromEntries(url.searchParams);
	const raw = await readBody(req);
	if (raw.length > 0) {
		try {
			input = { ...input, ...(JSON.parse(raw.toString('utf8')) as Record<string, unknown>) };
		} catch {
			return { status: 400, body: { error: 'the body must be JSON' } };
		}
	}
	try {
		const fn = control[method] as (...a: unknown[]) => unknown;
		const result = await fn(...httpArguments(method, input));
		return { status: 200, body: result === undefined ? null : result };
	} catch (error) {
		const message = error instanceof Error ? error.message : String(error);
		return { status: error instanceof ControlError || error instanceof Error ? 400 : 500, body: { error: message } };
	}
}

export function createSandboxServer(core: SandboxCore, control: SandboxControl): Server {
	const server = createServer((req, res) => {
		handle(core, control, req, res).catch((error: Error) => {
			if (!core.settings.quiet) console.error(`sandbox: ${error.message}`);
			send(res, envelopeA(500, 'Erro interno'));
		});
	});
	// Clients reuse connections; idle ones must not keep the process alive after stop().
	server.keepAliveTimeout = 2_000;
	return server;
}

async function handle(core: SandboxCore, control: SandboxControl, req: IncomingMessage, res: ServerResponse): Promise<void> {
	const url = new URL(req.url ?? '/', 'http://127.0.0.1');
	const method = (req.method ?? 'GET').toUpperCase();
	const path = url.pathname;
	if (path === '/' && method === 'GET') {
		return send(res, { status: 200, body: null, raw: Buffer.from(PANEL_HTML), headers: { 'content-type': 'text/html; charset=utf-8' } });
	}
	if (path === SAMPLE_LETTER_PATH && method === 'GET') return send(res, sampleLetter());
	if (path === RECEIVER_PATH || path.startsWith(`${RECEIVER_PATH}/`)) {
		return send(res, core.receiver.take(method, `${path}${url.search}`, req.headers, await readBody(req)));
	}
	if (path.startsWith('/_sandbox/')) {
		return send(res, await handleControl(core, control, req, url));
	}

	const query = Object.fromEntries(url.searchParams);
	const entry: LoggedRequest = {
		method,
		path,
		query,
		headers: { ...req.headers },
		fields: {},
		files: [],
		status: 0,
		at: new Date().toISOString(),
		arrived: requestEvents++,
	};
	core.requestLog.push(entry);
	res.once('close', () => {
		entry.answered = requestEvents++;
	});
	const fault = core.takeFault(method, path);
	if (fault?.kind === 'drop') {
		req.socket.destroy();
		return;
	}

	const matching = ROUTES.filter((r) => r.pattern.test(path));
	const route = matching.find((r) => r.method === method);
	const family: Family = ACCESS[(route ?? matching[0])?.access ?? 'read'].family;
	let reply: Reply = envelopeA(500, 'Erro interno');
	let parsed: Awaited<ReturnType<typeof parseBody>> | null = null;
	try {
		parsed = await parseBody(String(req.headers['content-type'] ?? ''), await readBody(req));
		entry.fields = parsed.fields;
		entry.files = parsed.files.map(({ data, ...file }) => ({ ...file, size: data.length, sha256: sha256Hex(data) }));
	} catch (error) {
		if (!(error instanceof BodyError)) throw error;
		reply = errorReply(family, 400, `Requisição incompleta - ${error.message}`);
	}

	if (parsed === null) {
		// reply was set by the body error above
	} else if (!route) {
		reply =
			matching.length > 0
				? {
						...errorReply(family, 405, 'Método não permitido'),
						headers: { allow: [...new Set(matching.map((r) => r.method))].join(', ') },
					}
				: envelopeA(404, 'Rota não encontrada');
	} else if (fault && (fault.kind === '500' || fault.kind === '503' || fault.kind === '429')) {
		const messages = { '500': 'Erro interno', '503': 'Sistema em manutenção', '429': 'Muitas requisições' };
		reply = errorReply(family, Number(fault.kind), messages[fault.kind]);
	} else if (fault?.kind === 'redirect') {
		// Like a moved host or an http-to-https hop in front of the service: nothing is done here.
		reply = { status: fault.status ?? 307, body: null, raw: Buffer.from(''), headers: { location: fault.location ?? '/' } };
	} else if (core.maintenance && route.maintenance) {
		reply = errorReply(family, 503, 'Sistema em manutenção');
	} else {
		const ctx: Ctx = {
			method,
			path,
			query,
			headers: req.headers,
			fields: parsed.fields,
			files: parsed.files,
			bodyKind: parsed.kind,
			client: req.socket.remoteAddress ?? 'unknown',
			params: route.pattern.exec(path)?.slice(1) ?? [],
		};
		const access = ACCESS[route.access];
		try {
			reply = core.checkAuth(ctx, authenticated(core, ctx, access.places), family, access.denied) ?? (await route.handler(core, ctx));
		} catch (error) {
			if (!core.settings.quiet) console.error(`sandbox: ${method} ${route.pattern}: ${(error as Error).message}`);
			reply = errorReply(family, 500, 'Erro interno');
		}
	}
	if (core.latencyMs > 0) await core.sleep(core.latencyMs);
	if (fault?.kind === 'slow') await core.sleep(fault.delayMs);
	entry.status = reply.status;
	if (fault?.kind === 'dropAfterAccept') {
		req.socket.destroy();
		return;
	}
	// The work is done; what comes back is not the service's answer (a proxy, a captive portal).
	if (fault?.kind === 'html') {
		reply = { status: 200, body: null, raw: Buffer.from(FAULT_HTML), headers: { 'content-type': 'text/html; charset=utf-8' } };
	} else if (fault?.kind === 'empty') {
		reply = { status: 200, body: null, raw: Buffer.alloc(0), headers: { 'content-type': 'application/json' } };
	}
	if (fault?.kind === 'trickle') {
		await trickle(core, res, reply, fault.delayMs);
		return;
	}
	send(res, reply);
}

const FAULT_HTML = '<!doctype html><html><head><title>Sign in</title></head><body><h1>Sign in to continue</h1></body></html>';

/** Sends the headers at once, then the body one byte at a time: a server that never quite stops. */
async function trickle(core: SandboxCore, res: ServerResponse, reply: Reply, pauseMs: number): Promise<void> {
	const payload = reply.raw ?? Buffer.from(JSON.stringify(reply.body));
	res.writeHead(reply.status, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(payload.length) });
	for (let i = 0; i < payload.length; i++) {
		await core.sleep(pauseMs);
		if (res.destroyed || res.writableEnded) return;
		res.write(payload.subarray(i, i + 1));
	}
	res.end();
}
