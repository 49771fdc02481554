// `npm run release`: checks that the working copy is ready to be released and prints the two
// commands that release it. It publishes nothing: npm provenance, which n8n requires of community
// packages, can only be signed by .github/workflows/publish.yml, which runs when the tag is pushed.
// That workflow calls it with `--tag <pushed tag>` to check the tag names package.json's version.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

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
