/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
// The account token in no execution and in none of n8n's own logs: run last, over everything the suite made.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import type { E2eEnvironment } from '../support/environment';
import { countSecretLeaks } from '../../reliability/types';
import { expectSecretsInNoExecution } from '../support/secrets';

export function secretCases(env: () => E2eEnvironment) {
	describe('secrets', () => {
		it('the account token appears in no execution of the run, data included', async () => {
			const searched = await expectSecretsInNoExecution(env().client, [env().token]);
			expect(searched).toBeGreaterThan(5);
			console.log(`[e2e ${env().topology}] token scan: ${searched} executions, 0 hold the token`);
		});

		it("n8n's own log and event log hold no token in any encoding, HTTP Basic included", ({ skip }) => {
			const { n8n: server, token, sandbox } = env();
			if (!server) return skip('the log files of one process are read in the single topology');
			const folder = path.join(server.userFolder, '.n8n');
			const logs = [server.logFile, ...readdirSync(folder).filter((f) => f.endsWith('.log')).map((f) => path.join(folder, f))];
			for (const file of logs) {
				expect(countSecretLeaks(readFileSync(file, 'utf8'), [{ secret: token, basicUser: sandbox.email }]), path.basename(file)).toBe(0);
			}
		});
	});
}
