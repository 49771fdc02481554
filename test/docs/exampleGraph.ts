// What the example files are, read as a graph: who can start each one, what it spends, and its notes.
// The spending rules (examples-spending.test.ts) and the note rules (examples-notes.test.ts) share it.
import { RESOURCES } from '../../nodes/PostalService/actions/resources';
import { readExamples, type WorkflowFile, type WorkflowNode } from '../../scripts/dev/workflows';

export const examples = readExamples();
export const PACKAGE = 'n8n-nodes-postal-service.';
export const TRIGGER = `${PACKAGE}postalServiceTrigger`;
export const STICKY = 'n8n-nodes-base.stickyNote';
export const notesOf = (workflow: WorkflowFile) => workflow.nodes.filter((n) => n.type === STICKY);
/** Every note of the workflow, read together: the facts a user needs may sit beside the node they concern. */
export const note = (workflow: WorkflowFile) => notesOf(workflow).map((n) => String(n.parameters.content)).join('\n\n');
/** The note a user reads first: what to create, in order. */
export const SETUP = 'Setup';
export const setupNote = (workflow: WorkflowFile) => String(workflow.nodes.find((n) => n.type === STICKY && n.name === SETUP)?.parameters.content ?? '');

/** The numbered steps of a Setup note (each with the lines that continue it), in the order written. */
export function setupSteps(content: string): string[] {
	const after = content.split(/^### Setup$/m)[1] ?? '';
	const steps: string[] = [];
	for (const line of after.split('\n')) {
		if (/^\d+\. /.test(line)) steps.push(line);
		else if (steps.length && /^\s+\S/.test(line)) steps[steps.length - 1] += `\n${line}`;
		else if (steps.length && line.trim()) break;
	}
	return steps;
}

// ---- Who can start a workflow, and what costs credits ----------------------------------------

/** Entries anyone who knows the URL can call, and how each one authenticates. */
export const PUBLIC_ENTRIES: Record<string, { label: string; isPublic: (n: WorkflowNode) => boolean; authenticated: (n: WorkflowNode) => boolean }> = {
	'n8n-nodes-base.webhook': {
		label: 'Webhook',
		isPublic: () => true,
		authenticated: (n) => ['basicAuth', 'headerAuth', 'jwtAuth'].includes(String(n.parameters.authentication)) && hasAuthCredential(n),
	},
	'n8n-nodes-base.formTrigger': {
		label: 'Form',
		isPublic: () => true,
		authenticated: (n) => (n.parameters.authentication === 'basicAuth' && hasAuthCredential(n)) || n.parameters.authentication === 'n8nUserAuth',
	},
	'@n8n/n8n-nodes-langchain.chatTrigger': {
		label: 'Chat',
		// A chat that is not public opens only in the editor, for people signed in to n8n.
		isPublic: (n) => n.parameters.public === true,
		authenticated: (n) => (n.parameters.authentication === 'basicAuth' && hasAuthCredential(n)) || n.parameters.authentication === 'n8nUserAuth',
	},
};
const hasAuthCredential = (n: WorkflowNode) => Object.keys(n.credentials ?? {}).some((type) => ['httpBasicAuth', 'httpHeaderAuth', 'jwtAuth'].includes(type));

/** The package's operations that spend credits, read from the node itself: a new one is checked without a change here. */
export const SPENDING = Object.entries(RESOURCES).flatMap(([resource, { operations }]) =>
	Object.entries(operations)
		.filter(([, module]) => module.spendsCredits)
		.map(([operation, module]) => ({
			resource,
			operation,
			action: module.option.action,
			// Whether the operation takes a Maximum Price at all.
			capped: JSON.stringify(module.description).includes('"name":"maxPrice"'),
		})),
);

export function operationOf(node: WorkflowNode): { resource: string; operation: string } | undefined {
	if (!node.type.startsWith(PACKAGE) || node.type === TRIGGER) return undefined;
	const resource = String(node.parameters.resource ?? 'order');
	const operation = String(node.parameters.operation ?? RESOURCES[resource]?.defaultOperation);
	return { resource, operation };
}
export const spendingOf = (node: WorkflowNode) => {
	const op = operationOf(node);
	return op && SPENDING.find((s) => s.resource === op.resource && s.operation === op.operation);
};
export const maxPriceOf = (node: WorkflowNode) => (node.parameters.additionalFields as { maxPrice?: unknown } | undefined)?.maxPrice;

/** Calls of this workflow by itself (a sub-workflow or an AI tool running its own "When Executed by Another Workflow"). */
const CALLERS = ['n8n-nodes-base.executeWorkflow', '@n8n/n8n-nodes-langchain.toolWorkflow'];
const callsItself = (n: WorkflowNode) => /^=\{\{\s*\$workflow\.id\s*\}\}$/.test(String((n.parameters.workflowId as { value?: unknown } | undefined)?.value ?? ''));

/** What runs after a node: its main outputs (error outputs too), an agent's tools, the sub-workflow it calls in this file. */
function successors(workflow: WorkflowFile): Map<string, string[]> {
	const next = new Map<string, string[]>(workflow.nodes.map((n) => [n.name, []]));
	for (const [from, kinds] of Object.entries(workflow.connections as Record<string, Record<string, Array<Array<{ node: string }>>>>)) {
		for (const [kind, outputs] of Object.entries(kinds)) {
			for (const target of outputs.flat()) {
				// A tool, memory or model is plugged into its agent; the agent is what calls it.
				if (kind === 'main') next.get(from)?.push(target.node);
				else next.get(target.node)?.push(from);
			}
		}
	}
	const entries = workflow.nodes.filter((n) => n.type === 'n8n-nodes-base.executeWorkflowTrigger').map((n) => n.name);
	for (const caller of workflow.nodes.filter((n) => CALLERS.includes(n.type))) {
		next.get(caller.name)?.push(...(callsItself(caller) ? entries : [`another workflow (called by "${caller.name}")`]));
	}
	return next;
}

export function reachableFrom(workflow: WorkflowFile, start: string): Set<string> {
	const next = successors(workflow);
	const seen = new Set<string>();
	const queue = [start];
	while (queue.length) {
		const name = queue.shift()!;
		for (const target of next.get(name) ?? []) {
			if (seen.has(target)) continue;
			seen.add(target);
			queue.push(target);
		}
	}
	return seen;
}

/** Every rule a workflow breaks about who can spend its credits, one sentence each. */
export function spendingProblems(workflow: WorkflowFile): string[] {
	const problems: string[] = [];
	const byName = new Map(workflow.nodes.map((n) => [n.name, n]));
	for (const entry of workflow.nodes) {
		const kind = PUBLIC_ENTRIES[entry.type];
		const service = entry.type === TRIGGER;
		if (!(kind?.isPublic(entry) || service)) continue;
		const reached = [...reachableFrom(workflow, entry.name)];
		const unknown = reached.filter((name) => !byName.has(name));
		const spenders = reached.map((name) => byName.get(name)).filter((n): n is WorkflowNode => !!n && !!spendingOf(n));
		if (!spenders.length && !unknown.length) continue;
		if (service) {
			const options = (entry.parameters.options ?? {}) as { acceptUnsigned?: boolean };
			if (options.acceptUnsigned) problems.push(`"${entry.name}" accepts unsigned deliveries and leads to ${spenders.map((s) => `"${s.name}"`).join(', ')}`);
			continue;
		}
		if (!kind.authenticated(entry)) problems.push(`${kind.label} "${entry.name}" is public without authentication and leads to ${[...spenders.map((s) => `"${s.name}"`), ...unknown].join(', ')}`);
		for (const name of unknown) problems.push(`${kind.label} "${entry.name}" leads to ${name}, whose spending cannot be checked here`);
		for (const spender of spenders) {
			const spending = spendingOf(spender)!;
			if (!spending.capped) problems.push(`"${spender.name}" (${spending.action}) has no Maximum Price and is on the public path of ${kind.label} "${entry.name}"`);
			else if (maxPriceOf(spender) === undefined || maxPriceOf(spender) === '' || maxPriceOf(spender) === null) {
				problems.push(`"${spender.name}" (${spending.action}) is on the public path of ${kind.label} "${entry.name}" without Maximum Price`);
			}
		}
	}
	return problems;
}
