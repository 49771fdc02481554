/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
// Each install path the README gives, run from the packed tarball as a user runs it, each into a
// fresh n8n: the editor's "Install a community node" (the REST call the editor makes), the
// command-line install (the README's command, in a fresh home), and the environment install. The
// package comes from the stand-in for the public registry (scripts/queue/registry.ts). After each the
// nodes must work: types listed, a credential tested, a letter sent against the sandbox, with no
// second n8n-workflow beside the package.
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { buildAndPack, ensureN8nInstalled, HttpError, N8nClient, N8nServer, PACKAGE_NAME, repoRoot, run } from '../../../scripts/dev/n8n';
import { StandInRegistry, type ServedPackage } from '../../../scripts/queue/registry';
import { LETTER } from '../../harness/sends';
import { activateWorkflow, createWorkflow, upsertCredential, waitForWebhook, type WorkflowFile } from '../../../scripts/dev/workflows';
import { settledExecutions, type E2eEnvironment } from '../support/environment';
import { expectSecretsInNoExecution } from '../support/secrets';
import { pdfOfSize } from '../support/service';
import { LOADED, nodeType } from './package';

/** A fresh n8n can take minutes to start on a loaded machine; each case starts one or two. */
const CASE_TIMEOUT_MS = 600_000;

/** What the environment block shows where the checksum goes. */
const CHECKSUM_PLACEHOLDER = 'sha512-…';

/**
 * What a guide's Installation section (`heading` in its language) tells users to type or run, read
 * off the page so that the cases run exactly that: the name to enter in the editor's "Install a
 * community node", the command-line block, the environment block's variables as a shell sets them,
 * and the command that prints the checksum.
 */
function installInstructions(file: string, heading: string) {
	const text = readFileSync(path.join(repoRoot, file), 'utf8');
	const start = text.indexOf(`\n## ${heading}\n`);
	if (start < 0) throw new Error(`${file} has no "## ${heading}" section`);
	const section = text.slice(start, text.indexOf('\n## ', start + 1));
	const blocks = [...section.matchAll(/```bash\n([\s\S]*?)```/g)].map(([, body]) => body.trim());
	const commandLine = blocks.find((b) => b.includes('npm install'));
	const environmentBlock = blocks.find((b) => b.includes('N8N_COMMUNITY_PACKAGES='));
	const editorName = new RegExp(`\`(${PACKAGE_NAME}@[^\`]+)\``).exec(section)?.[1];
	const checksumCommand = /`(npm view [^`]+ dist\.integrity)`/.exec(section)?.[1];
	if (!commandLine || !environmentBlock || !editorName || !checksumCommand) {
		throw new Error(`${file}, "## ${heading}": the editor's package name, the npm install block, the environment block or the checksum command is missing`);
	}
	const environment: Record<string, string> = {};
	for (const line of environmentBlock.split('\n')) {
		const [, name, value] = /^([A-Z0-9_]+)=('[^']*'|\S*)/.exec(line) ?? [];
		if (!name) throw new Error(`${file}: not a variable assignment: ${line}`);
		environment[name] = value.replace(/^'(.*)'$/, '$1');
	}
	return { editorName, commandLine, environment, checksumCommand };
}

/** Every folder named n8n-workflow under a folder (n8n's community packages live in `.n8n/nodes`). */
function n8nWorkflowCopies(dir: string): string[] {
	if (!existsSync(dir)) return [];
	return readdirSync(dir, { recursive: true, withFileTypes: true })
		.filter((entry) => entry.isDirectory() && entry.name === 'n8n-workflow')
		.map((entry) => path.join(entry.parentPath, entry.name));
}

export function installCases(env: () => E2eEnvironment) {
	describe('each install path the README gives, from the packed tarball', () => {
		const readme = installInstructions('README.md', 'Installation');
		let work: string;
		let n8nDir: string;
		let registry: StandInRegistry;
		let served: ServedPackage;
		const running: N8nServer[] = [];
		let failed = false;

		beforeAll(async () => {
			work = mkdtempSync(path.join(tmpdir(), 'postal-install-'));
			n8nDir = await ensureN8nInstalled();
			// The suite's environment built dist/ already.
			const tarball = await buildAndPack(path.join(work, 'pack'), { build: false });
			registry = new StandInRegistry(path.join(work, 'registry'));
			served = await registry.serve(tarball);
			await registry.start();
		});

		beforeEach(({ onTestFailed }) => onTestFailed(() => void (failed = true)));
		afterAll(async () => {
			await Promise.allSettled(running.map((server) => server.stop()));
			await registry?.stop();
			if (failed || process.env.POSTAL_E2E_KEEP) console.log(`[e2e install] kept ${work}`);
			else if (work) rmSync(work, { recursive: true, force: true });
		});

		/** A fresh home folder, as a new machine's. */
		const home = (name: string) => {
			const dir = path.join(work, `home-${name}`);
			mkdirSync(dir, { recursive: true });
			return dir;
		};
		/** What a process that installs from the stand-in needs: the registry, and an npm cache of its home's own. */
		const fromRegistry = (dir: string): NodeJS.ProcessEnv => ({ ...registry.environment(), npm_config_cache: path.join(dir, '.npm') });

		/** Starts n8n on a home folder (its `.n8n` inside), signs the owner in; stops the previous n8n on that folder. */
		async function startN8n(name: string, dir: string, settings: NodeJS.ProcessEnv) {
			const server = new N8nServer(n8nDir, { userFolder: dir, name, env: { HOME: dir, ...settings } });
			running.push(server);
			const seconds = await server.start();
			console.log(`[e2e install] ${name}: n8n started in ${seconds.toFixed(1)} s`);
			const client = new N8nClient(server.baseUrl);
			await client.signIn();
			await client.createApiKey();
			return { server, client };
		}

		async function typeNames(client: N8nClient, route: string): Promise<string[]> {
			const response = await fetch(`${client.baseUrl}${route}`, { headers: { cookie: client.cookie } });
			expect(response.status, route).toBe(200);
			return ((await response.json()) as Array<{ name: string }>).map((t) => t.name);
		}

		/**
		 * The nodes work: listed with their credentials, the account credential passes its Test, and a
		 * workflow's Send letter sends one letter. (Its error output on every release is proven by
		 * test/releases/errorOutput.test.ts.)
		 */
		async function nodesWork(client: N8nClient, dir: string, label: string) {
			for (const [route, names] of Object.entries(LOADED)) expect(await typeNames(client, route), route).toEqual(expect.arrayContaining(names));
			// None beside the package: the nodes get n8n's own, which n8n's loader puts on Node's search path.
			expect(n8nWorkflowCopies(path.join(dir, '.n8n', 'nodes'))).toEqual([]);

			const { sandbox, token } = env();
			const data = { baseUrl: sandbox.baseUrl, securityToken: token };
			const credential = await upsertCredential(client, { name: 'Postal Service account', type: 'postalServiceApi', data });
			const tested = await client.rest<{ status: string; message: string }>('POST', '/credentials/test', { credentials: { ...credential, data } });
			expect(tested.status, tested.message).toBe('OK');

			// n8n's Webhook node takes its path as the whole path: /webhook/<path>.
			const webhookPath = `install-${label}-${randomUUID()}`;
			const tag = `install-${label}-${randomUUID().slice(0, 8)}`;
			const workflow: WorkflowFile = {
				name: `Install path ${label}: one letter`,
				nodes: [
					{ id: randomUUID(), name: 'Letter', type: 'n8n-nodes-base.webhook', typeVersion: 2, position: [0, 0], webhookId: randomUUID(), parameters: { httpMethod: 'POST', path: webhookPath, responseMode: 'lastNode', options: {} } },
					{
						id: randomUUID(),
						name: 'Send letter',
						type: nodeType('postalService'),
						typeVersion: 1,
						position: [240, 0],
						parameters: { ...LETTER, pdfSource: 'base64', pdfBase64: '={{ $json.body.pdf }}', tag },
						credentials: { postalServiceApi: { id: credential.id, name: credential.name } },
					},
				],
				connections: { Letter: { main: [[{ node: 'Send letter', type: 'main', index: 0 }]] } },
			};
			const { id } = await createWorkflow(client, workflow, [credential]);
			await activateWorkflow(client, id);
			const url = `${client.baseUrl}/webhook/${webhookPath}`;
			await waitForWebhook(url);

			const pdf = (await pdfOfSize(0, `Install path ${label}`)).toString('base64');
			const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ pdf }) });
			expect(response.status, await response.clone().text()).toBe(200);
			const executions = await settledExecutions(client, id, { minimum: 1 });
			expect(executions.map((e) => e.status)).toEqual(['success']);
			expect(await expectSecretsInNoExecution(client, [token], { workflowIds: [id] })).toBe(1);
			// The letter reached the service once.
			expect(sandbox.control.orders().filter((o) => o.kind === 'letter' && o.tag === tag)).toHaveLength(1);
			// Not activated again when this n8n restarts (each n8n here is thrown away with its folder).
			await client.api('POST', `/workflows/${id}/deactivate`);
		}

		it('the editor\'s "Install a community node" installs the pinned version from the registry, and the nodes work', { timeout: CASE_TIMEOUT_MS }, async () => {
			const dir = home('editor');
			const { server, client } = await startN8n('editor', dir, fromRegistry(dir));
			// What the editor sends for the name the user typed.
			const installed = await client.rest<{ packageName: string; installedVersion: string; installedNodes: unknown[] }>('POST', '/community-packages', { name: readme.editorName });
			expect(readme.editorName).toBe(`${served.name}@${served.version}`);
			expect({ name: installed.packageName, version: installed.installedVersion }).toEqual({ name: served.name, version: served.version });
			expect(installed.installedNodes.length).toBeGreaterThan(0);
			await nodesWork(client, dir, 'editor');

			// What the README warns of: managed by the environment, a package installed in the editor that
			// the list does not name is uninstalled at start, and the page refuses changes.
			await server.stop();
			const managed = await startN8n('editor-managed-by-env', dir, { ...fromRegistry(dir), N8N_COMMUNITY_PACKAGES_MANAGED_BY_ENV: 'true', N8N_COMMUNITY_PACKAGES: '[]' });
			expect(managed.server.recentOutput).toContain(`Removed community package '${PACKAGE_NAME}'`);
			expect(existsSync(path.join(dir, '.n8n', 'nodes', 'node_modules', PACKAGE_NAME))).toBe(false);
			expect(await typeNames(managed.client, '/types/nodes.json')).not.toContain(nodeType('postalService'));
			const refused = await managed.client.rest('POST', '/community-packages', { name: readme.editorName }).catch((error: unknown) => error);
			expect(refused).toBeInstanceOf(HttpError);
			expect((refused as HttpError).status).toBe(400);
			expect((refused as HttpError).message).toContain('managed via environment variables');
		});

		it("the README's command line installs the package alone into a fresh home, and n8n started on it runs the nodes on its own n8n-workflow", { timeout: CASE_TIMEOUT_MS }, async () => {
			const dir = home('command-line');
			// The README's block as a user's shell runs it: `~` is this home, npm's only settings lead to the stand-in.
			const shell = { PATH: process.env.PATH, HOME: dir, ...fromRegistry(dir) };
			// A required peer would make npm fetch n8n-workflow, which the stand-in does not have (E404).
			const output = await run('bash', ['-euo', 'pipefail', '-c', readme.commandLine], { cwd: dir, env: shell });
			expect(output).toMatch(/added 1 package\b/);
			expect(readme.commandLine).toContain(`npm install ${served.name}@${served.version}`);
			const manifest = JSON.parse(readFileSync(path.join(dir, '.n8n', 'nodes', 'node_modules', PACKAGE_NAME, 'package.json'), 'utf8')) as { version: string };
			expect(manifest.version).toBe(served.version);
			// npm looks the optional peer up (the stand-in has none) but takes nothing from the registry but this package.
			const served200 = [...registry.counts.keys()].filter((request) => request.endsWith(' 200'));
			expect(served200.filter((request) => !request.startsWith(`GET /${served.name}`))).toEqual([]);
			const { client } = await startN8n('command-line', dir, {});
			await nodesWork(client, dir, 'command-line');
		});

		it('the environment install: a wrong checksum is refused and named in the log, the one `npm view` prints installs the package, and the nodes work', { timeout: CASE_TIMEOUT_MS }, async () => {
			const dir = home('environment');
			const packages = readme.environment.N8N_COMMUNITY_PACKAGES;
			expect(packages).toContain(`"name":"${served.name}","version":"${served.version}","checksum":"${CHECKSUM_PLACEHOLDER}"`);
			const checksum = (await run('bash', ['-euo', 'pipefail', '-c', readme.checksumCommand], { cwd: dir, env: { PATH: process.env.PATH, HOME: dir, ...fromRegistry(dir) } })).trim();
			expect(checksum).toBe(served.integrity);
			const settings = (value: string) => ({ ...fromRegistry(dir), ...readme.environment, N8N_COMMUNITY_PACKAGES: packages.replace(CHECKSUM_PLACEHOLDER, value) });

			// A checksum of the same form that is not this version's, as after changing only the version.
			const other = `sha512-${Buffer.from(checksum.slice(7), 'base64').reverse().toString('base64')}`;
			const wrong = await startN8n('environment-wrong-checksum', dir, settings(other));
			// n8n's "Checksum verification failed"; 2.41.1 rewords it while falling back to its second look-up.
			expect(wrong.server.loadProblem).toMatch(/Checksum verification failed|Failed to verify package checksum/);
			expect(await typeNames(wrong.client, '/types/nodes.json')).not.toContain(nodeType('postalService'));
			await wrong.server.stop();

			const { client } = await startN8n('environment', dir, settings(checksum));
			expect(await typeNames(client, '/types/nodes.json')).toContain(nodeType('postalService'));
			await nodesWork(client, dir, 'environment');
		});

		it('the Portuguese guide gives the same commands', () => {
			expect(installInstructions('docs/pt-BR/README.md', 'Instalação')).toEqual(readme);
		});
	});
}
