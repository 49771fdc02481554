/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
// The account token in no execution: run last, over every execution the suite made.
import { describe, expect, it } from 'vitest';

import { listExecutions, type E2eEnvironment } from '../support/environment';

export function secretCases(env: () => E2eEnvironment) {
	describe('secrets', () => {
		it('the account token appears in no execution of the run, data included', async () => {
			const all = await listExecutions(env().client, { includeData: true });
			expect(all.length).toBeGreaterThan(5);
			for (const execution of all) {
				const text = JSON.stringify(execution);
				expect(text.includes(env().token), `execution ${execution.id} holds the token`).toBe(false);
				expect(text.includes(encodeURIComponent(env().token))).toBe(false);
			}
			console.log(`[e2e ${env().topology}] token scan: ${all.length} executions, 0 hold the token`);
		});
	});
}
