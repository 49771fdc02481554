/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
/**
 * scripts/dev/check-shell.sh refuses, in a script that sets pipefail, every pipe into a reader that
 * may stop reading before the writer is done (the writer then dies of SIGPIPE at random). That it
 * passes the readers that read their whole input is CI's own step: `npm run lint:shell` over .ci/run
 * and scripts/, which pipe into them. Each form is written into a script of its own.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

const folder = mkdtempSync(path.join(tmpdir(), 'postal-check-shell-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const EARLY_READERS = [
	'head -1',
	'head',
	'head -n 3',
	"grep -q 'x'",
	"grep -Eq 'x'",
	"grep -qE 'x'",
	"grep --quiet 'x'",
	"grep -m1 'x'",
	"grep -E -m 1 'x'",
	"grep --max-count=1 'x'",
	"grep -l 'x'",
	"sed 1q",
	"sed '/x/q'",
	"awk '{ print; exit }'",
];
const SETTINGS = ['set -euo pipefail', 'set -o pipefail', 'set -uo pipefail'];

/** Runs the check over one script holding `line`; true when it refuses the script. */
function refuses(name: string, setting: string, line: string): boolean {
	const file = path.join(folder, `${name}.sh`);
	writeFileSync(file, `#!/usr/bin/env bash\n${setting}\nlog=/dev/null\n${line}\n`);
	try {
		execFileSync('bash', ['scripts/dev/check-shell.sh', file], { stdio: 'pipe' });
		return false;
	} catch (error) {
		expect((error as { stderr: Buffer }).stderr.toString()).toContain('may stop early');
		return true;
	}
}

describe('scripts/dev/check-shell.sh', () => {
	for (const setting of SETTINGS) {
		for (const [index, reader] of EARLY_READERS.entries()) {
			it(`refuses "cat "$log" | ${reader}" under "${setting}"`, () => {
				expect(refuses(`early-${SETTINGS.indexOf(setting)}-${index}`, setting, `cat "$log" | ${reader}`)).toBe(true);
			});
		}
	}
	it('passes an early reader in a script without pipefail, where the writer’s SIGPIPE cannot fail the pipeline', () => {
		expect(refuses('no-pipefail', 'set -eu', 'cat "$log" | head -1')).toBe(false);
	});
});
