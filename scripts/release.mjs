// `npm run release`: checks that the working copy is ready to be released and prints the two
// commands that release it. It publishes nothing: npm provenance, which n8n requires of community
// packages, can only be signed by .github/workflows/publish.yml, which runs when the tag is pushed.
// That workflow calls it with `--tag <pushed tag>` to check the tag names package.json's version.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

import { brokenPromises, readRecords, RECORD_FILE, recordsOf } from './releasedParameters.mjs';

const { version } = JSON.parse(readFileSync('package.json', 'utf8'));
const tag = `v${version}`;
const problems = [];

// The workflow publishes to the `latest` dist-tag, which npm refuses for pre-release versions.
if (!/^\d+\.\d+\.\d+$/.test(version)) problems.push(`version ${version} is not a plain x.y.z release`);
const changelog = readFileSync('CHANGELOG.md', 'utf8');
const escaped = version.replaceAll('.', '\\.');
if (!new RegExp(`^## \\[${escaped}\\] - \\d{4}-\\d{2}-\\d{2}$`, 'm').test(changelog)) {
	problems.push(`CHANGELOG.md has no dated section "## [${version}] - YYYY-MM-DD"`);
}

const tagIndex = process.argv.indexOf('--tag');
if (tagIndex !== -1) {
	const pushed = process.argv[tagIndex + 1];
	if (pushed !== tag) problems.push(`the tag ${pushed} does not name package.json's version (${tag})`);
} else {
	const git = (...args) => execFileSync('git', args, { encoding: 'utf8' }).trim();
	if (git('status', '--porcelain')) problems.push('the working copy has uncommitted changes');
	if (git('tag', '--list', tag)) problems.push(`the tag ${tag} exists already: raise the version`);
}

// Every node version and credential about to be released is recorded, and none breaks its record.
if (tagIndex === -1) {
	const { n8n } = JSON.parse(readFileSync('package.json', 'utf8'));
	if (![...n8n.nodes, ...n8n.credentials].every((file) => existsSync(file))) {
		problems.push('dist/ is missing or incomplete: run npm run build first');
	} else {
		const require = createRequire(import.meta.url);
		const instances = (files) => files.flatMap((file) => Object.values(require(path.resolve(file))).map((Class) => new Class()));
		const current = recordsOf(instances(n8n.nodes), instances(n8n.credentials));
		const released = readRecords();
		for (const [key, record] of Object.entries(released)) {
			if (current[key]) for (const problem of brokenPromises(record, current[key], `${key}: `)) problems.push(`${problem} since its release: add a node version instead`);
		}
		const missing = Object.keys(current).filter((key) => !released[key]);
		if (process.argv.includes('--record-parameters')) {
			mkdirSync(path.dirname(RECORD_FILE), { recursive: true });
			writeFileSync(RECORD_FILE, `${JSON.stringify({ ...released, ...Object.fromEntries(missing.map((key) => [key, current[key]])) }, null, '\t')}\n`);
			console.log(`release ${tag}: recorded ${missing.length ? missing.join(', ') : 'nothing new'} in ${path.relative('.', RECORD_FILE)}; commit it`);
		} else if (missing.length) {
			problems.push(`not recorded as released: ${missing.join(', ')} (npm run release -- --record-parameters, then commit ${path.relative('.', RECORD_FILE)})`);
		}
	}
}

if (problems.length) {
	console.error(`release ${tag}: not ready\n  ${problems.join('\n  ')}`);
	process.exit(1);
}
if (tagIndex !== -1) {
	console.log(`release ${tag}: the tag names package.json's version`);
} else {
	console.log(`release ${tag}: ready. To publish, tag this commit and push the tag:
  git tag -a ${tag} -m ${tag}
  git push origin ${tag}
The publish workflow then runs .ci/run and publishes with provenance.`);
}
