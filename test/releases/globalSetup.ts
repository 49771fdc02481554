/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * The package as `npm run build` compiles it (its JavaScript and package.json; the icons do not
 * run), from this working copy's sources, into a folder of its own, once for every file of the run:
 * a test never runs a stale dist/.
 */
export default function setup() {
	const dir = mkdtempSync(path.join(tmpdir(), 'postal-releases-build-'));
	// As `npm run build` makes it: compiled, then each entry bundled into its one file.
	execFileSync(path.join(root, 'node_modules', '.bin', 'tsc'), ['-p', path.join(root, 'tsconfig.build.json'), '--outDir', path.join(dir, 'dist')], {
		cwd: root,
		stdio: ['ignore', 'inherit', 'inherit'],
	});
	execFileSync(process.execPath, [path.join(root, 'scripts', 'release', 'bundle-dist.mjs'), path.join(dir, 'dist')], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
	cpSync(path.join(root, 'package.json'), path.join(dir, 'package.json'));
	process.env.POSTAL_RELEASES_BUILD = dir;
	return () => rmSync(dir, { recursive: true, force: true });
}
