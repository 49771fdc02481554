/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
/**
 * Each tested n8n release's own engine, in a child process (runner.cjs) on the Node the release
 * declares, running the package built from this working copy. The list of releases is
 * scripts/engines/releases.json; their engines come from scripts/engines/install-engines.sh.
 */
import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

import { PACKAGE_NAME } from '../harness/registry';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const cache = process.env.POSTAL_CACHE_DIR ?? path.join(homedir(), '.cache', 'n8n-nodes-postal-service');

export interface Release {
	n8n: string;
	'n8n-core': string;
	'n8n-workflow': string;
}

export const RELEASES: Release[] = JSON.parse(readFileSync(path.join(root, 'scripts', 'engines', 'releases.json'), 'utf8')).releases;

/** What a runner says about itself once its engine is loaded. */
export interface EngineInfo {
	node: string;
	binaryMode: string;
	versions: { 'n8n-core': string; 'n8n-workflow': string };
	/** Where n8n-core, the package and the engine folder each find n8n-workflow. */
	resolved: { 'n8n-core': string; package: string; engine: string };
}

/** A node of a test workflow: as n8n stores it, without ids and positions. */
export interface WorkflowNode {
	name: string;
	type: string;
	parameters?: Record<string, unknown>;
	credentials?: Record<string, { id: string; name: string }>;
	id?: string;
	webhookId?: string;
	onError?: 'stopWorkflow' | 'continueRegularOutput' | 'continueErrorOutput';
	retryOnFail?: boolean;
	maxTries?: number;
	waitBetweenTries?: number;
}

export interface TestWorkflow {
	/** The same id stands for the same workflow across runs (default: a new one). */
	id?: string;
	nodes: WorkflowNode[];
	connections: Record<string, Record<string, Array<Array<{ node: string; type: string; index: number }>>>>;
	startNode: string;
}

export interface OutputItem {
	json: Record<string, unknown>;
	binary?: Record<string, unknown>;
	pairedItem?: { item: number; input?: number } | Array<{ item: number; input?: number }>;
}

export interface NodeRun {
	error?: { message: string; description?: string };
	data?: Record<string, Array<OutputItem[] | null>>;
}

export interface RunOutcome {
	status: string;
	error?: { message: string; description?: string };
	nodeRuns: Record<string, NodeRun[]>;
	/** The whole run as n8n stores it. */
	serialized: string;
}

/** What a webhook node answered, and the run it started when it started one. */
export interface DeliveryOutcome extends Partial<RunOutcome> {
	/** The HTTP status the request was answered with. */
	answered: number;
	ran: boolean;
}

export interface Engine {
	release: Release;
	info: EngineInfo;
	run(workflow: TestWorkflow, credentials: Record<string, Record<string, string>>): Promise<RunOutcome>;
	/** Hands one POST request (headers and raw body) to the workflow's webhook node, then runs what it started. */
	deliver(
		workflow: Omit<TestWorkflow, 'startNode'>,
		webhookNode: string,
		request: { headers: Record<string, string>; rawBody: Buffer },
		credentials: Record<string, Record<string, string>>,
	): Promise<DeliveryOutcome>;
	stop(): Promise<void>;
}

/**
 * Starts a runner on the release's engine with the package the run's global setup built installed in a
 * user folder of its own. `binaryMode` sets N8N_DEFAULT_BINARY_DATA_MODE; without it the release's default applies.
 */
export async function startEngine(release: Release, options: { binaryMode?: string } = {}): Promise<Engine> {
	const built = process.env.POSTAL_RELEASES_BUILD;
	if (!built) throw new Error('The package is built by test/releases/globalSetup.ts: run npm run test:releases');
	const dir = path.join(cache, `engine-${release.n8n}`);
	const stamp = path.join(dir, '.installed');
	if (!existsSync(stamp) || readFileSync(stamp, 'utf8').trim() !== `${release['n8n-core']} ${release['n8n-workflow']}`) {
		throw new Error(`The engine of n8n ${release.n8n} is not installed in ${dir}: run bash scripts/engines/install-engines.sh`);
	}
	const major = readFileSync(path.join(dir, '.node-major'), 'utf8').trim();
	const nodeBin = execFileSync('bash', [path.join(root, 'scripts', 'node', 'node-major.sh'), major], { encoding: 'utf8' }).trim();

	const userFolder = mkdtempSync(path.join(tmpdir(), `postal-releases-${release.n8n}-`));
	const installed = path.join(userFolder, '.n8n', 'nodes', 'node_modules', PACKAGE_NAME);
	mkdirSync(path.dirname(installed), { recursive: true });
	cpSync(built, installed, { recursive: true });
	// What n8n's installer leaves beside the package: its own manifest, naming it.
	writeFileSync(path.join(userFolder, '.n8n', 'nodes', 'package.json'), JSON.stringify({ name: 'installed-nodes', private: true, dependencies: { [PACKAGE_NAME]: '*' } }));

	const env: NodeJS.ProcessEnv = { ...process.env, NODE_PATH: '' };
	delete env.N8N_DEFAULT_BINARY_DATA_MODE;
	if (options.binaryMode) env.N8N_DEFAULT_BINARY_DATA_MODE = options.binaryMode;
	const child: ChildProcessWithoutNullStreams = spawn(path.join(nodeBin, 'node'), [path.join(root, 'test', 'releases', 'runner.cjs'), dir, userFolder], {
		cwd: userFolder,
		env,
	});
	let stderr = '';
	child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
	const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
	const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
	child.on('exit', (code, signal) => {
		for (const { reject } of pending.values()) reject(new Error(`the runner of n8n ${release.n8n} ended (${code ?? signal}):\n${stderr}`));
		pending.clear();
	});
	createInterface({ input: child.stdout }).on('line', (line) => {
		// Only the runner's answers; anything else a library prints is kept for the error message.
		if (!line.startsWith('{"id":')) {
			stderr += `${line}\n`;
			return;
		}
		const answer = JSON.parse(line) as { id: number; result?: unknown; error?: string };
		const waiting = pending.get(answer.id);
		pending.delete(answer.id);
		if (answer.error !== undefined) waiting?.reject(new Error(`n8n ${release.n8n}: ${answer.error}`));
		else waiting?.resolve(answer.result);
	});
	let next = 0;
	const ask = <T>(request: Record<string, unknown>) =>
		new Promise<T>((resolve, reject) => {
			const id = next++;
			pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
			child.stdin.write(`${JSON.stringify({ ...request, id })}\n`);
		});

	const info = await ask<EngineInfo>({ op: 'hello' });
	return {
		release,
		info,
		run: (workflow, credentials) => ask<RunOutcome>({ op: 'run', workflow, credentials }),
		deliver: (workflow, webhookNode, request, credentials) =>
			ask<DeliveryOutcome>({ op: 'deliver', workflow, webhookNode, request: { headers: request.headers, bodyBase64: request.rawBody.toString('base64') }, credentials }),
		async stop() {
			child.stdin.end();
			await exited;
			rmSync(userFolder, { recursive: true, force: true });
		},
	};
}
