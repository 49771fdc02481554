/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
// The account token in no execution: run last, over every execution the suite made.
import { describe, expect, it } from 'vitest';

import type { E2eEnvironment } from '../support/environment';
import { expectSecretsInNoExecution } from '../support/secrets';

export function secretCases(env: () => E2eEnvironment) {
	describe('secrets', () => {
		it('the account token appears in no execution of the run, data included', async () => {
			const searched = await expectSecretsInNoExecution(env().client, [env().token]);
			expect(searched).toBeGreaterThan(5);
			console.log(`[e2e ${env().topology}] token scan: ${searched} executions, 0 hold the token`);
		});
	});
}
