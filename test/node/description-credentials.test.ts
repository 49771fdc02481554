/**
 * The credential's authentication, run by hand as n8n would run it against the sandbox: what an HTTP
 * Request node with the credential (Predefined Credential Type) sends. Each credential's Test is
 * credentials.test.ts's (through n8n-core) and the e2e suite's (in a real n8n).
 */
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';
import { Expression } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { SAMPLE_RECIPIENT } from '../../sandbox/recipient';
import { credentialType } from '../harness/engine';
import { makePdf } from '../harness/sends';
import { TOKEN, useSandbox } from './fixture';

const ctx = useSandbox();

interface Request {
	method: string;
	url: string;
	qs?: Record<string, string>;
	headers?: Record<string, string>;
	body?: RequestInit['body'];
}

/**
 * A request with the credential's generic authenticate applied as n8n's credentials helper applies
 * it (1.85.4 and 2.41.1: each value resolved, then set under its key in headers, qs, body or auth).
 * n8n resolves these expressions with its global context (encodeURIComponent among it); the plain
 * resolver used here has none, so the one global the credential uses is handed over.
 */
async function send(name: string, data: ICredentialDataDecryptedObject, request: Request): Promise<Response> {
	const type = (await credentialType(name))!;
	const resolve = (value: unknown) =>
		typeof value === 'string' && value.startsWith('=') ? String(Expression.resolveWithoutWorkflow(value.slice(1), { $credentials: data, encodeURIComponent })) : String(value);
	const auth = type.authenticate as { type: string; properties: Record<string, Record<string, string>> };
	expect(auth.type).toBe('generic');
	// Only the places a request of the HTTP Request node can take for any body: a body key would not reach a multipart body.
	expect(Object.keys(auth.properties).every((where) => ['qs', 'headers'].includes(where))).toBe(true);
	const qs = { ...request.qs };
	const headers = { ...request.headers };
	for (const [key, value] of Object.entries(auth.properties.qs ?? {})) qs[resolve(key)] = resolve(value);
	for (const [key, value] of Object.entries(auth.properties.headers ?? {})) headers[resolve(key)] = resolve(value);
	const search = new URLSearchParams(qs).toString();
	return await fetch(`${resolve(data.baseUrl)}${resolve(request.url)}${search ? `?${search}` : ''}`, { method: request.method, headers, body: request.body });
}

/** One call per route family that takes the token outside the path, as a user sets it up in an HTTP Request node. */
async function familyCalls(order: string): Promise<Array<[string, Request]>> {
	const letter = new FormData();
	for (const [key, value] of Object.entries({ ...SAMPLE_RECIPIENT, shipType: '1', test: '1' })) letter.append(key, value);
	letter.append('pdfFile', new Blob([new Uint8Array(await makePdf(1))], { type: 'application/pdf' }), 'letter.pdf');
	return [
		['create (price)', { method: 'POST', url: '/api/v2/post', body: letter }],
		['favorites update', { method: 'PUT', url: '/api/v2/favorites', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: 1, city: 'Santos' }) }],
		['logo', { method: 'GET', url: '/api/v2/logo' }],
		['receipts', { method: 'GET', url: '/api/receipts/v1/get', qs: { order_id: order } }],
	];
}

describe('credentials', () => {
	it('Postal Service API: its authenticate alone reaches every route family that takes the token outside the path, in the query only', async () => {
		const order = (await ctx.sandbox.control.sendSampleLetter()).id as string;
		const data = { baseUrl: ctx.sandbox.baseUrl, securityToken: TOKEN };
		const calls = await familyCalls(order);
		for (const [family, request] of calls) {
			const wrong = await send('postalServiceApi', { ...data, securityToken: 'nope' }, request);
			expect(wrong.status, `${family} with a wrong token`).toBe(401);
		}
		ctx.sandbox.control.clearRequests();
		for (const [family, request] of await familyCalls(order)) {
			const answer = await send('postalServiceApi', data, request);
			expect(answer.status, `${family}: ${await answer.clone().text()}`).toBe(200);
		}
		const logged = ctx.sandbox.control.requests();
		expect(logged).toHaveLength(calls.length);
		for (const request of logged) {
			expect(request.query.userSecurityToken).toBe(TOKEN);
			expect(JSON.stringify({ ...request, query: {} })).not.toContain(TOKEN);
		}
	});

	// The chat credential's HTTP Basic is proven by its Test, run as n8n runs it against the sandbox: credentials.test.ts.
	it('keeps the token of both service credentials in a password field', async () => {
		for (const name of ['postalServiceApi', 'postalServiceChatApi']) {
			expect((await credentialType(name))?.properties.find((p) => p.name === 'securityToken')?.typeOptions?.password, name).toBe(true);
		}
	});
});
