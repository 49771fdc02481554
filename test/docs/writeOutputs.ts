/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
/**
 * `npm run docs:outputs`: runs every operation and every trigger event against a local sandbox and
 * rewrites the sections of the documentation made from them (see sections.ts).
 */
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { readDoc, ROOT, SECTIONS, writeSection } from './sections';

async function main(): Promise<void> {
	for (const { name, file, make } of SECTIONS) {
		const before = readDoc(file);
		const after = writeSection(before, await make(), name);
		if (after !== before) writeFileSync(path.join(ROOT, file), after);
		console.log(`${file}: the ${name} section ${after === before ? 'is up to date' : 'was rewritten from a real run'}`);
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
