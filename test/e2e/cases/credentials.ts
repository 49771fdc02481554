// Each credential's Test button, through n8n's own credential-test route.
import { describe, expect, it } from 'vitest';

import type { E2eEnvironment, Scope } from '../support/environment';

export function credentialCases(env: () => E2eEnvironment, scope: Scope) {
	describe("each credential's Test in n8n", () => {
		async function testCredential(type: string, data: Record<string, unknown>) {
			const stored = env().credentials.find((c) => c.type === type)!;
			return await env().client.rest<{ status: string; message: string }>('POST', '/credentials/test', {
				credentials: { id: stored.id, name: stored.name, type, data },
			});
		}

		it('passes for the account credential and fails with a wrong token', async () => {
			const good = await testCredential('postalServiceApi', { baseUrl: env().sandbox.baseUrl, securityToken: env().token });
			expect(good.status, good.message).toBe('OK');
			const bad = await testCredential('postalServiceApi', { baseUrl: env().sandbox.baseUrl, securityToken: 'wrong-token' });
			expect(bad.status).toBe('Error');
			expect(bad.message).not.toContain('wrong-token');
		});

		it('passes for the chat credential and fails with a wrong token', async () => {
			const base = { baseUrl: env().sandbox.baseUrl, email: env().sandbox.email };
			const good = await testCredential('postalServiceChatApi', { ...base, securityToken: env().token });
			expect(good.status, good.message).toBe('OK');
			const bad = await testCredential('postalServiceChatApi', { ...base, securityToken: 'wrong-token' });
			expect(bad.status).toBe('Error');
		});

		if (scope === 'smoke') return;

		it('passes for the webhook secret and fails for a secret that could never match', async () => {
			const good = await testCredential('postalServiceWebhookApi', { secret: env().sandbox.webhookSecret });
			expect(good.status, good.message).toBe('OK');
			const bad = await testCredential('postalServiceWebhookApi', { secret: ` ${env().sandbox.webhookSecret}\n` });
			expect(bad.status).toBe('Error');
		});
	});
}
