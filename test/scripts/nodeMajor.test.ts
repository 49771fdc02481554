/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
/**
 * scripts/node/node-major.sh, the one place a Node is fetched, on each machine the guides name: it asks
 * the registry for that machine's build, says to install Node yourself where the registry has none,
 * and sends Windows to WSL. `uname` and `npm` are stand-ins on PATH (the machine and the registry);
 * the script itself runs as it is, with a Node of another major than the one asked for.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '../..');
const work = mkdtempSync(path.join(tmpdir(), 'postal-node-major-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** What the stand-in registry serves: `node-<platform>@<major>` for these platforms only. */
const SERVED = ['linux-x64', 'linux-arm64', 'darwin-x64'];

const MACHINES = [
	{ system: 'Linux', machine: 'x86_64', platform: 'linux-x64' },
	{ system: 'Linux', machine: 'aarch64', platform: 'linux-arm64' },
	{ system: 'Darwin', machine: 'x86_64', platform: 'darwin-x64' },
	{ system: 'Darwin', machine: 'arm64', platform: 'darwin-arm64' },
	{ system: 'MINGW64_NT-10.0', machine: 'x86_64', platform: undefined },
	{ system: 'FreeBSD', machine: 'amd64', platform: undefined },
];

function standIns(dir: string, system: string, machine: string) {
	const bin = path.join(dir, 'bin');
	mkdirSync(bin, { recursive: true });
	const write = (name: string, text: string) => {
		writeFileSync(path.join(bin, name), text);
		chmodSync(path.join(bin, name), 0o755);
	};
	write('uname', `#!/bin/sh\ncase "$1" in -s) echo ${system} ;; -m) echo ${machine} ;; esac\n`);
	// `npm pack --silent node-<platform>@<major>`: records the request, then packs a tiny tarball of the served ones.
	write(
		'npm',
		`#!/bin/bash
spec="\${@: -1}"
echo "$spec" >> "${dir}/requests"
name="\${spec%@*}"
case " ${SERVED.map((p) => `node-${p}`).join(' ')} " in *" $name "*) ;; *) echo "npm error 404 $name" >&2; exit 1 ;; esac
mkdir -p pkg/package/bin && printf '#!/bin/sh\\necho fetched\\n' > pkg/package/bin/node && chmod +x pkg/package/bin/node
tar czf "$name-99.0.0.tgz" -C pkg package && rm -rf pkg
`,
	);
	return bin;
}

describe('scripts/node/node-major.sh on each machine the guides name', () => {
	// A major no machine here runs, so the script always has to fetch it.
	const major = '17';
	for (const { system, machine, platform } of MACHINES) {
		it(`${system} ${machine}: ${platform ? (SERVED.includes(platform) ? `fetches node-${platform}@${major}` : 'says to install Node yourself') : 'says where it runs'}`, () => {
			const dir = mkdtempSync(path.join(work, 'machine-'));
			const bin = standIns(dir, system, machine);
			const nodeMajor = () =>
				spawnSync('bash', [path.join(ROOT, 'scripts', 'node', 'node-major.sh'), major], {
					cwd: dir,
					env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, POSTAL_CACHE_DIR: path.join(dir, 'cache') },
					encoding: 'utf8',
				});
			const asked = path.join(dir, 'requests');
			const requests = () => (existsSync(asked) ? readFileSync(asked, 'utf8').trim().split('\n') : []);
			const result = nodeMajor();
			if (platform && SERVED.includes(platform)) {
				expect(result.status, result.stderr).toBe(0);
				expect(requests()).toEqual([`node-${platform}@${major}`]);
				const fetched = path.join(result.stdout.trim(), 'node');
				expect(fetched).toBe(path.join(dir, 'cache', `node${major}`, 'package', 'bin', 'node'));
				expect(execFileSync(fetched, { encoding: 'utf8' }).trim()).toBe('fetched');
				// Once: a second call takes the cache and asks the registry nothing.
				nodeMajor();
				expect(requests()).toHaveLength(1);
			} else if (platform) {
				expect(result.status).toBe(1);
				expect(requests()).toEqual([`node-${platform}@${major}`]);
				expect(result.stderr).toContain(`the npm registry has no Node ${major} for ${platform}`);
				expect(result.stderr).toContain(`install Node ${major} yourself`);
			} else {
				expect(result.status).toBe(1);
				expect(requests()).toEqual([]);
				expect(result.stderr).toMatch(system.startsWith('MINGW') ? /on Windows, run the project's commands inside WSL/ : /install Node 17 yourself/);
			}
		});
	}
});
