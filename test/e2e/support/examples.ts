// The example workflows of examples/, imported through the public API exactly as the files are,
// started the way users start them (a webhook call, a form, a schedule, the service's deliveries),
// never by the CLI. A user's own systems (a CRM, a file store, a team chat) are the sandbox's
// receiver, which the examples' Your systems node points at, and so is a spreadsheet.
// Here: importing, waiting for their runs, the receiver; the runs are in exampleRequests.ts
// (started by a request) and exampleEvents.ts (started by the service's events).
import { createHash } from 'node:crypto';

import { expect } from 'vitest';

import type { Received } from '../../../sandbox';
import { SAMPLE_LETTER_PATH } from '../../../sandbox/sample';
import {
	activateWorkflow,
	createDataTables,
	createWorkflow,
	entryCredentialsOf,
	forTestEnvironment,
	newEntryCredential,
	placeholderHosts,
	readExamples,
	SYSTEMS_NODE,
	upsertCredential,
	waitForWebhook,
	withReceiver,
	withTemplatesOf,
	type EntryCredential,
	type StoredCredential,
	type WorkflowFile,
} from '../../../scripts/dev/workflows';
import { editorJson, getExecution, listExecutions, waitFor, type E2eEnvironment, type Execution } from './environment';
import { pdfOfSize } from './service';

export interface Answer {
	status: number;
	text: string;
	json?: Record<string, unknown>;
}

/** A request to an example's entry; n8n may close the connection instead of answering when a run fails. */
export async function call(url: string, init: RequestInit): Promise<Answer> {
	try {
		const response = await fetch(url, init);
		const text = await response.text();
		let json: Record<string, unknown> | undefined;
		try {
			json = JSON.parse(text) as Record<string, unknown>;
		} catch {
			// not JSON
		}
		return { status: response.status, text, json };
	} catch (error) {
		return { status: 0, text: (error as Error).message };
	}
}

export const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
export const TRIGGER = 'n8n-nodes-postal-service.postalServiceTrigger';

export function example(fileName: string): WorkflowFile {
	const found = readExamples().find((e) => e.file === fileName);
	if (!found) throw new Error(`examples/${fileName} is missing`);
	return found.workflow;
}

const imported: string[] = [];
/** The sandbox endpoints the imported trigger examples registered. */
const registered: number[] = [];
/** The entry credentials made so far in this n8n, by name: made once, as a user makes them once. */
const entryCredentials = new Map<string, { stored: StoredCredential; credential: EntryCredential }>();

/**
 * The Basic Auth and Header Auth credentials a workflow's entries name, made as its note asks a
 * user to (a long random secret each); the test calls the entries with them.
 */
export async function entryCredentialsFor(env: E2eEnvironment, workflow: WorkflowFile): Promise<EntryCredential[]> {
	const made: EntryCredential[] = [];
	for (const ref of entryCredentialsOf([workflow])) {
		let entry = entryCredentials.get(ref.name);
		if (!entry) {
			const credential = newEntryCredential(ref);
			entry = { stored: await upsertCredential(env.client, credential), credential };
			entryCredentials.set(ref.name, entry);
		}
		made.push(entry.credential);
	}
	return made;
}

/** The credential of that name the examples' entries authenticate with. */
export function entryCredential(name: string): EntryCredential {
	const entry = entryCredentials.get(name);
	if (!entry) throw new Error(`the credential "${name}" was not made: import an example that names it first`);
	return entry.credential;
}

export async function importAndActivate(env: E2eEnvironment, workflow: WorkflowFile, credentials: StoredCredential[] = env.credentials) {
	// A read first: n8n may have closed the client's idle connection, which a read finds out safely.
	await env.client.api('GET', '/workflows?limit=1');
	await createDataTables(env.client, workflow);
	await entryCredentialsFor(env, workflow);
	const { id } = await createWorkflow(env.client, workflow, [...credentials, ...[...entryCredentials.values()].map((e) => e.stored)]);
	imported.push(id);
	await activateWorkflow(env.client, id);
	return id;
}

/** Whether this n8n has data tables (1.113 and later), which most examples keep their keys in. */
export async function hasDataTables(env: E2eEnvironment): Promise<boolean> {
	const types = await editorJson<Array<{ name: string }>>(env, '/types/nodes.json');
	return types.some((t) => t.name === 'n8n-nodes-base.dataTable');
}

/** The chat templates a workflow's Send chat message nodes name, in the sandbox, as a user picks theirs. */
export const withSandboxTemplates = (env: E2eEnvironment, workflow: WorkflowFile): WorkflowFile => withTemplatesOf(env.sandbox.control, workflow);

/** Removes what these cases imported and registered, so that their webhooks and schedules stop. */
export async function removeImported(env: E2eEnvironment): Promise<void> {
	const { control } = env.sandbox;
	for (const id of registered.splice(0)) if (control.webhooks().some((w) => w.id === id)) control.removeWebhook(id);
	for (const id of imported.splice(0)) {
		// Deactivated first: n8n keeps an active workflow's webhooks registered until then.
		await env.client.api('POST', `/workflows/${id}/deactivate`).catch(() => undefined);
		await env.client.api('DELETE', `/workflows/${id}`).catch(() => undefined);
	}
}

export function productionUrlOf(env: E2eEnvironment, workflow: WorkflowFile, type: string, path: string) {
	const node = workflow.nodes.find((n) => n.type === type);
	if (!node) throw new Error(`"${workflow.name}" has no ${type} node`);
	// n8n's own Webhook node takes its path as the full path; other webhook nodes get the node's id first.
	return type === 'n8n-nodes-base.webhook' ? `${env.webhookUrl}/webhook/${path}` : `${env.webhookUrl}/webhook/${node.webhookId}/${path}`;
}

/** Imports a trigger example set to the test environment and registers its endpoint at the sandbox. */
export async function importTriggerExample(env: E2eEnvironment, workflow: WorkflowFile): Promise<string> {
	const id = await importAndActivate(env, workflow);
	const trigger = workflow.nodes.find((n) => n.type === TRIGGER)!;
	const url = productionUrlOf(env, workflow, TRIGGER, 'webhook');
	await waitForWebhook(url);
	registered.push(env.sandbox.control.registerWebhook({ url, events: trigger.parameters.events as string[], name: workflow.name }).id);
	return id;
}

/** A trigger example set to the test environment, its Your systems node at the receiver, imported with its endpoint registered. */
export async function receiverExample(env: E2eEnvironment, file: string, change: (workflow: WorkflowFile) => WorkflowFile = (w) => w) {
	const workflow = change(pointedAtReceiver(env, forTestEnvironment(example(file))));
	const id = await importTriggerExample(env, workflow);
	return { workflow, id, step: runsOf(env, id) };
}

export async function finishedExecutions(env: E2eEnvironment, workflowId: string, count: number): Promise<Execution[]> {
	const list = await waitFor(
		async () => {
			const all = await listExecutions(env.client, { workflowId });
			return all.length >= count && all.every((e) => e.status !== 'running' && e.status !== 'new') ? all : undefined;
		},
		`${count} finished executions of workflow ${workflowId}`,
		60_000,
	);
	return await Promise.all(list.map((e) => getExecution(env.client, e.id)));
}

/** Waits for that many finished runs of the workflow and expects every one of them to have succeeded. */
export async function succeeded(env: E2eEnvironment, workflowId: string, count: number): Promise<Execution[]> {
	const executions = await finishedExecutions(env, workflowId, count);
	for (const e of executions) expect(e.status, JSON.stringify(e.data?.resultData.error)).toBe('success');
	return executions;
}

/** Runs `act` (which makes one request or event) and waits until the workflow's run of it has finished. */
export function runsOf(env: E2eEnvironment, workflowId: string) {
	let runs = 0;
	const step = async (act: () => unknown) => {
		await act();
		await finishedExecutions(env, workflowId, ++runs);
	};
	return Object.assign(step, { count: () => runs });
}
export type Runs = ReturnType<typeof runsOf>;

/** The service's create requests that sent a letter (not prices), those of a tag when one is given. */
export const creates = (env: E2eEnvironment, tag?: string) =>
	env.sandbox.control.requests({ method: 'POST', path: '/api/v2/post' }).filter((r) => (r.fields.test ?? '0') === '0' && (tag === undefined || r.fields.tag === tag));

/** A JSON post to an example's entry, with the headers of the credential its note asks for. */
export const postJson = (url: string, body: unknown, headers: Record<string, string> = {}) =>
	call(url, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json', ...headers } });

export const sampleLetterUrl = (env: E2eEnvironment) => `${env.sandbox.baseUrl}${SAMPLE_LETTER_PATH}`;

/**
 * The example with its Your systems node pointed at the sandbox's receiver, as `npm run dev` and a
 * user set it: only that node changes, and no placeholder address is left anywhere else.
 */
export function pointedAtReceiver(env: E2eEnvironment, workflow: WorkflowFile): WorkflowFile {
	const pointed = withReceiver(workflow, env.sandbox.receiverUrl);
	expect(placeholderHosts(pointed), `${workflow.name}: an address outside ${SYSTEMS_NODE}`).toEqual([]);
	return pointed;
}

/** What the receiver took at a path (exact, or a prefix ending at a /), with its JSON body as an object. */
export function receivedAt(env: E2eEnvironment, path: string, method?: string): Array<Received & { json?: Record<string, unknown> }> {
	return env.sandbox.control.received({ path, method }) as Array<Received & { json?: Record<string, unknown> }>;
}

/** A registered letter with return receipt created at the service, with the AR kind given (the receipt comes back as ar_type asks). */
export async function createArLetterAtService(env: E2eEnvironment, name: string, arType: 'physical' | 'electronic'): Promise<string> {
	const form = new FormData();
	const fields = { userSecurityToken: env.token, shipType: '3', ar_type: arType, name, addr1: 'Avenida Paulista', street_number: '1000', zip: '01310-100', city: 'São Paulo', state: 'SP', country: 'Brasil' };
	for (const [key, value] of Object.entries(fields)) form.set(key, value);
	form.set('pdfFile', new Blob([new Uint8Array(await pdfOfSize(0, 'letter'))], { type: 'application/pdf' }), 'letter.pdf');
	const response = await fetch(`${env.sandbox.baseUrl}/api/v2/post`, { method: 'POST', body: form });
	const body = (await response.json()) as { data: unknown; status_message: string };
	expect(response.status, body.status_message).toBe(200);
	return String(body.data);
}
