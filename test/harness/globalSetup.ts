/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * One throw-away n8n user folder for the whole run (n8n-core writes its config and, in filesystem
 * mode, binary data there), set before any test worker starts and removed at the end.
 */
export default function setup() {
	const folder = mkdtempSync(path.join(tmpdir(), 'postal-harness-'));
	process.env.N8N_USER_FOLDER = folder;
	// n8n's logger prints every node error the tests provoke on purpose; N8N_LOG_LEVEL=debug shows them.
	process.env.N8N_LOG_LEVEL ??= 'silent';
	return () => rmSync(folder, { recursive: true, force: true });
}
