// Parses the GitHub workflows and checks what publishing relies on, so that a broken workflow shows
// here rather than on the first tag: CI runs .ci/run with Node 20 on pushes and pull requests; the
// publish workflow runs on version tags, may obtain the OIDC token npm publishes and signs provenance
// with (id-token: write) and nothing more than reading the repository, installs npm 11.5.1 or later
// (trusted publishing), checks the tag, runs .ci/run, and only then publishes through
// `scripts/release/release.mjs --publish`, the step .ci/run runs with --dry-run. It holds no credential at
// all: no secret, no npm token in any form, no registry-url (setup-node's .npmrc reads a token), no
// npm login. package.json keeps node-cli's guard and asks for provenance on any publish.
// Usage: node scripts/release/check-workflows.mjs [ci.yml publish.yml]  (the two workflows by default)
import { readFileSync } from 'node:fs';
import { parseDocument } from 'yaml';

import { pkg } from './package.mjs';

const [ciPath, publishPath] =
	process.argv.length > 3
		? process.argv.slice(2, 4)
		: ['.github/workflows/ci.yml', '.github/workflows/publish.yml'];
const problems = [];

function load(path) {
	const doc = parseDocument(readFileSync(path, 'utf8'), { uniqueKeys: true });
	for (const issue of [...doc.errors, ...doc.warnings]) problems.push(`${path}: ${issue.message}`);
	return doc.errors.length ? {} : (doc.toJS() ?? {});
}

function check(path, condition, message) {
	if (!condition) problems.push(`${path}: ${message}`);
}

const steps = (workflow) => Object.values(workflow.jobs ?? {}).flatMap((job) => job.steps ?? []);
const runs = (step, text) => typeof step.run === 'string' && step.run.includes(text);
const usesNode20 = (workflow) =>
	steps(workflow).some(
		(s) => s.uses?.startsWith('actions/setup-node@') && String(s.with?.['node-version']) === '20',
	);

const ci = load(ciPath);
check(ciPath, ci.on && 'push' in ci.on && 'pull_request' in ci.on, 'must run on push and pull_request');
check(
	ciPath,
	steps(ci).some((s) => runs(s, 'bash .ci/run')),
	'must run bash .ci/run',
);
check(ciPath, usesNode20(ci), 'must set up Node 20, as on our CI machines');

const publish = load(publishPath);
const tags = publish.on?.push?.tags ?? [];
check(publishPath, tags.includes('v*.*.*'), "must run on pushed tags 'v*.*.*'");
check(publishPath, Object.keys(publish.on ?? {}).join() === 'push', 'must run on tag pushes only');
check(publishPath, usesNode20(publish), 'must set up Node 20, as on our CI machines');
const jobs = Object.entries(publish.jobs ?? {});
check(publishPath, jobs.length > 0, 'has no job');
for (const [name, job] of jobs) {
	const where = `${publishPath} job ${name}`;
	// Job permissions replace the workflow's; whichever applies must be exactly these two.
	const permissions = job.permissions ?? publish.permissions ?? {};
	check(where, permissions['id-token'] === 'write', 'needs permissions id-token: write to publish by trusted publishing and sign provenance');
	check(where, permissions.contents === 'read', 'needs permissions contents: read');
	const extra = Object.keys(permissions).filter((p) => !['id-token', 'contents'].includes(p));
	check(where, extra.length === 0, `grants more than it needs: ${extra.join(', ')}`);

	const jobSteps = job.steps ?? [];
	const at = (predicate) => jobSteps.findIndex(predicate);
	const tagCheck = at((s) => runs(s, 'scripts/release/release.mjs --tag'));
	const gate = at((s) => runs(s, 'bash .ci/run'));
	const publishStep = at((s) => /\bscripts\/release\/release\.mjs --publish\b/.test(s.run ?? '') && !/--dry-run/.test(s.run));
	const npmStep = at((s) => /\bnpm (?:install|i) (?:--global|-g) npm@/.test(s.run ?? ''));
	check(where, publishStep !== -1, 'has no step that runs node scripts/release/release.mjs --publish');
	check(
		where,
		!jobSteps.some((s) => /\bnpm publish\b/.test(s.run ?? '')),
		'publishes with npm publish directly: publish through scripts/release/release.mjs --publish, the step CI runs with --dry-run',
	);
	// The pinned version as one number (major, minor and patch below 1,000 each), to compare with 11.5.1.
	const [, major, minor, patch] = (/npm@(\d+)\.(\d+)\.(\d+)/.exec(jobSteps[npmStep]?.run ?? '') ?? []).map(Number);
	check(
		where,
		npmStep < publishStep && major * 1e6 + minor * 1e3 + patch >= 11_005_001,
		'must install a pinned npm 11.5.1 or later before publishing: trusted publishing needs it (Node 20 ships npm 10)',
	);
	check(where, tagCheck !== -1 && tagCheck < publishStep, 'must check the tag before publishing');
	check(where, gate !== -1 && gate < publishStep, 'must run bash .ci/run before publishing');
}

// Trusted publishing only: npm uses any credential it finds before the job's OIDC identity, and a
// token in this file would be one that expires (granular, 90 days) or no longer exists (classic).
const publishText = readFileSync(publishPath, 'utf8');
for (const [pattern, what] of [
	[/NPM_TOKEN|NODE_AUTH_TOKEN|_authToken/i, 'an npm token'],
	[/\bsecrets\./, 'a secret'],
	[/\bnpm_[A-Za-z0-9]{20,}/, 'an npm token written out'],
	[/\bnpm (?:login|adduser)\b/, 'an npm login'],
	[/registry-url\s*:/, "setup-node's registry-url (its .npmrc reads a token)"],
]) {
	const found = pattern.exec(publishText);
	check(publishPath, !found, `names ${what} (${found?.[0]}): publish by trusted publishing, with no credential`);
}

// CI proves the publish step's outcome without uploading.
check('.ci/run', /^node scripts\/release\/release\.mjs --publish --dry-run$/m.test(readFileSync('.ci/run', 'utf8')), 'must run node scripts/release/release.mjs --publish --dry-run');

// The guards against a publish from a working copy: node-cli's refuses one without RELEASE_MODE,
// provenance one from outside CI.
check(
	'package.json',
	pkg.scripts?.prepublishOnly === 'n8n-node prerelease',
	'prepublishOnly must be n8n-node prerelease',
);
check('package.json', pkg.publishConfig?.provenance === true, 'publishConfig.provenance must be true');

if (problems.length) {
	console.error(problems.join('\n'));
	process.exit(1);
}
console.log(
	`workflows ok: ${ciPath} runs .ci/run; ${publishPath} checks the tag, runs .ci/run, publishes by trusted publishing with no credential`,
);
