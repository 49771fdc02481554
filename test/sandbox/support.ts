/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
/**
 * Shared set-up of the sandbox conformance tests: a sandbox per file, PDFs, HTTP helpers, the create
 * route's outcomes, the chat routes, and sandboxes with webhook receivers started per test.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

import { PDFDocument } from 'pdf-lib';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';

import { startSandbox, type Delivery, type Sandbox, type SandboxOptions } from '../../sandbox';
import { SAMPLE_RECIPIENT } from '../../sandbox/recipient';
import { startHttpServer, type RecordedRequest } from '../harness/httpServer';

export const TOKEN = 'conformance-token';
export const EMAIL = 'conta@example.com';
export const SECRET = 'conformance-secret';
/** Every sandbox of these tests: any free port, this account, no console output. */
const ACCOUNT = { port: 0, token: TOKEN, email: EMAIL, webhookSecret: SECRET, quiet: true };

/** Starts a sandbox for the file and resets it before each test. */
export function useSandbox(options: SandboxOptions = {}): { readonly sandbox: Sandbox; readonly base: string } {
	const holder = {} as { sandbox: Sandbox; base: string };
	beforeAll(async () => {
		holder.sandbox = await startSandbox({ ...ACCOUNT, ...options });
		holder.base = holder.sandbox.baseUrl;
	});
	afterAll(async () => await holder.sandbox?.stop());
	beforeEach(() => holder.sandbox.control.reset());
	return holder;
}

const pdfCache = new Map<number, Buffer>();

export async function pdfWithPages(pages: number): Promise<Buffer> {
	const cached = pdfCache.get(pages);
	if (cached) return cached;
	const doc = await PDFDocument.create();
	for (let i = 0; i < pages; i++) doc.addPage([200, 200]);
	const bytes = Buffer.from(await doc.save());
	pdfCache.set(pages, bytes);
	return bytes;
}

/** A PDF whose trailer has an /Encrypt entry: what a password-protected document looks like. */
export async function encryptedPdf(): Promise<Buffer> {
	const doc = await PDFDocument.create();
	doc.addPage([200, 200]);
	doc.context.trailerInfo.Encrypt = doc.context.obj({ Filter: 'Standard', V: 1, R: 2, P: -4 });
	return Buffer.from(await doc.save({ useObjectStreams: false }));
}

export interface Answer {
	status: number;
	// Envelopes differ per route; tests read the fields they check.
	body: any;
	headers: Headers;
}

/** An answer with its body parsed when it is JSON, kept as text when not. */
export function answerOf(status: number, text: string, headers: Headers = new Headers()): Answer {
	try {
		return { status, body: JSON.parse(text), headers };
	} catch {
		return { status, body: text, headers };
	}
}

export async function call(url: string, init: RequestInit = {}): Promise<Answer> {
	const response = await fetch(url, init);
	return answerOf(response.status, await response.text(), response.headers);
}

export const basic = (user: string, password: string) =>
	`Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

/** HTTP Basic with the account's e-mail and token, as the chat routes want it. */
export const chatAuth = { authorization: basic(EMAIL, TOKEN) };

/** A message the sandbox sends: a number on the chat app and an approved template with its one variable. */
export const welcome = { phone: '(11) 98765-4321', template_id: 101, variables: { nome: 'Ana' } };

/** POST /api/chat/v1/post and /api/chat/v1/process of the file's sandbox, each with a JSON body. */
export function chatRoutes(ctx: { readonly base: string }) {
	const post = (route: string, body: Record<string, unknown>) =>
		call(`${ctx.base}/api/chat/v1/${route}`, { method: 'POST', headers: { ...chatAuth, 'content-type': 'application/json' }, body: JSON.stringify(body) });
	return {
		send: (body: Record<string, unknown>) => post('post', body),
		reprocess: (messageId: number) => post('process', { message_id: messageId }),
	};
}

/** A valid simple letter to a São Paulo recipient (shipType 1 needs a PDF). */
export function letter(overrides: Record<string, string | undefined> = {}): Record<string, string> {
	const fields: Record<string, string | undefined> = {
		userSecurityToken: TOKEN,
		shipType: '1',
		...SAMPLE_RECIPIENT,
		name: 'Ana Souza',
		...overrides,
	};
	return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Record<string, string>;
}

/** A multipart body of these fields, a Buffer sent as a PDF file part named carta.pdf. */
export function formData(fields: Record<string, unknown>): FormData {
	const form = new FormData();
	for (const [key, value] of Object.entries(fields)) {
		if (Buffer.isBuffer(value)) form.append(key, new Blob([new Uint8Array(value)], { type: 'application/pdf' }), 'carta.pdf');
		else form.append(key, String(value));
	}
	return form;
}

/** POST /api/v2/post as multipart, with the PDF as a file part when given. */
export async function createOrder(base: string, fields: Record<string, string>, pdf?: Buffer): Promise<Answer> {
	return call(`${base}/api/v2/post`, { method: 'POST', body: formData(pdf ? { ...fields, pdfFile: pdf } : fields) });
}

/** POST /api/v2/post as application/x-www-form-urlencoded. */
export async function createOrderForm(base: string, fields: Record<string, string>): Promise<Answer> {
	return call(`${base}/api/v2/post`, { method: 'POST', body: new URLSearchParams(fields) });
}

/**
 * The create route's two outcomes, checked: the record of an accepted order, or a 400 whose message
 * names the problem.
 */
export function orderOutcomes(ctx: { readonly sandbox: Sandbox; readonly base: string }) {
	async function created(fields: Record<string, string>, pdf?: Buffer) {
		const answer = await createOrder(ctx.base, fields, pdf);
		expect(answer.body, JSON.stringify(answer.body)).toMatchObject({ status: 200, status_message: 'Sucesso - pedido aceito' });
		return ctx.sandbox.control.order(answer.body.data)!;
	}

	async function refused(fields: Record<string, string>, pdf: Buffer | undefined, words: string) {
		const answer = await createOrder(ctx.base, fields, pdf);
		expect(answer.status).toBe(400);
		expect(answer.body).toMatchObject({ status: 400, data: null });
		expect(answer.body.status_message).toContain(words);
		return answer;
	}

	return { created, refused };
}

/** A control call over HTTP: POST /_sandbox/<method> with a JSON body. */
export const controlOverHttp = (ctx: { readonly base: string }) => (method: string, body?: unknown) =>
	call(`${ctx.base}/_sandbox/${method}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});

/** The routes that read, download and cancel an order of the file's sandbox, with the account's token. */
export function orderRoutes(ctx: { readonly base: string }) {
	const get = (id: string) => call(`${ctx.base}/api/v2/get/${TOKEN}/${id}`);
	const download = (id: string, type: string, query = '') =>
		call(`${ctx.base}/api/v2/download/${TOKEN}/${id}/${type}${query}`);
	const cancel = (id: string) => call(`${ctx.base}/api/v2/delete/${TOKEN}/${id}`, { method: 'DELETE' });
	return { get, download, cancel };
}

/** Creates a letter and returns its id (a one-page PDF unless the fields say otherwise). */
export async function newLetter(base: string, overrides: Record<string, string | undefined> = {}, pages = 1): Promise<string> {
	const answer = await createOrder(base, letter(overrides), await pdfWithPages(pages));
	if (answer.status !== 200 || typeof answer.body.data !== 'string') {
		throw new Error(`letter not created: ${answer.status} ${JSON.stringify(answer.body)}`);
	}
	return answer.body.data;
}

export function tomorrow(days = 1): string {
	const date = new Date(Date.now() + days * 86_400_000);
	return new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(date);
}

/** Milliseconds per "minute": retries come after 5, 10 and 20 of them. */
export const TIME_SCALE = 20;

/** `Y-m-d H:i:s`, São Paulo time: how the webhooks write every date. */
export const SAO_PAULO = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/;

export const finished = (d: Delivery) => d.state === 'delivered' || d.state === 'failed';

/** X-Webhook-Signature checked as a receiver does: the HMAC of the exact bytes, compared in constant time. */
export function verify(body: string, signature: string | undefined, secret: string): boolean {
	if (!signature?.startsWith('sha256=')) return false;
	const expected = Buffer.from(createHmac('sha256', secret).update(body).digest('hex'));
	const given = Buffer.from(signature.slice('sha256='.length));
	return expected.length === given.length && timingSafeEqual(expected, given);
}

/**
 * For the tests that each need a sandbox with settings of its own (the webhook tests above all):
 * starts sandboxes and receivers that answer as told, and stops them all after each test.
 */
export function useWebhookRigs() {
	const cleanups: Array<() => Promise<void>> = [];
	afterEach(async () => {
		while (cleanups.length > 0) await cleanups.pop()!();
	});

	async function setup(options: SandboxOptions = {}) {
		const sandbox = await startSandbox({ ...ACCOUNT, timeScale: TIME_SCALE, ...options });
		cleanups.push(() => sandbox.stop());
		return sandbox;
	}

	async function receiver(answer: (request: RecordedRequest, index: number) => { status: number; body?: string; delayMs?: number }) {
		let index = 0;
		const server = await startHttpServer(async (request, res) => {
			const { status, body, delayMs } = answer(request, index++);
			if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs));
			if (res.destroyed) return;
			res.writeHead(status, { 'content-type': 'text/plain' });
			res.end(body ?? 'ok');
		});
		cleanups.push(() => server.close());
		return server;
	}

	return { setup, receiver };
}
