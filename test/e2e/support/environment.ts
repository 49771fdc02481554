// One real n8n (the packed package installed as users get it) and one sandbox for the whole suite.
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { startSandbox, type Sandbox } from '../../../sandbox';
import { prepareN8n, sleep, type N8nClient, type N8nServer } from '../../../scripts/n8n';
import { upsertCredential, type StoredCredential } from '../../../scripts/workflows';

export interface E2eEnvironment {
	sandbox: Sandbox;
	n8n: N8nServer;
	client: N8nClient;
	credentials: StoredCredential[];
	/** The account token: must never show up in any execution. */
	token: string;
	timings: Record<string, number>;
	stop(): Promise<void>;
}

export const CREDENTIAL_NAMES = {
	postalServiceApi: 'Postal Service account',
	postalServiceChatApi: 'Postal Service chat account',
	postalServiceWebhookApi: 'Postal Service webhook secret',
} as const;

export async function startEnvironment(): Promise<E2eEnvironment> {
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
	const userFolder = path.join(tmpdir(), `postal-e2e-n8n-${process.pid}-${Date.now()}`);
	const started = Date.now();
	let prepared: Awaited<ReturnType<typeof prepareN8n>>;
	try {
		prepared = await prepareN8n({ userFolder, progress: (m) => console.log(`[e2e] ${m}`) });
	} catch (error) {
		await sandbox.stop();
		throw error;
	}
	timings.prepareSeconds = (Date.now() - started) / 1000;
	timings.n8nStartSeconds = prepared.startSeconds;
	const { server, client } = prepared;
	const credentials = [
		await upsertCredential(client, {
			name: CREDENTIAL_NAMES.postalServiceApi,
			type: 'postalServiceApi',
			data: { baseUrl: sandbox.baseUrl, securityToken: token },
		}),
		await upsertCredential(client, {
			name: CREDENTIAL_NAMES.postalServiceChatApi,
			type: 'postalServiceChatApi',
			data: { baseUrl: sandbox.baseUrl, email: sandbox.email, securityToken: token },
		}),
		await upsertCredential(client, {
			name: CREDENTIAL_NAMES.postalServiceWebhookApi,
			type: 'postalServiceWebhookApi',
			data: { secret: sandbox.webhookSecret },
		}),
	];
	return {
		sandbox,
		n8n: server,
		client,
		credentials,
		token,
		timings,
		async stop() {
			await server.stop();
			await sandbox.stop();
			if (!process.env.POSTAL_E2E_KEEP) rmSync(userFolder, { recursive: true, force: true });
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
			runData: Record<string, Array<{ data?: { main: Array<Array<{ json: Record<string, unknown>; binary?: Record<string, BinaryRef> }> | null> }; error?: { message: string } }>>;
		};
	};
}

export interface BinaryRef {
	id?: string;
	data?: string;
	mimeType: string;
	fileName?: string;
	fileSize?: string;
	fileExtension?: string;
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

/** The bytes of a binary property, from n8n's binary-data store (filesystem mode keeps only a reference in the execution). */
export async function binaryContent(client: N8nClient, binary: BinaryRef): Promise<Buffer> {
	if (!binary.id) return Buffer.from(binary.data ?? '', 'base64');
	const query = new URLSearchParams({ id: binary.id, action: 'download' });
	const response = await fetch(`${client.baseUrl}/rest/binary-data?${query}`, { headers: { cookie: client.cookie } });
	if (!response.ok) throw new Error(`binary data ${binary.id}: HTTP ${response.status}`);
	return Buffer.from(await response.arrayBuffer());
}
