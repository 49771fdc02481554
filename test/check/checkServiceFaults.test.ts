/**
 * `npm run check-service` touches a real account, through whatever stands in front of it: the node's
 * fault matrix and token scan apply to it. Its one write (a chat message, when asked for) is made
 * at most once whatever answers, and no line it prints holds the token, whole or in part, in any
 * encoding a server may echo it in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startSandbox, type Sandbox } from '../../sandbox';
import { formatTable } from '../../scripts/check-service/findings';
import { checkService } from '../../scripts/check-service/run';
import { BARE, startForeignProxy, type ProxyAnswer } from '../reliability/foreignProxy';
import { countSecretLeaks, decodedViews, echoedForms } from '../reliability/types';

// Characters that read differently URL-encoded, form-encoded and in base64.
const TOKEN = 'Rel+Tok/9 q=z&ZX81';
const EMAIL = 'conta@example.com';
const ALLOW_LISTED = '+5511987654321';
const CHAT_POST = /^\/api\/chat\/v1\/post/;

let sandbox: Sandbox;
let proxy: Awaited<ReturnType<typeof startForeignProxy>>;
beforeAll(async () => {
	sandbox = await startSandbox({ port: 0, token: TOKEN, email: EMAIL, quiet: true, balance: 1000 });
	proxy = await startForeignProxy(sandbox.baseUrl);
});
afterAll(async () => {
	await proxy.close();
	await sandbox.stop();
});

const run = async (spend?: string) => {
	const { findings, calls } = await checkService({ baseUrl: proxy.url, email: EMAIL, token: TOKEN }, { spendChatMessageTo: spend });
	return `${calls.join('\n')}\n${formatTable(findings)}`;
};

/**
 * Answers to the chat message after the service made it, and a refusal the service never saw: one
 * message every time, so none is sent twice and the refusal (which made nothing) is followed by one resend.
 */
const CHAT_FAULTS: Array<[string, ProxyAnswer]> = [
	...Object.entries(BARE).map(([name, answer]): [string, ProxyAnswer] => [`a proxy's ${name}`, { kind: 'replace', ...answer }]),
	['a connection reset after the body was sent', { kind: 'reset' }],
	['an HTML page with 200', { kind: 'replace', status: 200, contentType: 'text/html', body: '<html><title>Sign in</title></html>' }],
	[
		"a refusal in the service's own envelope",
		{ kind: 'own', status: 400, contentType: 'application/json', body: JSON.stringify({ status: 400, status_message: 'Campos obrigatórios não preenchidos', data: null }) },
	],
];

describe('check-service: writes carried out never exceed writes asked for', () => {
	it.each(CHAT_FAULTS)('%s on the chat message it was asked to spend: exactly one message', async (_, answer) => {
		sandbox.control.reset();
		sandbox.control.addChatNumber(ALLOW_LISTED);
		proxy.clear();
		proxy.plan({ ...answer, path: CHAT_POST });
		await run(ALLOW_LISTED);
		expect(sandbox.control.chatMessages()).toHaveLength(1);
	});
});

/** Answers that echo the token, each the way a server in front of the service might. */
const PLACES: Record<string, (text: string) => ProxyAnswer> = {
	'an error in envelope A': (text) => ({ kind: 'own', status: 401, contentType: 'application/json', body: JSON.stringify({ status: 401, status_message: `Token inválido: ${text}`, data: null }) }),
	'a long string in a success answer': (text) => ({
		kind: 'own',
		status: 200,
		contentType: 'application/json',
		body: JSON.stringify({ status: 200, status_message: 'ok', data: { file_base64: `${text}${'A'.repeat(90)}`, balance: text } }),
	}),
	'a plain-text 502': (text) => ({ kind: 'own', status: 502, contentType: 'text/plain', body: `bad gateway for ${text}` }),
	'an HTML page': (text) => ({ kind: 'own', status: 200, contentType: 'text/html', body: `<html><head><title>${text}</title></head><body>${text}</body></html>` }),
};

/** Any 8 characters of the token in a row, in any decoded view of the text. */
function partsOfToken(text: string): string[] {
	const parts = Array.from({ length: TOKEN.length - 7 }, (_, i) => TOKEN.slice(i, i + 8));
	return parts.filter((part) => decodedViews(text).some((view) => view.includes(part)));
}

describe('check-service prints no part of the token', () => {
	for (const [place, answer] of Object.entries(PLACES)) {
		it.each(echoedForms(TOKEN, EMAIL).map(({ name, text }) => [name, text]))(`echoed as %s in ${place}`, async (_, text) => {
			proxy.clear();
			// Every request of the run meets the echo.
			proxy.plan(...Array.from({ length: 200 }, () => answer(text)));
			const printed = await run();
			expect(countSecretLeaks(printed, [{ secret: TOKEN, basicUser: EMAIL }])).toBe(0);
			expect(partsOfToken(printed)).toEqual([]);
		});
	}
});
