/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
// One real n8n (the packed package installed as users get it) and one sandbox for a whole suite,
// in either topology: one n8n process on SQLite, or n8n's queue mode (PostgreSQL, Redis, a main
// process, a worker and two webhook processors behind a load balancer). The suite's cases talk to
// the editor URL for the APIs and send deliveries to the webhook URL; they run the same in both.
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { IBinaryData } from 'n8n-workflow';

import { startSandbox, type Sandbox } from '../../../sandbox';
import { startBalancer, type Balancer } from '../../../scripts/queue/balancer';
import { prepareN8n, sleep, type N8nClient, type N8nServer } from '../../../scripts/dev/n8n';
import { prepareQueueN8n, type QueueTopology } from '../../../scripts/queue/queue';
import { upsertCredential, type StoredCredential } from '../../../scripts/dev/workflows';
import { FIGURES } from './figures';

export type Topology = 'single' | 'queue';

export interface E2eEnvironment {
	topology: Topology;
	sandbox: Sandbox;
	client: N8nClient;
	credentials: StoredCredential[];
	/** The editor and the APIs (the main process in queue mode). */
	editorUrl: string;
	/** Where production webhooks are called: the n8n process, or the balancer in front of the webhook processors. */
	webhookUrl: string;
	/** Every process that takes production webhooks, by its own URL. */
	receivers: string[];
	/** The single process (single topology only). */
	n8n?: N8nServer;
	queue?: QueueTopology;
	balancer?: Balancer;
	/** Restarts the process that takes production webhooks (the given webhook processor in queue mode); resolves with its start time. */
	restartReceiver(index?: number): Promise<number>;
	/** The account token: must never show up in any execution. */
	token: string;
	timings: Record<string, number>;
	/** Stops everything; keeps the folder with the log files (and names them) when `failed`. */
	stop(options?: { failed?: boolean }): Promise<void>;
}

export const CREDENTIAL_NAMES = {
	postalServiceApi: 'Postal Service account',
	postalServiceChatApi: 'Postal Service chat account',
	postalServiceWebhookApi: 'Postal Service webhook secret',
} as const;

export async function startEnvironment(topology: Topology = 'single'): Promise<E2eEnvironment> {
	const timings: Record<string, number> = {};
	// Distinctive, so that a search for it over executions cannot miss a copy or hit by chance.
	const token = `e2e-${randomBytes(12).toString('hex')}`;
	const sandbox = await startSandbox({
		port: 0,
		token,
		email: 'e2e@postal-service.test',
		webhookSecret: `whsec-${randomBytes(8).toString('hex')}`,
		// Retries of failed deliveries after milliseconds instead of minutes.
		timeScale: 20,
		quiet: true,
	});
	const started = Date.now();
	const progress = (m: string) => console.log(`[e2e ${topology}] ${m}`);
	let parts: Omit<E2eEnvironment, 'sandbox' | 'credentials' | 'token' | 'timings' | 'topology'>;
	try {
		parts = topology === 'queue' ? await startQueue(progress, timings) : await startSingle(progress, timings);
	} catch (error) {
		await sandbox.stop();
		throw error;
	}
	timings.prepareSeconds = (Date.now() - started) / 1000;
	const { client } = parts;
	const credentials = await saveCredentials(client, sandbox, token).catch(async (error: unknown) => {
		await parts.stop({ failed: true });
		await sandbox.stop();
		throw error;
	});
	return {
		...parts,
		topology,
		sandbox,
		credentials,
		token,
		timings,
		async stop(options) {
			await parts.stop(options);
			await sandbox.stop();
		},
	};
}

/** The three credentials, pointing at the sandbox. */
async function saveCredentials(client: N8nClient, sandbox: Sandbox, token: string): Promise<StoredCredential[]> {
	const data: Record<keyof typeof CREDENTIAL_NAMES, Record<string, string>> = {
		postalServiceApi: { baseUrl: sandbox.baseUrl, securityToken: token },
		postalServiceChatApi: { baseUrl: sandbox.baseUrl, email: sandbox.email, securityToken: token },
		postalServiceWebhookApi: { secret: sandbox.webhookSecret },
	};
	const saved: StoredCredential[] = [];
	for (const [type, name] of Object.entries(CREDENTIAL_NAMES) as Array<[keyof typeof CREDENTIAL_NAMES, string]>) saved.push(await upsertCredential(client, { name, type, data: data[type] }));
	return saved;
}

async function startSingle(progress: (m: string) => void, timings: Record<string, number>) {
	const userFolder = path.join(tmpdir(), `postal-e2e-n8n-${process.pid}-${Date.now()}`);
	const { server, client, startSeconds } = await prepareN8n({ userFolder, progress });
	timings.n8nStartSeconds = startSeconds;
	return {
		client,
		n8n: server,
		editorUrl: server.baseUrl,
		webhookUrl: server.baseUrl,
		receivers: [server.baseUrl],
		restartReceiver: () => server.restart(),
		async stop(options: { failed?: boolean } = {}) {
			await server.stop();
			if (options.failed || process.env.POSTAL_E2E_KEEP) console.log(`[e2e] n8n log: ${server.logFile}`);
			else rmSync(userFolder, { recursive: true, force: true });
		},
	};
}

async function startQueue(progress: (m: string) => void, timings: Record<string, number>) {
	// One worker proves the hand-off; the figures take two, so that copies of one delivery are
	// checked by two processes at once (POSTAL_QUEUE_WORKERS for another number).
	const workers = Number(process.env.POSTAL_QUEUE_WORKERS ?? (FIGURES ? 2 : 1));
	const { topology, client, startSeconds } = await prepareQueueN8n({ progress, workers });
	timings.n8nStartSeconds = startSeconds;
	const balancer = await startBalancer(topology.webhooks.map((w) => w.baseUrl));
	progress(`balancer on ${balancer.url}\n${topology.describe()}`);
	return {
		client,
		queue: topology,
		balancer,
		editorUrl: topology.main.baseUrl,
		webhookUrl: balancer.url,
		receivers: topology.webhooks.map((w) => w.baseUrl),
		restartReceiver: (index = 0) => topology.webhooks[index].restart(),
		async stop(options: { failed?: boolean } = {}) {
			await balancer.stop();
			const keep = options.failed || Boolean(process.env.POSTAL_E2E_KEEP);
			await topology.stop({ keep });
			if (keep) console.log(`[e2e] queue-mode log files:\n  ${topology.logFiles.join('\n  ')}`);
		},
	};
}

export async function waitFor<T>(
	probe: () => Promise<T | undefined | false>,
	what: string,
	timeoutMs = 30_000,
): Promise<T> {
	const started = Date.now();
	for (;;) {
		const value = await probe();
		if (value !== undefined && value !== false) return value;
		if (Date.now() - started > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
		await sleep(250);
	}
}

export interface Execution {
	id: string;
	workflowId: string;
	finished: boolean;
	mode: string;
	status: string;
	data?: {
		resultData: {
			error?: { message: string };
			lastNodeExecuted?: string;
			runData: Record<string, Array<{ data?: { main: Array<Array<{ json: Record<string, unknown>; binary?: Record<string, IBinaryData> }> | null> }; error?: { message: string } }>>;
		};
	};
}

/** Every execution (of one workflow, or all), following the public API's cursor. */
export async function listExecutions(client: N8nClient, options: { workflowId?: string; includeData?: boolean } = {}): Promise<Execution[]> {
	const all: Execution[] = [];
	let cursor: string | undefined;
	do {
		const query = new URLSearchParams({ limit: '100' });
		if (options.workflowId) query.set('workflowId', options.workflowId);
		if (options.includeData) query.set('includeData', 'true');
		if (cursor) query.set('cursor', cursor);
		const page = await client.api<{ data: Execution[]; nextCursor: string | null }>('GET', `/executions?${query}`);
		all.push(...page.data);
		cursor = page.nextCursor ?? undefined;
	} while (cursor);
	return all;
}

/** How many executions of a list have each status. */
export const countStatuses = (list: Execution[]) => list.reduce<Record<string, number>>((count, e) => ({ ...count, [e.status]: (count[e.status] ?? 0) + 1 }), {});

/**
 * A workflow's executions once there are at least `minimum`, none still under way, and no new one
 * for `stableMs` (a duplicate may be dropped before any execution starts, so a count of answers is
 * no target); fails after `timeoutMs` saying what it last saw.
 */
export async function settledExecutions(
	client: N8nClient,
	workflowId: string,
	{ minimum = 0, stableMs = 2_000, timeoutMs = 120_000 }: { minimum?: number; stableMs?: number; timeoutMs?: number } = {},
): Promise<Execution[]> {
	const started = Date.now();
	let last: Execution[] = [];
	let stableSince = Date.now();
	for (;;) {
		const list = await listExecutions(client, { workflowId });
		const underWay = list.some((e) => ['new', 'running', 'waiting'].includes(e.status));
		if (list.length !== last.length || underWay || list.length < minimum) stableSince = Date.now();
		else if (Date.now() - stableSince >= stableMs) return list;
		last = list;
		if (Date.now() - started > timeoutMs) {
			throw new Error(`timed out after ${timeoutMs} ms waiting for at least ${minimum} settled executions of ${workflowId}; the last look found ${last.length} ${JSON.stringify(countStatuses(last))}`);
		}
		await sleep(500);
	}
}

export async function getExecution(client: N8nClient, id: string): Promise<Execution> {
	return await client.api<Execution>('GET', `/executions/${id}?includeData=true`);
}

/** Items a node put out in an execution (first run, first output). */
export function nodeOutput(execution: Execution, node: string) {
	const run = execution.data?.resultData.runData[node]?.[0];
	if (!run) throw new Error(`node "${node}" did not run in execution ${execution.id}`);
	if (run.error) throw new Error(`node "${node}" failed in execution ${execution.id}: ${run.error.message}`);
	return run.data?.main[0] ?? [];
}

/**
 * The bytes of a binary property, from n8n's binary-data store (filesystem and database modes keep
 * only a reference in the execution). n8n 2.41 in database mode leaves a file stored while a
 * webhook was received (the trigger's return receipt) attached to no execution, and its
 * binary-data route answers 404 for it; the bytes are then read from PostgreSQL itself.
 */
export async function binaryContent(env: E2eEnvironment, binary: IBinaryData): Promise<Buffer> {
	if (!binary.id) return Buffer.from(binary.data ?? '', 'base64');
	const query = new URLSearchParams({ id: binary.id, action: 'download' });
	const response = await fetch(`${env.editorUrl}/rest/binary-data?${query}`, { headers: { cookie: env.client.cookie } });
	if (response.ok) return Buffer.from(await response.arrayBuffer());
	const [mode, fileId] = binary.id.split(':');
	if (response.status === 404 && mode === 'database' && env.queue) {
		const source = await env.queue.postgres.query(`SELECT "sourceType" || ':' || "sourceId" FROM binary_data WHERE "fileId" = '${fileId.replace(/'/g, "''")}'`);
		console.log(`[e2e ${env.topology}] n8n's binary-data route answers 404 for ${binary.id} (stored for ${source.trim() || 'nothing'}): read from PostgreSQL`);
		const base64 = await env.queue.postgres.query(`SELECT encode(data, 'base64') FROM binary_data WHERE "fileId" = '${fileId.replace(/'/g, "''")}'`);
		return Buffer.from(base64.replace(/\s+/g, ''), 'base64');
	}
	if (response.status === 404 && mode.startsWith('filesystem') && env.n8n) {
		// n8n 2.0 moves a file received by a webhook once per node that passes it on, at the same
		// time: the references it saves can still name the temporary place. The file is where the
		// first move put it.
		const name = path.basename(fileId);
		const found = findFile(path.join(env.n8n.userFolder, '.n8n'), name);
		console.log(`[e2e ${env.topology}] n8n's binary-data route answers 404 for ${binary.id}: ${found ? `read from ${found}` : 'not on disk either'}`);
		if (found) return readFileSync(found);
	}
	throw new Error(`binary data ${binary.id}: HTTP ${response.status}`);
}

function findFile(dir: string, name: string): string | undefined {
	for (const entry of readdirSync(dir, { withFileTypes: true })) {
		const full = path.join(dir, entry.name);
		if (entry.isFile() && entry.name === name) return full;
		if (entry.isDirectory() && entry.name !== 'nodes') {
			const found = findFile(full, name);
			if (found) return found;
		}
	}
	return undefined;
}

/** A GET of the editor's REST routes outside `/rest` (node and credential types), as the signed-in owner. */
export async function editorJson<T>(env: E2eEnvironment, route: string): Promise<T> {
	const response = await fetch(`${env.editorUrl}${route}`, { headers: { cookie: env.client.cookie } });
	if (response.status !== 200) throw new Error(`GET ${route} -> ${response.status}`);
	return (await response.json()) as T;
}

/** Which cases a suite registers: all of them, or the smoke subset run against other n8n releases. */
export type Scope = 'full' | 'smoke';
