import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { defineConfig } from 'vitest/config';

// One copy of n8n-workflow for n8n-core (which requires the CommonJS build) and for our code.
const n8nWorkflow = path.resolve(path.dirname(fileURLToPath(import.meta.url)), 'node_modules/n8n-workflow/dist/cjs/index.js');

export default defineConfig({
	resolve: { alias: [{ find: /^n8n-workflow$/, replacement: n8nWorkflow }] },
	test: {
		projects: [
			{
				extends: true,
				test: {
					name: 'unit',
					globalSetup: ['test/harness/globalSetup.ts'],
					include: ['test/**/*.test.ts'],
					exclude: ['test/e2e/**', 'test/releases/**', 'node_modules/**'],
					testTimeout: 30_000,
					hookTimeout: 30_000,
				},
			},
			// The end-to-end suites, one real n8n each: one process, queue mode, and the smoke subset
			// that runs against other n8n releases (N8N_VERSION). The measurements docs quote run only
			// with POSTAL_FIGURES=1 (test/e2e/support/figures.ts), never in CI.
			...[
				{
					name: 'e2e',
					include: ['test/e2e/**/*.test.ts'],
					exclude: ['test/e2e/queue.test.ts', 'test/e2e/smoke.test.ts', ...(process.env.POSTAL_FIGURES === '1' ? [] : ['test/e2e/trigger-load.test.ts'])],
					testTimeout: 180_000,
				},
				{ name: 'e2e-queue', include: ['test/e2e/queue.test.ts'], testTimeout: 900_000 },
				{ name: 'e2e-smoke', include: ['test/e2e/smoke.test.ts'], testTimeout: 180_000 },
				{ name: 'releases', include: ['test/releases/**/*.test.ts'], globalSetup: ['test/releases/globalSetup.ts'], testTimeout: 60_000 },
			].map((project) => ({
				extends: true as const,
				test: { ...project, hookTimeout: 900_000, fileParallelism: false },
			})),
		],
	},
});
