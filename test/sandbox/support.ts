/** Shared set-up of the sandbox conformance tests: a sandbox per file, PDFs, HTTP helpers. */
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, beforeEach } from 'vitest';

import { startSandbox, type Sandbox } from '../../sandbox';
import type { SandboxOptions } from '../../sandbox';

export const TOKEN = 'conformance-token';
export const EMAIL = 'conta@example.com';
export const SECRET = 'conformance-secret';

/** Starts a sandbox for the file and resets it before each test. */
export function useSandbox(options: SandboxOptions = {}): { readonly sandbox: Sandbox; readonly base: string } {
	const holder = {} as { sandbox: Sandbox; base: string };
	beforeAll(async () => {
		holder.sandbox = await startSandbox({
			port: 0,
			token: TOKEN,
			email: EMAIL,
			webhookSecret: SECRET,
			quiet: true,
			...options,
		});
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
	// eslint-disable-next-line @typescript-eslint/no-explicit-any
	body: any;
	headers: Headers;
}

export async function call(url: string, init: RequestInit = {}): Promise<Answer> {
	const response = await fetch(url, init);
	const text = await response.text();
	let body: unknown = text;
	try {
		body = JSON.parse(text);
	} catch {
		// not JSON: keep the text
	}
	return { status: response.status, body, headers: response.headers };
}

export const basic = (user: string, password: string) =>
	`Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

/** A valid simple letter to a São Paulo recipient (shipType 1 needs a PDF). */
export function letter(overrides: Record<string, string | undefined> = {}): Record<string, string> {
	const fields: Record<string, string | undefined> = {
		userSecurityToken: TOKEN,
		shipType: '1',
		name: 'Ana Souza',
		addr1: 'Avenida Paulista',
		street_number: '1578',
		zip: '01310-200',
		city: 'São Paulo',
		state: 'SP',
		country: 'Brasil',
		...overrides,
	};
	return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Record<string, string>;
}

/** POST /api/v2/post as multipart, with the PDF as a file part when given. */
export async function createOrder(base: string, fields: Record<string, string>, pdf?: Buffer): Promise<Answer> {
	const form = new FormData();
	for (const [key, value] of Object.entries(fields)) form.append(key, value);
	if (pdf) form.append('pdfFile', new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }), 'carta.pdf');
	return call(`${base}/api/v2/post`, { method: 'POST', body: form });
}

/** POST /api/v2/post as application/x-www-form-urlencoded. */
export async function createOrderForm(base: string, fields: Record<string, string>): Promise<Answer> {
	return call(`${base}/api/v2/post`, { method: 'POST', body: new URLSearchParams(fields) });
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
