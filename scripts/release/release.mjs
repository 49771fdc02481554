// `npm run release`: checks that the working copy is ready to be released and prints the two
// commands that release it. It publishes nothing: npm provenance, which n8n requires of community
// packages, can only be signed by .github/workflows/publish.yml, which runs when the tag is pushed.
// That workflow calls it with `--tag <pushed tag>` to check the tag names package.json's version,
// and with `--publish` to publish; .ci/run calls `--publish --dry-run`, the same but the upload.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { built, pack, pkg } from './package.mjs';
import { brokenPromises, readRecords, RECORD_FILE, recordsOf } from './releasedParameters.mjs';

const { name, version, n8n } = pkg;
const tag = `v${version}`;
const problems = [];

if (process.argv.includes('--publish')) {
	publish(process.argv.includes('--dry-run'));
	process.exit(0);
}

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
	// Every node version and credential about to be released is recorded, and none breaks its record.
	if (!built()) {
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

function stop(message) {
	console.error(`release ${tag}: ${message}`);
	process.exit(1);
}

/**
 * Packs the built package and publishes that tarball with provenance and public access, checking
 * that npm took exactly the packed bytes. For real only in the publish workflow, with no npm
 * credential: npm's trusted publishing then authenticates with the job's OIDC identity. With
 * `dryRun` npm does everything but the upload, the registry's checks included (a version already
 * published, a higher version holding `latest`).
 */
function publish(dryRun) {
	if (!built()) stop('dist/ is missing or incomplete: run npm run build first');
	if (!dryRun) {
		if (process.env.GITHUB_ACTIONS !== 'true' || !process.env.ACTIONS_ID_TOKEN_REQUEST_URL) {
			stop('publishes only from .github/workflows/publish.yml, whose id-token: write lets npm publish by trusted publishing and sign the provenance');
		}
		// A credential would be used instead of the job's identity: none may be configured.
		const credentials = Object.keys(process.env).filter((key) => /^(NPM_TOKEN|NODE_AUTH_TOKEN)$|_authToken$/i.test(key));
		const whoami = spawnSync('npm', ['whoami'], { encoding: 'utf8' });
		if (credentials.length || whoami.status === 0 || !/ENEEDAUTH/.test(whoami.stderr)) {
			stop(`npm has a credential here (${credentials.join(', ') || 'npm whoami answers'}): publishing uses trusted publishing only`);
		}
	}
	const work = mkdtempSync(path.join(tmpdir(), 'release-'));
	try {
		const tarball = pack(work);
		const integrity = `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`;
		const args = ['publish', tarball, '--provenance', '--access', 'public', '--json', ...(dryRun ? ['--dry-run'] : [])];
		console.log(`release ${tag}: npm ${args.join(' ')}`);
		const result = spawnSync('npm', args, { encoding: 'utf8' });
		if (result.status !== 0) {
			const output = `${result.stdout}\n${result.stderr}`;
			// Every commit after a release runs this until the version is raised: nothing to release then.
			if (dryRun && /cannot publish over the previously published versions/.test(output)) {
				console.log(`release ${tag}: ${name}@${version} is published already; raise the version to release again`);
				return;
			}
			stop(`npm publish${dryRun ? ' --dry-run' : ''} failed:\n${output.trim().slice(-3000)}`);
		}
		const report = JSON.parse(result.stdout);
		const published = report[name] ?? report;
		if (published.id !== `${name}@${version}` || published.integrity !== integrity) {
			stop(`npm ${dryRun ? 'would publish' : 'published'} ${published.id} (${published.integrity}), not the packed ${name}@${version} (${integrity})`);
		}
		console.log(
			`release ${tag}: ${dryRun ? 'would publish' : 'published'} ${published.id}, ${published.files.length} files, ${published.size} bytes, ${integrity} (--provenance, public access)`,
		);
	} finally {
		rmSync(work, { recursive: true, force: true });
	}
}
