/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
import { describe, expect, it } from 'vitest';

import { runNode } from '../harness/engine';
import { startHttpServer } from '../harness/httpServer';
import { LETTER, pdfItem } from './fixture';

// Running a node, a read and a 401 through the harness are every file's work (account.test.ts, errors.test.ts).
const TOKEN = 'harness-token-Zq81';

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

