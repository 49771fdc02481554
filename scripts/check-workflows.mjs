// Parses the GitHub workflows and checks what publishing relies on, so that a broken workflow shows
// here rather than on the first tag: CI runs .ci/run with Node 20 on pushes and pull requests; the
// publish workflow runs on version tags, may obtain the OIDC token npm signs provenance with
// (id-token: write) and nothing more than reading the repository, checks the tag, runs .ci/run,
// and only then publishes with --provenance --access public through node-cli's guard; package.json
// keeps that guard and asks for provenance on any publish.
// Usage: node scripts/check-workflows.mjs [ci.yml publish.yml]  (the two workflows by default)
import { readFileSync } from 'node:fs';
import { parseDocument } from 'yaml';

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
	check(where, permissions['id-token'] === 'write', 'needs permissions id-token: write to sign provenance');
	check(where, permissions.contents === 'read', 'needs permissions contents: read');
	const extra = Object.keys(permissions).filter((p) => !['id-token', 'contents'].includes(p));
	check(where, extra.length === 0, `grants more than it needs: ${extra.join(', ')}`);

	const jobSteps = job.steps ?? [];
	const at = (predicate) => jobSteps.findIndex(predicate);
	const tagCheck = at((s) => runs(s, 'scripts/release.mjs --tag'));
	const gate = at((s) => runs(s, 'bash .ci/run'));
	const publishStep = at((s) => /\bnpm publish\b/.test(s.run ?? ''));
	check(where, publishStep !== -1, 'has no npm publish step');
	if (publishStep === -1) continue;
	const step = jobSteps[publishStep];
	check(where, /\s--provenance(\s|$)/m.test(step.run), 'npm publish must have --provenance');
	check(where, /\s--access public(\s|$)/m.test(step.run), 'npm publish must have --access public');
	check(
		where,
		/\s--ignore-scripts=false(\s|$)/m.test(step.run),
		'npm publish must run the prepublishOnly guard',
	);
	check(
		where,
		step.env?.RELEASE_MODE === 'true',
		'npm publish needs RELEASE_MODE for the guard to let it through',
	);
	check(
		where,
		/secrets\.NPM_TOKEN/.test(JSON.stringify(step.env ?? {})),
		'npm publish needs the NPM_TOKEN secret',
	);
	check(where, tagCheck !== -1 && tagCheck < publishStep, 'must check the tag before publishing');
	check(where, gate !== -1 && gate < publishStep, 'must run bash .ci/run before publishing');
}

// The two guards the publish step relies on.
const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
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
	`workflows ok: ${ciPath} runs .ci/run; ${publishPath} checks the tag, runs .ci/run, publishes with provenance`,
);
