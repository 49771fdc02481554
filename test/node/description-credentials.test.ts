/**
 * The credentials' own test requests and authentication, run by hand as n8n would run them against
 * the sandbox.
 */
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';
import { Expression } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { credentialType } from '../harness/engine';
import { EMAIL, TOKEN, useSandbox } from './fixture';

const ctx = useSandbox();

/**
 * Runs a credential's test request the way n8n would, applying its generic authenticate. n8n
 * resolves these expressions with its global context (encodeURIComponent among it); the plain
 * resolver used here has none, so the one global the credential uses is handed over.
 */
async function credentialTest(name: string, data: ICredentialDataDecryptedObject): Promise<number> {
	const type = (await credentialType(name))!;
	const resolve = (value: unknown) =>
		typeof value === 'string' && value.startsWith('=') ? String(Expression.resolveWithoutWorkflow(value.slice(1), { $credentials: data, encodeURIComponent })) : String(value);
	const request = type.test!.request;
	const headers: Record<string, string> = {};
	const auth = type.authenticate as { properties: { headers?: Record<string, string>; auth?: { username: string; password: string } } };
	for (const [key, value] of Object.entries(auth.properties.headers ?? {})) headers[key] = resolve(value);
	if (auth.properties.auth) {
		headers.authorization = `Basic ${Buffer.from(`${resolve(auth.properties.auth.username)}:${resolve(auth.properties.auth.password)}`).toString('base64')}`;
	}
	const response = await fetch(`${resolve(request.baseURL)}${resolve(request.url)}`, { method: request.method, headers });
	return response.status;
}

describe('credentials', () => {
	it('Postal Service API: the test reads the balance; authenticate sends the securityToken header', async () => {
		const base = `${ctx.sandbox.baseUrl}/`;
		expect(await credentialTest('postalServiceApi', { baseUrl: base, securityToken: TOKEN })).toBe(200);
		expect(await credentialTest('postalServiceApi', { baseUrl: base, securityToken: 'nope' })).toBe(401);
		expect(ctx.sandbox.control.requests().map((r) => r.path)).toEqual([`/api/v2/balance/${TOKEN}`, '/api/v2/balance/nope']);
		const type = await credentialType('postalServiceApi');
		expect(type?.properties.find((p) => p.name === 'securityToken')?.typeOptions?.password).toBe(true);
	});

	it('Postal Service Chat API: HTTP Basic, the test lists senders', async () => {
		const base = ctx.sandbox.baseUrl;
		expect(await credentialTest('postalServiceChatApi', { baseUrl: base, email: EMAIL, securityToken: TOKEN })).toBe(200);
		expect(await credentialTest('postalServiceChatApi', { baseUrl: base, email: EMAIL, securityToken: 'nope' })).toBe(401);
		const [request] = ctx.sandbox.control.requests({ path: '/api/chat/v1/senders/get' });
		expect(request.headers.authorization).toBe(`Basic ${Buffer.from(`${EMAIL}:${TOKEN}`).toString('base64')}`);
		const type = await credentialType('postalServiceChatApi');
		expect(type?.properties.find((p) => p.name === 'securityToken')?.typeOptions?.password).toBe(true);
	});
});
