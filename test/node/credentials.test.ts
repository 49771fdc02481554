/**
 * Each credential's Test run as n8n runs it (its request through n8n-core's RoutingNode, then its
 * rules): it passes against the service and fails against anything else that answers 200.
 */
import { describe, expect, it } from 'vitest';

import { runCredentialTest } from '../harness/engine';
import { EMAIL, TOKEN, useFakeService, useSandbox } from './fixture';

const ctx = useSandbox();
const notTheService = useFakeService();

const CASES: Array<[string, (baseUrl: string, token: string) => Record<string, string>]> = [
	['postalServiceApi', (baseUrl, securityToken) => ({ baseUrl, securityToken })],
	['postalServiceChatApi', (baseUrl, securityToken) => ({ baseUrl, email: EMAIL, securityToken })],
];

describe.each(CASES)('%s test', (type, data) => {
	it('passes against the service and fails with a wrong token', async () => {
		expect(await runCredentialTest(type, data(ctx.sandbox.baseUrl, TOKEN))).toMatchObject({ status: 'OK' });
		const wrong = await runCredentialTest(type, data(ctx.sandbox.baseUrl, 'wrong-token'));
		expect(wrong).toMatchObject({ status: 'Error' });
		// The failure names the fields to check, as the panel shows them.
		expect(wrong.message).toMatch(/HTTP 401\). Check .*"Security Token", and that "Base URL" is the environment/);
		if (type === 'postalServiceChatApi') expect(wrong.message).toContain('"Account E-Mail"');
	});

	it('names what to check when the base URL has no such route', async () => {
		const result = await runCredentialTest(type, data(`${ctx.sandbox.baseUrl}/nowhere`, TOKEN));
		expect(result).toMatchObject({ status: 'Error', message: expect.stringMatching(/"Base URL" has no such route/) });
	});

	it.each([
		['429', /Check .*"Security Token", wait a few minutes/],
		['503', /maintenance window/],
	] as const)('names what to check when the service answers %s', async (kind, says) => {
		ctx.sandbox.control.injectFault({ path: '/api/', kind, count: 1 });
		const result = await runCredentialTest(type, data(ctx.sandbox.baseUrl, TOKEN));
		expect(result).toMatchObject({ status: 'Error', message: expect.stringMatching(says) });
	});

	it.each([
		['a web page', 'text/html', '<!doctype html><title>Panel</title><h1>Welcome</h1>'],
		['an empty body', 'application/json', ''],
		['JSON of another API', 'application/json', '{"ok":true,"data":[]}'],
		['an envelope without data', 'application/json', '{"status":200,"status_message":"Sucesso","data":null}'],
	])('fails on a base URL that answers 200 with %s', async (_label, contentType, body) => {
		Object.assign(notTheService.answer, { type: contentType, body });
		const result = await runCredentialTest(type, data(notTheService.baseUrl, TOKEN));
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/"Base URL"/);
	});

	it('fails on a redirect, and sends nothing to its target', async () => {
		notTheService.answer.body = '{"status":200,"status_message":"Sucesso","data":{}}';
		ctx.sandbox.control.injectFault({ path: '/api/', kind: 'redirect', status: 307, location: `${notTheService.baseUrl}/api/` });
		const result = await runCredentialTest(type, data(ctx.sandbox.baseUrl, TOKEN));
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/"Base URL" answered with a redirect \(HTTP 307\)/);
		expect(notTheService.requests).toHaveLength(0);
	});
});
