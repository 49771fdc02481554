// Each credential's Test button, through n8n's own credential-test route: it passes with the right
// token or secret and fails with a wrong one, without naming it. What else makes a Test fail (a web
// page, a redirect) is test/node/credentials.test.ts's, through n8n-core.
import { describe, expect, it } from 'vitest';

import type { E2eEnvironment, Scope } from '../support/environment';

/** Each credential's data with the right and a wrong token or secret; the smoke subset leaves the signing secret's Test out. */
const CASES: Array<{ type: string; smoke: boolean; data: (e: E2eEnvironment, right: boolean) => Record<string, string> }> = [
	{ type: 'postalServiceApi', smoke: true, data: (e, right) => ({ baseUrl: e.sandbox.baseUrl, securityToken: right ? e.token : 'wrong-token' }) },
	{
		type: 'postalServiceChatApi',
		smoke: true,
		data: (e, right) => ({ baseUrl: e.sandbox.baseUrl, email: e.sandbox.email, securityToken: right ? e.token : 'wrong-token' }),
	},
	// A secret with stray whitespace could never match a signature.
	{ type: 'postalServiceWebhookApi', smoke: false, data: (e, right) => ({ secret: right ? e.sandbox.webhookSecret : ` ${e.sandbox.webhookSecret}\n` }) },
];

export function credentialCases(env: () => E2eEnvironment, scope: Scope) {
	describe("each credential's Test in n8n", () => {
		for (const { type, data } of CASES.filter((c) => scope === 'full' || c.smoke)) {
			it(`${type}: passes with the right token or secret and fails with a wrong one`, async () => {
				const stored = env().credentials.find((c) => c.type === type)!;
				const test = (right: boolean) =>
					env().client.rest<{ status: string; message: string }>('POST', '/credentials/test', { credentials: { id: stored.id, name: stored.name, type, data: data(env(), right) } });
				const good = await test(true);
				expect(good.status, good.message).toBe('OK');
				const bad = await test(false);
				expect(bad.status).toBe('Error');
				// Neither the wrong token or secret nor the right one is named, for the signing secret too.
				for (const sent of [data(env(), false), data(env(), true)]) expect(bad.message).not.toContain((sent.securityToken ?? sent.secret).trim());
			});
		}
	});
}
