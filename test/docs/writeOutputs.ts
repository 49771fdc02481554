/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
/**
 * `npm run docs:outputs`: runs every operation and every trigger event against a local sandbox and
 * rewrites the sections of the documentation made from them (see sections.ts).
 */
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { assumptionsSection } from './assumptions';
import { eventsSection } from './events';
import { outputsSection } from './outputs';
import { routesSection } from './routes';
import { ASSUMPTIONS_SECTION, EVENTS, OUTPUTS, readDoc, ROOT, ROUTES_SECTION, writeSection, type Section } from './sections';

async function rewrite(section: Section, made: string): Promise<void> {
	for (const file of section.files) {
		const before = readDoc(file);
		const after = writeSection(before, made, section.name);
		if (after === before) {
			console.log(`${file}: the ${section.name} section is up to date`);
		} else {
			writeFileSync(path.join(ROOT, file), after);
			console.log(`${file}: the ${section.name} section was rewritten from a real run`);
		}
	}
}

async function main(): Promise<void> {
	await rewrite(OUTPUTS, await outputsSection());
	await rewrite(EVENTS, await eventsSection());
	await rewrite(ASSUMPTIONS_SECTION, assumptionsSection());
	await rewrite(ROUTES_SECTION, await routesSection());
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
