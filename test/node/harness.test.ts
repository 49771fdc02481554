/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { runNode } from '../harness/engine';
import { startHttpServer } from '../harness/httpServer';
import { LETTER, pdfItem } from './fixture';

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

describe('engine harness: binary data', () => {
	it("keeps files in n8n's filesystem mode, as n8n 3 will: the node reads them by id, not from the item", async () => {
		const server = await startHttpServer((_req, res) => {
			res.setHeader('content-type', 'application/json');
			res.end(JSON.stringify({ status: 200, status_message: 'Sucesso - pedido aceito', data: '100001' }));
		});
		try {
			const result = await runNode({
				type: 'n8n-nodes-postal-service.postalService',
				parameters: LETTER,
				items: [await pdfItem(1)],
				credentials: { postalServiceApi: { baseUrl: server.url, securityToken: TOKEN } },
			});
			expect(result.error).toBeUndefined();
			const input = result.run.data.resultData.runData.Start?.[0]?.data?.main[0]?.[0]?.binary?.data;
			expect(input?.id).toMatch(/^filesystem(-v2)?:/);
			expect(input?.data).not.toMatch(/^JVBER/);
		} finally {
			await server.close();
		}
	});
});

