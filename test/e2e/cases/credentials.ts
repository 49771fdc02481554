// Each credential's Test button, through n8n's own credential-test route.
import { describe, expect, it } from 'vitest';

import { startHttpServer } from '../../harness/httpServer';
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

		it('fails for both service credentials on a base URL that answers 200 with a web page, or redirects', async () => {
			const elsewhere = await startHttpServer((_req, res) => {
				res.setHeader('content-type', 'application/json');
				res.end('{"status":200,"status_message":"ok","data":{}}');
			});
			const page = await startHttpServer((req, res) => {
				if (req.url.startsWith('/moved')) {
					res.statusCode = 307;
					res.setHeader('location', `${elsewhere.url}${req.url}`);
					res.end();
					return;
				}
				res.setHeader('content-type', 'text/html');
				res.end('<!doctype html><title>Sign in</title>');
			});
			try {
				for (const baseUrl of [page.url, `${page.url}/moved`]) {
					const account = await testCredential('postalServiceApi', { baseUrl, securityToken: env().token });
					expect(account.status, account.message).toBe('Error');
					const chat = await testCredential('postalServiceChatApi', { baseUrl, email: env().sandbox.email, securityToken: env().token });
					expect(chat.status, chat.message).toBe('Error');
				}
				expect(elsewhere.requests).toHaveLength(0);
			} finally {
				await page.close();
				await elsewhere.close();
			}
		});

		it('passes for the webhook secret and fails for a secret that could never match', async () => {
			const good = await testCredential('postalServiceWebhookApi', { secret: env().sandbox.webhookSecret });
			expect(good.status, good.message).toBe('OK');
			const bad = await testCredential('postalServiceWebhookApi', { secret: ` ${env().sandbox.webhookSecret}\n` });
			expect(bad.status).toBe('Error');
		});
	});
}
