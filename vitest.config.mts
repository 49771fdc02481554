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
					exclude: ['test/e2e/**', 'node_modules/**'],
					testTimeout: 30_000,
					hookTimeout: 30_000,
				},
			},
			{
				extends: true,
				test: {
					name: 'e2e',
					include: ['test/e2e/**/*.test.ts'],
					testTimeout: 180_000,
					hookTimeout: 900_000,
					fileParallelism: false,
				},
			},
		],
	},
});
