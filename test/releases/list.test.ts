/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
/**
 * scripts/engines/releases.json is the one list of tested n8n releases: the range package.json states, the
 * release the other suites pin, the engine the unit suite runs and docs/compatibility.md follow it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { RELEASES } from './engine';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
const pkg = JSON.parse(read('package.json'));
const oldest = RELEASES[0];
const newest = RELEASES[RELEASES.length - 1];

describe('the tested releases, from scripts/engines/releases.json', () => {
	it('are listed oldest first', () => {
		const key = (version: string) => version.split('.').map(Number).reduce((sum, part) => sum * 1000 + part, 0);
		expect(RELEASES.map((r) => r.n8n)).toEqual([...RELEASES].sort((a, b) => key(a.n8n) - key(b.n8n)).map((r) => r.n8n));
	});

	it("bound package.json's supportedVersions", () => {
		expect(pkg.n8n.supportedVersions).toBe(`>=${oldest.n8n} <=${newest.n8n}`);
	});

	it('the newest is the release the other suites pin, and its engine the one the unit suite runs', () => {
		expect(read('scripts/dev/install-n8n.sh')).toContain(`N8N_VERSION="\${N8N_VERSION:-${newest.n8n}}"`);
		expect(read('scripts/dev/common.ts')).toContain(`process.env.N8N_VERSION ?? '${newest.n8n}'`);
		expect(pkg.devDependencies['n8n-core']).toBe(newest['n8n-core']);
		expect(pkg.devDependencies['n8n-workflow']).toBe(newest['n8n-workflow']);
	});

	it('are the columns of the table in docs/compatibility.md, and its first line', () => {
		const page = read('docs/compatibility.md');
		const header = page.split('\n').find((line) => line.startsWith('| Behaviour the package relies on |'));
		expect(header?.split('|').map((cell) => cell.trim()).slice(2, -2)).toEqual(RELEASES.map((r) => r.n8n));
		const names = RELEASES.map((r) => r.n8n);
		const first = page.split('\n').find((line) => line.startsWith('**Tested:'));
		for (const name of names) expect(first).toContain(name);
	});
});
