/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
// The n8n that `npm run dev` and these suites run is trusted only while it proves itself: under the
// environment `npm run` gives its scripts (the project's ignore-scripts=true among it, which once
// made the rebuild of sqlite3 build nothing and say it succeeded), a cached install whose sqlite3
// binary is gone is rebuilt, and its sqlite3 then answers a query on the release's own Node.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { cacheDir, ensureN8nInstalled, N8N_VERSION, repoRoot } from '../../scripts/dev/n8n';

/** The environment `npm run` hands a script, read from npm itself (`npm run env`). */
function npmRunEnvironment(): NodeJS.ProcessEnv {
	const printed = execFileSync('npm', ['run', 'env', '--silent'], { cwd: repoRoot, encoding: 'utf8' });
	const env: NodeJS.ProcessEnv = {};
	for (const line of printed.split('\n')) {
		const at = line.indexOf('=');
		if (at > 0) env[line.slice(0, at)] = line.slice(at + 1);
	}
	return env;
}

const scratch = mkdtempSync(path.join(tmpdir(), 'postal-n8n-cache-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('the n8n cache, under the environment npm run gives', () => {
	it('repairs a cached n8n whose sqlite3 does not load, and its sqlite3 then answers on the release\'s Node', { timeout: 900_000 }, async () => {
		const installed = await ensureN8nInstalled();
		const env = npmRunEnvironment();
		// The trap itself: without this the test would not be taking the path a newcomer's `npm run dev` takes.
		expect(env.npm_config_ignore_scripts).toBe('true');

		// A copy of the cache made of hard links (the rebuild writes new files, never into the shared ones).
		const copy = path.join(scratch, path.basename(installed));
		execFileSync('cp', ['-al', installed, copy]);
		const major = readFileSync(path.join(installed, '.node-major'), 'utf8').trim();
		const ownNode = path.join(cacheDir, `node${major}`);
		if (existsSync(ownNode)) execFileSync('cp', ['-al', ownNode, path.join(scratch, `node${major}`)]);
		rmSync(path.join(copy, 'node_modules', 'sqlite3', 'build'), { recursive: true, force: true });
		rmSync(path.join(copy, 'node_modules', 'sqlite3', 'lib', 'binding'), { recursive: true, force: true });

		const result = spawnSync('bash', [path.join(repoRoot, 'scripts', 'dev', 'install-n8n.sh')], {
			cwd: repoRoot,
			env: { ...env, N8N_VERSION, POSTAL_CACHE_DIR: scratch },
			encoding: 'utf8',
		});
		expect(result.stderr).toMatch(/fails its check \(sqlite3 does not load/);
		expect(result.stderr).toMatch(/repaired: its native addons load/);
		expect(result.status).toBe(0);
		expect(result.stdout.trim().split('\n').pop()).toBe(copy);

		const nodeBin = execFileSync('bash', [path.join(repoRoot, 'scripts', 'node', 'node-major.sh'), major], {
			env: { ...process.env, POSTAL_CACHE_DIR: scratch },
			encoding: 'utf8',
		}).trim();
		const answer = execFileSync(
			path.join(nodeBin, 'node'),
			['-e', "new (require('sqlite3').Database)(':memory:').get('select 6 * 7 as n', (e, row) => console.log(e ? e.message : row.n))"],
			{ cwd: copy, encoding: 'utf8' },
		);
		expect(answer.trim()).toBe('42');
	});
});
