/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
// What a guide's Installation section tells users to type or run, read off the page, so that the
// install cases run exactly that and a changed command changes what they run.
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { PACKAGE_NAME, repoRoot } from '../../../scripts/dev/n8n';

/** What the Installation section of a guide tells users to type or run. */
export interface InstallInstructions {
	/** What to enter in the editor's "Install a community node". */
	editorName: string;
	/** The command-line block. */
	commandLine: string;
	/** The environment block's variables, as a shell would set them. */
	environment: Record<string, string>;
	/** The command that prints the checksum. */
	checksumCommand: string;
}

/** What the environment block shows where the checksum goes. */
export const CHECKSUM_PLACEHOLDER = 'sha512-…';

/** The Installation section's instructions, as a user reads them off the page (`heading` in that guide's language). */
export function installInstructions(file: string, heading: string): InstallInstructions {
	const text = readFileSync(path.join(repoRoot, file), 'utf8');
	const start = text.indexOf(`\n## ${heading}\n`);
	if (start < 0) throw new Error(`${file} has no "## ${heading}" section`);
	const section = text.slice(start, text.indexOf('\n## ', start + 1));
	const blocks = [...section.matchAll(/```bash\n([\s\S]*?)```/g)].map(([, body]) => body.trim());
	const commandLine = blocks.find((b) => b.includes('npm install'));
	const environmentBlock = blocks.find((b) => b.includes('N8N_COMMUNITY_PACKAGES='));
	const editorName = new RegExp(`\`(${PACKAGE_NAME}@[^\`]+)\``).exec(section)?.[1];
	const checksumCommand = /`(npm view [^`]+ dist\.integrity)`/.exec(section)?.[1];
	if (!commandLine || !environmentBlock || !editorName || !checksumCommand) {
		throw new Error(`${file}, "## ${heading}": the editor's package name, the npm install block, the environment block or the checksum command is missing`);
	}
	const environment: Record<string, string> = {};
	for (const line of environmentBlock.split('\n')) {
		const [, name, value] = /^([A-Z0-9_]+)=('[^']*'|\S*)/.exec(line) ?? [];
		if (!name) throw new Error(`${file}: not a variable assignment: ${line}`);
		environment[name] = value.replace(/^'(.*)'$/, '$1');
	}
	return { editorName, commandLine, environment, checksumCommand };
}
