// Credentials and workflows through n8n's APIs, shared by `npm run dev` and the end-to-end suite.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { repoRoot, sleep, type N8nClient } from './n8n';

export const examplesDir = path.join(repoRoot, 'examples');

export interface WorkflowNode {
	id?: string;
	name: string;
	type: string;
	typeVersion: number;
	position: [number, number];
	parameters: Record<string, unknown>;
	credentials?: Record<string, { id: string; name: string }>;
	webhookId?: string;
	[key: string]: unknown;
}

export interface WorkflowFile {
	name: string;
	nodes: WorkflowNode[];
	connections: Record<string, unknown>;
	settings?: Record<string, unknown>;
	[key: string]: unknown;
}

export interface StoredCredential {
	id: string;
	name: string;
	type: string;
}

/** The example workflows, as users import them. */
export function readExamples(): Array<{ file: string; workflow: WorkflowFile }> {
	return readdirSync(examplesDir)
		.filter((f) => f.endsWith('.json'))
		.sort()
		.map((file) => ({ file, workflow: JSON.parse(readFileSync(path.join(examplesDir, file), 'utf8')) as WorkflowFile }));
}

/** Creates a credential, or updates the one of the same name and type (kept ids keep workflows working). */
export async function upsertCredential(
	client: N8nClient,
	credential: { name: string; type: string; data: Record<string, unknown> },
): Promise<StoredCredential> {
	const existing = (await client.rest<StoredCredential[]>('GET', '/credentials')).find(
		(c) => c.name === credential.name && c.type === credential.type,
	);
	if (existing) {
		await client.rest('PATCH', `/credentials/${existing.id}`, credential);
		return existing;
	}
	// The editor's route, as a user saving the credential form. n8n's public API checks the data
	// against a schema it derives from the credential, and some releases (1.123.81 and 2.0.0 among
	// them) derive one that demands "allowedDomains", an HTTP Request option n8n adds itself.
	return await client.rest<StoredCredential>('POST', '/credentials', credential);
}

/**
 * What the public API accepts of a workflow file, with every node's credentials pointed at the
 * stored credential of the same type (a file carries the ids of the instance it came from).
 */
export function forPublicApi(workflow: WorkflowFile, credentials: StoredCredential[], name = workflow.name) {
	const nodes = workflow.nodes.map((node) => {
		if (!node.credentials) return node;
		const mapped = Object.fromEntries(
			Object.entries(node.credentials).map(([type, ref]) => {
				const stored = credentials.find((c) => c.type === type);
				return [type, stored ? { id: stored.id, name: stored.name } : ref];
			}),
		);
		return { ...node, credentials: mapped };
	});
	return { name, nodes, connections: workflow.connections, settings: { executionOrder: 'v1' } };
}

export async function createWorkflow(
	client: N8nClient,
	workflow: WorkflowFile,
	credentials: StoredCredential[],
	name?: string,
): Promise<{ id: string; name: string }> {
	return await client.api<{ id: string; name: string }>('POST', '/workflows', forPublicApi(workflow, credentials, name));
}

export async function findWorkflow(client: N8nClient, name: string): Promise<{ id: string; active: boolean } | undefined> {
	const found = await client.api<{ data: Array<{ id: string; name: string; active: boolean }> }>(
		'GET',
		`/workflows?name=${encodeURIComponent(name)}`,
	);
	return found.data.find((w) => w.name === name);
}

export async function activateWorkflow(client: N8nClient, id: string): Promise<void> {
	await client.api('POST', `/workflows/${id}/activate`);
}

/** The production URL of a webhook node: `/webhook/<webhookId>/<path>` unless the path is a full path. */
export function productionUrl(baseUrl: string, node: WorkflowNode, webhookPath: string): string {
	return `${baseUrl}/webhook/${node.webhookId}/${webhookPath}`;
}

/** Webhooks of an active workflow answer shortly after n8n reports ready: wait until this one does. */
export async function waitForWebhook(url: string, timeoutMs = 30_000, method = 'POST'): Promise<void> {
	const started = Date.now();
	for (;;) {
		// A CORS preflight starts nothing, and n8n lists in it the methods registered for the path.
		const response = await fetch(url, { method: 'OPTIONS', headers: { origin: new URL(url).origin } }).catch(() => undefined);
		const allowed = response?.headers.get('access-control-allow-methods') ?? '';
		if (allowed.split(/,\s*/).includes(method)) return;
		if (Date.now() - started > timeoutMs) throw new Error(`the webhook ${new URL(url).pathname} was not registered within ${timeoutMs} ms`);
		await sleep(200);
	}
}

const TRIGGER_TYPE = '.postalServiceTrigger';

/**
 * The examples take production events only; the sandbox sends test-environment (homolog) ones. A
 * copy whose Postal Service triggers take the test environment, as a user trying them there sets them.
 */
export function forTestEnvironment(workflow: WorkflowFile): WorkflowFile {
	return {
		...workflow,
		nodes: workflow.nodes.map((node) =>
			node.type.endsWith(TRIGGER_TYPE) ? { ...node, parameters: { ...node.parameters, environment: 'homolog' } } : node,
		),
	};
}

/** The credential types a workflow's nodes need that are not stored (so it cannot run yet). */
export function missingCredentialTypes(workflow: WorkflowFile, credentials: StoredCredential[]): string[] {
	const needed = workflow.nodes.flatMap((node) => Object.keys(node.credentials ?? {}));
	return [...new Set(needed)].filter((type) => !credentials.some((c) => c.type === type));
}

const DATA_TABLE_TYPE = 'n8n-nodes-base.dataTable';

/**
 * The data tables a workflow's Data Table nodes name, with the columns its inserting nodes write
 * (the file is the one source: what a user must create is read from what the workflow uses).
 */
export function dataTablesOf(workflow: WorkflowFile): Array<{ name: string; columns: Array<{ name: string; type: string }> }> {
	const tables = new Map<string, Map<string, string>>();
	for (const node of workflow.nodes.filter((n) => n.type === DATA_TABLE_TYPE)) {
		const table = node.parameters.dataTableId as { mode?: string; value?: string } | undefined;
		if (table?.mode !== 'name' || !table.value) throw new Error(`"${workflow.name}": data table of "${node.name}" is not given by name`);
		const columns = tables.get(table.value) ?? new Map<string, string>();
		tables.set(table.value, columns);
		const schema = (node.parameters.columns as { schema?: Array<{ id: string; type?: string }> } | undefined)?.schema ?? [];
		for (const column of schema) columns.set(column.id, column.type ?? 'string');
	}
	return [...tables].map(([name, columns]) => ({ name, columns: [...columns].map(([column, type]) => ({ name: column, type })) }));
}

/** Creates the data tables a workflow needs that do not exist yet, as its sticky note asks a user to. */
export async function createDataTables(client: N8nClient, workflow: WorkflowFile): Promise<void> {
	for (const table of dataTablesOf(workflow)) {
		const listed = await client.api<{ data: Array<{ name: string }> }>('GET', `/data-tables?filter=${encodeURIComponent(JSON.stringify({ name: table.name }))}`);
		if (listed.data.some((t) => t.name === table.name)) continue;
		await client.api('POST', '/data-tables', table);
	}
}
