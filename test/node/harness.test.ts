import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { runNode } from '../harness/engine';
import { startHttpServer } from '../harness/httpServer';

const TOKEN = 'harness-token-Zq81';

describe('engine harness: Account > Get Balance through WorkflowExecute', () => {
	let server: Awaited<ReturnType<typeof startHttpServer>>;

	beforeAll(async () => {
		server = await startHttpServer((req, res) => {
			res.setHeader('content-type', 'application/json');
			if (req.url === `/api/v2/balance/${TOKEN}`) {
				res.end(JSON.stringify({ status: 200, status_message: 'Sucesso', data: { balance: 42.5 } }));
			} else {
				res.statusCode = 401;
				res.end(JSON.stringify({ status: 401, status_message: 'Token inválido', data: null }));
			}
		});
	});
	afterAll(async () => await server.close());

	it('runs the node in n8n-core and returns the balance, with the token in the path', async () => {
		const result = await runNode({
			type: 'n8n-nodes-postal-service.postalService',
			parameters: { resource: 'account', operation: 'getBalance' },
			credentials: { postalServiceApi: { baseUrl: server.url, securityToken: TOKEN } },
		});
		expect(result.error).toBeUndefined();
		expect(result.items).toEqual([{ json: { balance: 42.5 }, pairedItem: { item: 0 } }]);
		expect(server.requests.at(-1)).toMatchObject({ method: 'GET', url: `/api/v2/balance/${TOKEN}` });
	});

	it('turns a 401 into an English error carrying the service message, without the token', async () => {
		const result = await runNode({
			type: 'n8n-nodes-postal-service.postalService',
			parameters: { resource: 'account', operation: 'getBalance' },
			credentials: { postalServiceApi: { baseUrl: server.url, securityToken: 'wrong-token-77' } },
		});
		expect(result.error?.message).toMatch(/check the security token/i);
		expect(result.serialized).toContain('Token inválido');
		expect(result.serialized).not.toContain('wrong-token-77');
	});
});
