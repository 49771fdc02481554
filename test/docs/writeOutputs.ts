/**
 * `npm run docs:outputs`: runs every read operation against a local sandbox and rewrites the
 * README's "Outputs" section from what the node returned (see outputs.ts).
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { outputsSection, writeSection } from './outputs';

const readmePath = path.resolve(__dirname, '../../README.md');

async function main(): Promise<void> {
	const before = readFileSync(readmePath, 'utf8');
	const after = writeSection(before, await outputsSection());
	if (after === before) {
		console.log('README.md: the Outputs section is up to date');
	} else {
		writeFileSync(readmePath, after);
		console.log('README.md: the Outputs section was rewritten from a real run');
	}
}

main()
	.catch((error: unknown) => {
		console.error(error);
		process.exitCode = 1;
	})
	.finally(() => {
		// The engine harness keeps n8n's user folder in a temporary folder of its own: remove it.
		const folder = process.env.N8N_USER_FOLDER;
		if (folder?.includes('postal-harness-')) rmSync(folder, { recursive: true, force: true });
	});
