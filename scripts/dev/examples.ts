/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
// The example workflows as `npm run dev` imports them: their entries' credentials made once and
// kept, each imported once, pointed at the sandbox, and published when it can run here.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { RECEIVER_PATH, type Sandbox } from '../../sandbox';
import type { N8nClient } from './n8n';
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
	withReceiver,
	withTemplatesOf,
	type EntryCredential,
	type StoredCredential,
	type WorkflowFile,
	type WorkflowNode,
} from './workflows';

/**
 * The Basic Auth and Header Auth credentials the examples' entries name, each with a random secret
 * made once and kept in the dev folder, so that a caller set up once keeps working across restarts.
 */
export function exampleEntryCredentials(devDir: string): EntryCredential[] {
	const file = path.join(devDir, 'example-credentials.json');
	const kept: EntryCredential[] = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as EntryCredential[]) : [];
	const all = entryCredentialsOf(readExamples().map((e) => e.workflow)).map(
		(ref) => kept.find((k) => k.name === ref.name && k.type === ref.type) ?? newEntryCredential(ref),
	);
	mkdirSync(devDir, { recursive: true });
	writeFileSync(file, `${JSON.stringify(all, null, '\t')}\n`, { mode: 0o600 });
	return all;
}

/**
 * Imports each example once (later runs leave them, your edits and your publishing choices alone)
 * and publishes the ones that can run here. Their triggers take the test environment, the one the
 * sandbox's events come from; their chat templates are the sandbox's; their Your systems node points
 * at the sandbox's receiver. One that needs a credential not made here, or still names a placeholder
 * address, stays inactive, and the banner says why (`reason`, in words a user acts on).
 */
export async function importExamples(client: N8nClient, sandbox: Sandbox, credentials: StoredCredential[], webhookUrl: string, say: (message: string) => void) {
	const states: Array<{ file: string; shipped: WorkflowFile; published: boolean; reason?: string }> = [];
	for (const { file, workflow: shipped } of readExamples()) {
		const workflow = withReceiver(withTemplatesOf(sandbox.control, forTestEnvironment(shipped)), sandbox.receiverUrl);
		const listed = await client.api<{ data: Array<{ id: string; name: string; active: boolean }> }>(
			'GET',
			`/workflows?name=${encodeURIComponent(workflow.name)}`,
		);
		let existing = listed.data.find((w) => w.name === workflow.name);
		let refusal: string | undefined;
		if (!existing) {
			// The data tables its Setup note asks a user to create, made here as a user would.
			await createDataTables(client, workflow).catch((error: Error) => say(`could not create the data tables of ${file}: ${error.message}`));
			const created = await createWorkflow(client, workflow, credentials);
			const blocked = whyNotRunnable(workflow, credentials);
			const active =
				!blocked &&
				(await activateWorkflow(client, created.id).then(
					() => true,
					(error: Error) => ((refusal = `n8n refused to publish it: ${error.message}`), false),
				));
			existing = { ...created, active };
		}
		let stored = await client.api<WorkflowFile>('GET', `/workflows/${existing.id}`).catch(() => workflow);
		stored = await followReceiver(client, existing, stored, sandbox.receiverUrl, say);
		const reason = existing.active ? undefined : (refusal ?? whyNotRunnable(stored, credentials) ?? 'unpublished in n8n: publish it from its menu when you want it');
		states.push({ file, shipped, published: existing.active, reason });
		const trigger = workflow.nodes.find((n) => n.type.endsWith('.postalServiceTrigger'));
		if (!trigger || !existing.active) continue;
		// The sandbox forgets its endpoints on every start: register the trigger's production URL
		// again, as a user would in the service's panel.
		const events = (trigger.parameters.events as string[] | undefined) ?? ['*'];
		sandbox.control.registerWebhook({ url: `${webhookUrl}/webhook/${trigger.webhookId}/webhook`, events, name: workflow.name });
	}
	return states;
}

/**
 * An example imported by an earlier run whose sandbox listened on another port: the receiver address
 * that run put in its Your systems node moves to this sandbox's (only that address; a user's own stays).
 */
async function followReceiver(client: N8nClient, existing: { id: string; active: boolean }, stored: WorkflowFile, receiverUrl: string, say: (message: string) => void): Promise<WorkflowFile> {
	const earlier = new RegExp(`http://127\\.0\\.0\\.1:\\d+${RECEIVER_PATH}(?=/)`, 'g');
	let changed = false;
	const nodes = stored.nodes.map((node) => {
		if (node.name !== SYSTEMS_NODE) return node;
		const text = JSON.stringify(node);
		const moved = text.replace(earlier, receiverUrl);
		changed ||= moved !== text;
		return JSON.parse(moved) as WorkflowNode;
	});
	if (!changed) return stored;
	const updated = { ...stored, nodes };
	await client.api('PUT', `/workflows/${existing.id}`, { name: stored.name, nodes, connections: stored.connections, settings: { executionOrder: 'v1' } });
	// n8n 2.x publishes a version: the edited one runs once published again.
	if (existing.active) await activateWorkflow(client, existing.id).catch((error: Error) => say(`could not publish "${stored.name}" again: ${error.message}`));
	say(`"${stored.name}": its ${SYSTEMS_NODE} node now points at ${receiverUrl}`);
	return updated;
}

/** What keeps a workflow from running against the sandbox, or undefined. */
function whyNotRunnable(workflow: WorkflowFile, credentials: StoredCredential[]): string | undefined {
	const needed = new Set(workflow.nodes.flatMap((node) => Object.keys(node.credentials ?? {})));
	const missing = [...needed].filter((type) => !credentials.some((c) => c.type === type));
	if (missing.length) return `needs a credential of type ${missing.join(', ')}: add one, pick it in the workflow, then publish it`;
	const placeholders = placeholderHosts(workflow);
	if (placeholders.length) {
		return `calls ${placeholders.join(', ')}, a placeholder: put your system's address in its ${SYSTEMS_NODE} node, or delete the workflow and the next npm run dev imports it pointed at the receiver`;
	}
	return undefined;
}

export const describeEntryCredential = (c: EntryCredential) =>
	c.type === 'httpHeaderAuth' ? `header ${c.data.name}: ${c.data.value}` : `user ${c.data.user}, password ${c.data.password}`;
