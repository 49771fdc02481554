/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
// One environment per test file: started before the first case, stopped after the last, its log
// files kept and named when a case failed.
import { afterAll, beforeAll, beforeEach } from 'vitest';

import { startEnvironment, type E2eEnvironment, type Topology } from './environment';

export function useEnvironment(topology: Topology): () => E2eEnvironment {
	let env: E2eEnvironment | undefined;
	let failed = false;
	beforeAll(async () => {
		env = await startEnvironment(topology);
	});
	beforeEach(({ onTestFailed }) => onTestFailed(() => void (failed = true)));
	afterAll(async () => {
		console.log(`[e2e ${topology}] timings: ${JSON.stringify(env?.timings ?? {})}`);
		await env?.stop({ failed });
	});
	return () => {
		if (!env) throw new Error('the end-to-end environment did not start');
		return env;
	};
}
