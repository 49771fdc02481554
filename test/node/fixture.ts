/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
/**
 * Shared set-up of the action-node tests: one sandbox per file, the node run through the engine,
 * what several files send.
 */
import type { IDataObject } from 'n8n-workflow';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';

import { startSandbox } from '../../sandbox';
import type { CredentialsByType, TestItem } from '../harness/engine';
import { runNode } from '../harness/engine';
import { startHttpServer } from '../harness/httpServer';
import { CHAT_MESSAGE, credentialsAt, LETTER, pdfItem } from '../harness/sends';

export const NODE = 'n8n-nodes-postal-service.postalService';
export { TRIGGER_TYPE as TRIGGER } from '../trigger/support';
// Distinctive, so that a leak anywhere in the run data is found by a plain substring search.
export const TOKEN = 'tok-Zq81-SECRET-4471';
export const EMAIL = 'conta@example.com';

export type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

/** Starts a sandbox for the file and resets it before each test. */
export function useSandbox(): { readonly sandbox: Sandbox } {
	const holder = {} as { sandbox: Sandbox };
	beforeAll(async () => {
		holder.sandbox = await startSandbox({ port: 0, token: TOKEN, email: EMAIL, quiet: true, balance: 1000 });
	});
	afterAll(async () => await holder.sandbox?.stop());
	// Back to the seeded state: no latency, maintenance, faults or logged requests.
	beforeEach(() => holder.sandbox.control.reset());
	return holder;
}

/** A server that is not the service, for the file: it answers what the test sets in `answer` (JSON, 200 and empty until then). */
export function useFakeService() {
	const fake = { baseUrl: '', requests: [] as Array<{ url: string }>, answer: { status: 200, type: 'application/json', body: '' } };
	let server: Awaited<ReturnType<typeof startHttpServer>> | undefined;
	beforeAll(async () => {
		server = await startHttpServer((_req, res) => {
			res.statusCode = fake.answer.status;
			res.setHeader('content-type', fake.answer.type);
			res.end(fake.answer.body);
		});
		Object.assign(fake, { baseUrl: server.url, requests: server.requests });
	});
	afterAll(async () => await server?.close());
	beforeEach(() => {
		fake.requests.length = 0;
		fake.answer = { status: 200, type: 'application/json', body: '' };
	});
	return fake;
}

export const credentials = (baseUrl: string, token = TOKEN): CredentialsByType => credentialsAt(baseUrl, token, EMAIL);

export async function run(
	sandbox: Sandbox | { baseUrl: string },
	parameters: Record<string, unknown>,
	options: {
		items?: TestItem[];
		continueOnFail?: boolean | 'errorOutput';
		token?: string;
		retry?: { maxTries?: number; waitBetweenTries?: number };
		executionId?: string | null;
	} = {},
) {
	return await runNode({
		type: NODE,
		parameters: parameters as IDataObject,
		items: options.items,
		continueOnFail: options.continueOnFail,
		credentials: credentials(sandbox.baseUrl, options.token),
		retry: options.retry,
		executionId: options.executionId,
	});
}

/** Creates a registered letter through the node, for tests of what comes after: its id. */
export function letterCreator(ctx: { readonly sandbox: Sandbox }) {
	return async (extra: Record<string, unknown> = {}, pages = 1): Promise<string> => {
		const result = await run(ctx.sandbox, { ...LETTER, ...extra }, { items: [await pdfItem(pages)] });
		expect(result.error).toBeUndefined();
		return String(result.items[0].json.id);
	};
}

/** Chat Message > Send as the editor stores it: sender and template picked through their locators. */
export const CHAT_SEND = {
	...CHAT_MESSAGE,
	senderId: { __rl: true, mode: 'list', value: '2' },
	templateId: { __rl: true, mode: 'id', value: '102' },
};

/** The Authorization header the chat routes must receive for the fixture's account. */
export const CHAT_BASIC = `Basic ${Buffer.from(`${EMAIL}:${TOKEN}`).toString('base64')}`;

export { CHAT_MESSAGE, LETTER, makePdf, pdfItem } from '../harness/sends';
