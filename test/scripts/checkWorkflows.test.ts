/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
/**
 * scripts/release/check-workflows.mjs refuses a publish workflow that
 * could publish with a credential instead of npm's trusted publishing: every way a token reaches npm
 * in a GitHub workflow, at every level it can be set; also an npm too old for trusted publishing, a
 * direct npm publish, and a CI that no longer dry-runs the publish step. Each variant is written
 * into a folder of its own with the repository's package.json and .ci/run.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';

const ROOT = path.resolve(__dirname, '../..');
const SCRIPT = path.join(ROOT, 'scripts/release/check-workflows.mjs');
const CI = path.join(ROOT, '.github/workflows/ci.yml');
const PUBLISH = readFileSync(path.join(ROOT, '.github/workflows/publish.yml'), 'utf8');
const folder = mkdtempSync(path.join(tmpdir(), 'postal-check-workflows-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

interface Step {
	name?: string;
	uses?: string;
	run?: string;
	with?: Record<string, unknown>;
	env?: Record<string, string>;
}
interface Workflow {
	env?: Record<string, string>;
	jobs: { publish: { env?: Record<string, string>; steps: Step[] } };
}

let count = 0;
/** Runs the check over the repository's files with the publish workflow (as text) and .ci/run changed. */
function check(publishText: string, ciRun = readFileSync(path.join(ROOT, '.ci/run'), 'utf8')) {
	const dir = path.join(folder, String(count++));
	mkdirSync(path.join(dir, '.ci'), { recursive: true });
	copyFileSync(path.join(ROOT, 'package.json'), path.join(dir, 'package.json'));
	writeFileSync(path.join(dir, '.ci/run'), ciRun);
	writeFileSync(path.join(dir, 'publish.yml'), publishText);
	const result = spawnSync(process.execPath, [SCRIPT, CI, path.join(dir, 'publish.yml')], { cwd: dir, encoding: 'utf8' });
	return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

/** The publish workflow with one change made to its parsed form. */
function variant(change: (workflow: Workflow, publishStep: Step) => void): string {
	const workflow = parse(PUBLISH) as Workflow;
	const publishStep = workflow.jobs.publish.steps.find((s) => s.run?.includes('release.mjs --publish'))!;
	change(workflow, publishStep);
	return stringify(workflow);
}

const setupNode = (workflow: Workflow) => workflow.jobs.publish.steps.find((s) => s.uses?.startsWith('actions/setup-node@'))!;
const before = (workflow: Workflow, publishStep: Step, step: Step) => {
	const steps = workflow.jobs.publish.steps;
	steps.splice(steps.indexOf(publishStep), 0, step);
};

/** Every way a token reaches npm in a workflow: by name, at each level an environment can be set, in a config file or command, in an action's input. */
const TOKEN_NAMES = ['NPM_TOKEN', 'NODE_AUTH_TOKEN', 'npm_config__authToken', 'NPM_CONFIG_//registry.npmjs.org/:_authToken'];
const TOKEN_WAYS: Array<[string, (workflow: Workflow, publishStep: Step) => void]> = [
	...TOKEN_NAMES.flatMap((name): Array<[string, (workflow: Workflow, publishStep: Step) => void]> => [
		[`${name} in the workflow's env`, (w) => void (w.env = { [name]: '${{ secrets.REGISTRY }}' })],
		[`${name} in the job's env`, (w) => void (w.jobs.publish.env = { [name]: '${{ secrets.REGISTRY }}' })],
		[`${name} in the publish step's env`, (_w, p) => void (p.env = { [name]: '${{ secrets.REGISTRY }}' })],
		[`${name} exported by a step`, (w, p) => before(w, p, { run: `echo "${name}=\${{ vars.REGISTRY }}" >> "$GITHUB_ENV"` })],
	]),
	['an _authToken written to .npmrc', (w, p) => before(w, p, { run: 'echo "//registry.npmjs.org/:_authToken=$REGISTRY" > ~/.npmrc' })],
	['npm config set of an _authToken', (w, p) => before(w, p, { run: 'npm config set "//registry.npmjs.org/:_authToken" "$REGISTRY"' })],
	['a secret under another name', (_w, p) => void (p.env = { REGISTRY_KEY: '${{ secrets.PUBLISH_KEY }}' })],
	['an npm token written out', (_w, p) => void (p.env = { REGISTRY_KEY: `npm_${'a1B2'.repeat(9)}` })],
	['an npm login', (w, p) => before(w, p, { run: 'npm login --auth-type=legacy' })],
	["setup-node's registry-url", (w) => void (setupNode(w).with = { ...setupNode(w).with, 'registry-url': 'https://registry.npmjs.org' })],
	["a publishing action's token input", (w, p) => before(w, p, { uses: 'JS-DevTools/npm-publish@v3', with: { token: '${{ secrets.REGISTRY }}' } })],
];

// That it passes the repository's workflows is CI's own step (`npm run verify`); here, what it refuses.
describe('scripts/release/check-workflows.mjs', () => {
	it.each(TOKEN_WAYS)('refuses a publish workflow with %s', (_way, change) => {
		const result = check(variant(change));
		expect(result.status).toBe(1);
		expect(result.output).toMatch(/publish by trusted publishing, with no credential/);
	});

	it.each([
		['10.9.2', false],
		['11.5.0', false],
		['11.5.1', true],
		['11.19.1', true],
		['12.0.0', true],
	])('with npm %s installed before publishing: passes only from 11.5.1 on', (version, passes) => {
		const text = variant((w) => {
			const step = w.jobs.publish.steps.find((s) => s.run?.includes('npm@'))!;
			step.run = `npm install --global npm@${version}`;
		});
		const result = check(text);
		expect(result.status, result.output).toBe(passes ? 0 : 1);
		if (!passes) expect(result.output).toMatch(/npm 11\.5\.1 or later/);
	});

	it("refuses a job without npm's install step, a direct npm publish, a publish before the gate, and no id-token", () => {
		const cases: Array<[(w: Workflow, p: Step) => void, RegExp]> = [
			[(w) => void (w.jobs.publish.steps = w.jobs.publish.steps.filter((s) => !s.run?.includes('npm@'))), /npm 11\.5\.1 or later/],
			[(_w, p) => void (p.run = 'npm publish --provenance --access public'), /npm publish directly|no step that runs/],
			[(w, p) => before(w, p, { run: 'npm publish ./package.tgz --provenance --access public' }), /npm publish directly/],
			[(w, p) => {
				const steps = w.jobs.publish.steps;
				steps.splice(steps.indexOf(p), 1);
				steps.splice(2, 0, p);
			}, /must run bash \.ci\/run before publishing/],
			[(w) => void ((w.jobs.publish as unknown as { permissions: Record<string, string> }).permissions = { contents: 'read' }), /id-token: write/],
		];
		for (const [change, message] of cases) {
			const result = check(variant(change));
			expect(result.status, result.output).toBe(1);
			expect(result.output).toMatch(message);
		}
	});

	it('refuses a CI that no longer dry-runs the publish step', () => {
		const ciRun = readFileSync(path.join(ROOT, '.ci/run'), 'utf8');
		expect(ciRun).toContain('node scripts/release/release.mjs --publish --dry-run\n');
		const result = check(PUBLISH, ciRun.replace('node scripts/release/release.mjs --publish --dry-run\n', ''));
		expect(result.status).toBe(1);
		expect(result.output).toMatch(/\.ci\/run: must run node scripts\/release\/release\.mjs --publish --dry-run/);
	});
});
