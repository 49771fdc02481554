// The example workflows of examples/, imported through the public API exactly as the files are,
// started the way users start them (a webhook call, a form, a schedule, the service's deliveries),
// never by the CLI. A user's own systems (a CRM, a file store, a team chat) are the sandbox's
// receiver, which the examples' Your systems node points at, and so is a spreadsheet.
// Here: importing and calling their entries, waiting for their runs, the receiver; the runs are in
// exampleRequests.ts, exampleRuns.ts, exampleEvents.ts, exampleCrm.ts and exampleAgent.ts.
import { createHash } from 'node:crypto';

import { expect } from 'vitest';

import type { Received } from '../../../sandbox';
import { SAMPLE_LETTER_PATH } from '../../../sandbox/sample';
import {
	activateWorkflow,
	createDataTables,
	createWorkflow,
	entryCredentialsOf,
	entryHeaders,
	forTestEnvironment,
	newEntryCredential,
	readExamples,
	upsertCredential,
	waitForWebhook,
	withReceiver,
	type EntryCredential,
	type StoredCredential,
	type WorkflowFile,
	type WorkflowNode,
} from '../../../scripts/dev/workflows';
import { editorJson, getExecution, listExecutions, waitFor, type E2eEnvironment, type Execution } from './environment';

interface Answer {
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

export async function importAndActivate(env: E2eEnvironment, workflow: WorkflowFile, credentials: StoredCredential[] = env.credentials) {
	// A read first: n8n may have closed the client's idle connection, which a read finds out safely.
	await env.client.api('GET', '/workflows?limit=1');
	await createDataTables(env.client, workflow);
	// The Basic Auth and Header Auth credentials its entries name, made once as its note asks a user to (a long random secret each).
	for (const ref of entryCredentialsOf([workflow])) {
		if (entryCredentials.has(ref.name)) continue;
		const credential = newEntryCredential(ref);
		entryCredentials.set(ref.name, { stored: await upsertCredential(env.client, credential), credential });
	}
	const { id } = await createWorkflow(env.client, workflow, [...credentials, ...[...entryCredentials.values()].map((e) => e.stored)]);
	imported.push(id);
	await activateWorkflow(env.client, id);
	return id;
}

/** Where n8n answers each kind of entry an example starts from, and the method that shows it is registered. */
const ENTRIES: Record<string, { at: (node: WorkflowNode) => string; method?: string }> = {
	// n8n's own Webhook node takes its path as the full path; other webhook nodes get the node's id first.
	'n8n-nodes-base.webhook': { at: (n) => `/webhook/${String(n.parameters.path)}` },
	'n8n-nodes-base.formTrigger': { at: (n) => `/form/${n.webhookId}`, method: 'GET' },
	'@n8n/n8n-nodes-langchain.chatTrigger': { at: (n) => `/webhook/${n.webhookId}/chat` },
	[TRIGGER]: { at: (n) => `/webhook/${n.webhookId}/webhook` },
};

/**
 * Imports and activates an example, waits until each of its entries answers and registers its
 * Postal Service Trigger at the sandbox, as a user does in the service's panel. `url` is the entry
 * a user or their system calls, `headers` those of the credential it names; `step` runs one call or event.
 */
export async function importExample(env: E2eEnvironment, workflow: WorkflowFile, credentials?: StoredCredential[]) {
	const id = await importAndActivate(env, workflow, credentials);
	let url = '';
	for (const node of workflow.nodes) {
		const entry = ENTRIES[node.type];
		if (!entry) continue;
		const at = `${env.webhookUrl}${entry.at(node)}`;
		await waitForWebhook(at, 30_000, entry.method);
		if (node.type !== TRIGGER) url = at;
		else registered.push(env.sandbox.control.registerWebhook({ url: at, events: node.parameters.events as string[], name: workflow.name }).id);
	}
	const [ref] = entryCredentialsOf([workflow]);
	const credential = ref && entryCredentials.get(ref.name)!.credential;
	let runs = 0;
	/** Runs `act` (one request or event) and waits until the workflow's run of it has succeeded. */
	const step = async (act: () => unknown) => {
		await act();
		await succeeded(env, id, ++runs);
	};
	return { workflow, id, url, credential, headers: credential ? entryHeaders(credential) : {}, step };
}
export type ImportedExample = Awaited<ReturnType<typeof importExample>>;

/** A trigger example set to the test environment, its Your systems node at the receiver, imported with its endpoint registered. */
export const receiverExample = (env: E2eEnvironment, file: string) => importExample(env, pointedAtReceiver(env, forTestEnvironment(example(file))));

/**
 * A call without the entry's credential, and with a wrong one, is refused by n8n and starts nothing:
 * the static rules (examples-spending.test.ts) see the authentication set, this sees n8n enforce it.
 */
export async function refusedWithoutCredential(env: E2eEnvironment, { id, url, credential }: ImportedExample, init: () => RequestInit) {
	const posts = creates(env).length;
	const wrong = entryHeaders({ ...credential!, data: { ...credential!.data, value: 'wrong', password: 'wrong' } });
	for (const headers of [{}, wrong]) {
		const answer = await call(url, { ...init(), headers });
		expect([401, 403], answer.text).toContain(answer.status);
	}
	expect(await listExecutions(env.client, { workflowId: id })).toHaveLength(0);
	expect(creates(env)).toHaveLength(posts);
}

/** Whether this n8n has data tables (1.113 and later), which most examples keep their keys in. */
export async function hasDataTables(env: E2eEnvironment): Promise<boolean> {
	const types = await editorJson<Array<{ name: string }>>(env, '/types/nodes.json');
	return types.some((t) => t.name === 'n8n-nodes-base.dataTable');
}

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

/** The service's create requests that sent a letter (not prices), those of a tag when one is given. */
export const creates = (env: E2eEnvironment, tag?: string) =>
	env.sandbox.control.requests({ method: 'POST', path: '/api/v2/post' }).filter((r) => (r.fields.test ?? '0') === '0' && (tag === undefined || r.fields.tag === tag));

/** A JSON post to an example's entry, with the headers of the credential its note asks for. */
export const postJson = (url: string, body: unknown, headers: Record<string, string> = {}) =>
	call(url, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json', ...headers } });

export const sampleLetterUrl = (env: E2eEnvironment) => `${env.sandbox.baseUrl}${SAMPLE_LETTER_PATH}`;

/**
 * The example with its Your systems node pointed at the sandbox's receiver, as `npm run dev` and a
 * user set it: that node holds every address (test/docs/examples-notes.test.ts proves it), so only it changes.
 */
export const pointedAtReceiver = (env: E2eEnvironment, workflow: WorkflowFile): WorkflowFile => withReceiver(workflow, env.sandbox.receiverUrl);

/** What the receiver took at a path (exact, or a prefix ending at a /), with its JSON body as an object. */
export function receivedAt(env: E2eEnvironment, path: string, method?: string): Array<Received & { json?: Record<string, unknown> }> {
	return env.sandbox.control.received({ path, method }) as Array<Received & { json?: Record<string, unknown> }>;
}
