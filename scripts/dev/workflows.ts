/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
// Credentials and workflows through n8n's APIs, shared by `npm run dev` and the end-to-end suite.
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import type { SandboxControl } from '../../sandbox';
import { repoRoot, waitUntil, type N8nClient } from './n8n';

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
 * Creates a workflow through the public API from what it accepts of a file, with every node's
 * credentials pointed at the stored credential of the same type, the one of the same name first (a
 * file carries the ids of the instance it came from, and two credentials of one type, like two Basic
 * Auth, differ by name).
 */
export async function createWorkflow(
	client: N8nClient,
	workflow: WorkflowFile,
	credentials: StoredCredential[],
	name = workflow.name,
): Promise<{ id: string; name: string }> {
	const nodes = workflow.nodes.map((node) => {
		if (!node.credentials) return node;
		const mapped = Object.fromEntries(
			Object.entries(node.credentials).map(([type, ref]) => {
				const stored = credentials.find((c) => c.type === type && c.name === ref.name) ?? credentials.find((c) => c.type === type);
				return [type, stored ? { id: stored.id, name: stored.name } : ref];
			}),
		);
		return { ...node, credentials: mapped };
	});
	return await client.api('POST', '/workflows', { name, nodes, connections: workflow.connections, settings: { executionOrder: 'v1' } });
}

export async function activateWorkflow(client: N8nClient, id: string): Promise<void> {
	await client.api('POST', `/workflows/${id}/activate`);
}

/** Webhooks of an active workflow answer shortly after n8n reports ready: wait until this one does. */
export async function waitForWebhook(url: string, timeoutMs = 30_000, method = 'POST'): Promise<void> {
	// A CORS preflight starts nothing, and n8n lists in it the methods registered for the path.
	const registered = async () => {
		const response = await fetch(url, { method: 'OPTIONS', headers: { origin: new URL(url).origin } }).catch(() => undefined);
		return (response?.headers.get('access-control-allow-methods') ?? '').split(/,\s*/).includes(method);
	};
	const late = () => new Error(`the webhook ${new URL(url).pathname} was not registered within ${timeoutMs} ms`);
	await waitUntil(registered, timeoutMs, late, 200);
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

const DATA_TABLE_TYPE = 'n8n-nodes-base.dataTable';
/** Columns every data table has, which a user does not create. */
const SYSTEM_COLUMNS = new Set(['id', 'createdAt', 'updatedAt']);

/**
 * The data tables a workflow's Data Table nodes name, with every column its nodes write (the
 * columns' types) or filter on (the file is the one source: what a user must create is read from
 * what the workflow uses).
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
		const filters = (node.parameters.filters as { conditions?: Array<{ keyName?: string }> } | undefined)?.conditions ?? [];
		for (const { keyName } of filters) if (keyName && !SYSTEM_COLUMNS.has(keyName) && !columns.has(keyName)) columns.set(keyName, 'string');
	}
	return [...tables].map(([name, columns]) => ({ name, columns: [...columns].map(([column, type]) => ({ name: column, type })) }));
}

/**
 * Creates the data tables a workflow needs, as its sticky note asks a user to: a table that exists
 * gets the columns it lacks (two examples share a table, each naming the columns it uses).
 */
export async function createDataTables(client: N8nClient, workflow: WorkflowFile): Promise<void> {
	for (const table of dataTablesOf(workflow)) {
		const existing = await dataTableNamed(client, table.name);
		if (!existing) {
			await client.api('POST', '/data-tables', table);
			continue;
		}
		const columns = await client.api<Array<{ name: string }>>('GET', `/data-tables/${existing.id}/columns`);
		for (const column of table.columns.filter((c) => !columns.some((existing) => existing.name === c.name))) {
			await client.api('POST', `/data-tables/${existing.id}/columns`, column);
		}
	}
}

/** A data table by name through n8n's public API; `required`: its absence is an error. */
async function dataTableNamed(client: N8nClient, name: string, required = false): Promise<{ id: string; name: string } | undefined> {
	const listed = await client.api<{ data: Array<{ id: string; name: string }> }>('GET', `/data-tables?filter=${encodeURIComponent(JSON.stringify({ name }))}`);
	const table = listed.data.find((t) => t.name === name);
	if (!table && required) throw new Error(`no data table named ${name}`);
	return table;
}

/** The rows of a data table, by name, through n8n's public API. */
export async function dataTableRows(client: N8nClient, name: string): Promise<Array<Record<string, unknown>>> {
	const table = (await dataTableNamed(client, name, true))!;
	const rows: Array<Record<string, unknown>> = [];
	let cursor: string | undefined;
	do {
		const query = new URLSearchParams({ limit: '250' });
		if (cursor) query.set('cursor', cursor);
		const page = await client.api<{ data: Array<Record<string, unknown>>; nextCursor?: string | null }>('GET', `/data-tables/${table.id}/rows?${query}`);
		rows.push(...page.data);
		cursor = page.nextCursor ?? undefined;
	} while (cursor);
	return rows;
}

/** Inserts rows into a data table, by name, as another workflow of the user's would. */
export async function insertDataTableRows(client: N8nClient, name: string, rows: Array<Record<string, unknown>>): Promise<void> {
	const table = (await dataTableNamed(client, name, true))!;
	await client.api('POST', `/data-tables/${table.id}/rows`, { data: rows, returnType: 'count' });
}

/** The credential types with which an example's public entries (webhook, form, chat) authenticate. */
export const ENTRY_AUTH_TYPES = ['httpHeaderAuth', 'httpBasicAuth'] as const;
/** The header the examples' Header Auth credentials name, as their notes say. */
export const EXAMPLE_API_KEY_HEADER = 'X-API-Key';

export interface EntryCredential {
	name: string;
	type: (typeof ENTRY_AUTH_TYPES)[number];
	data: Record<string, string>;
}

/** The authentication credentials the examples' entries name, each by its name and type. */
export function entryCredentialsOf(workflows: WorkflowFile[]): Array<{ name: string; type: EntryCredential['type'] }> {
	const found = new Map<string, { name: string; type: EntryCredential['type'] }>();
	for (const node of workflows.flatMap((w) => w.nodes)) {
		for (const [type, ref] of Object.entries(node.credentials ?? {})) {
			if ((ENTRY_AUTH_TYPES as readonly string[]).includes(type)) found.set(`${type}/${ref.name}`, { name: ref.name, type: type as EntryCredential['type'] });
		}
	}
	return [...found.values()];
}

/** A credential as a user creates it from an example's note: a long random secret. */
export function newEntryCredential(ref: { name: string; type: EntryCredential['type'] }): EntryCredential {
	const secret = randomBytes(24).toString('base64url');
	if (ref.type === 'httpHeaderAuth') return { ...ref, data: { name: EXAMPLE_API_KEY_HEADER, value: secret } };
	const user = ref.name.replace(/^.*:\s*/, '').toLowerCase().replace(/[^a-z0-9]+/g, '-');
	return { ...ref, data: { user, password: secret } };
}

/** The headers that authenticate a request with an entry credential. */
export function entryHeaders(credential: EntryCredential): Record<string, string> {
	if (credential.type === 'httpHeaderAuth') return { [credential.data.name]: credential.data.value };
	return { authorization: `Basic ${Buffer.from(`${credential.data.user}:${credential.data.password}`).toString('base64')}` };
}

/** Hosts the examples name as places for the user's own systems: a workflow calling one cannot run as shipped. */
export function placeholderHosts(workflow: WorkflowFile): string[] {
	const hosts = workflow.nodes
		.filter((node) => node.type !== 'n8n-nodes-base.stickyNote')
		.flatMap((node) => JSON.stringify(node.parameters).match(/https?:\/\/[a-z0-9.-]*example\.com/g) ?? []);
	return [...new Set(hosts.map((url) => new URL(url).host))];
}

/** A client record as a Brazilian CRM posts it to the round-trip example (crm-client-to-return-receipt), in its field names. */
export function clientRecord(documentUrl: string, clienteId = 'C-1001') {
	return {
		cliente_id: clienteId,
		nome: 'Marina Albuquerque',
		logradouro: 'Rua da Bahia',
		numero: '1148',
		complemento: 'Sala 3',
		bairro: 'Centro',
		cidade: 'Belo Horizonte',
		uf: 'MG',
		cep: '30160-011',
		documento_url: documentUrl,
	};
}

/** The node at the start of an example that holds the addresses of the user's own systems (team chat, CRM, file store). */
export const SYSTEMS_NODE = 'Your systems';

/**
 * A copy whose Your systems node points at a receiver, as a user puts their own addresses there:
 * `https://chat.example.com/hooks/alerts` becomes `<receiverUrl>/chat/hooks/alerts`. Nothing else
 * changes, so an address kept anywhere else stays a placeholder (and `placeholderHosts` finds it).
 */
export function withReceiver(workflow: WorkflowFile, receiverUrl: string): WorkflowFile {
	return {
		...workflow,
		nodes: workflow.nodes.map((node) =>
			node.name === SYSTEMS_NODE
				? (JSON.parse(JSON.stringify(node).replace(/https:\/\/([a-z0-9-]+)\.example\.com/g, `${receiverUrl}/$1`)) as WorkflowNode)
				: node,
		),
	};
}

/**
 * A copy whose Send chat message nodes name their templates by id, as a user picks theirs: each
 * template the node names (by name, with its variables) found in the sandbox, or added there approved.
 */
export function withTemplatesOf(store: Pick<SandboxControl, 'templates' | 'addTemplate'>, workflow: WorkflowFile): WorkflowFile {
	const nodes = workflow.nodes.map((node) => {
		const { resource, operation, templateId, senderId, variables } = node.parameters as {
			resource?: string;
			operation?: string;
			templateId: { cachedResultName?: string };
			senderId: { value?: string };
			variables: { schema?: Array<{ id: string }> };
		};
		if (!node.type.startsWith('n8n-nodes-postal-service.') || resource !== 'chatMessage' || operation !== 'send') return node;
		const wanted = {
			senderId: Number(senderId.value),
			name: String(templateId.cachedResultName),
			variableNames: (variables.schema ?? []).map((s) => s.id),
		};
		const template =
			store.templates().find((t) => t.name === wanted.name && t.sender_id === wanted.senderId) ?? store.addTemplate(wanted);
		return { ...node, parameters: { ...node.parameters, templateId: { ...templateId, value: String(template.id) } } };
	});
	return { ...workflow, nodes };
}
