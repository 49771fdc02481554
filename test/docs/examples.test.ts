/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
// What the example files may rely on in every topology a user runs them in, and what they must not
// do with a user's credits. The end-to-end suites run them in one n8n process and in queue mode;
// these checks name the rule when a file breaks it.
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { RESOURCES } from '../../nodes/PostalService/actions/resources';
import { validateOrder } from '../../nodes/PostalService/contract/order';
import { PANEL_HTML } from '../../sandbox/panel';
import { SAMPLE_LETTER_PATH } from '../../sandbox/sample';
import {
	dataTablesOf,
	entryCredentialsOf,
	EXAMPLE_API_KEY_HEADER,
	examplesDir,
	placeholderHosts,
	readExamples,
	SYSTEMS_NODE,
	withReceiver,
	type WorkflowFile,
	type WorkflowNode,
} from '../../scripts/dev/workflows';

const examples = readExamples();
const PACKAGE = 'n8n-nodes-postal-service.';
const TRIGGER = `${PACKAGE}postalServiceTrigger`;
const STICKY = 'n8n-nodes-base.stickyNote';
const notesOf = (workflow: WorkflowFile) => workflow.nodes.filter((n) => n.type === STICKY);
/** Every note of the workflow, read together: the facts a user needs may sit beside the node they concern. */
const note = (workflow: WorkflowFile) => notesOf(workflow).map((n) => String(n.parameters.content)).join('\n\n');
/** The note a user reads first: what to create, in order. */
const SETUP = 'Setup';
const setupNote = (workflow: WorkflowFile) => String(workflow.nodes.find((n) => n.type === STICKY && n.name === SETUP)?.parameters.content ?? '');

// ---- Who can start a workflow, and what costs credits ----------------------------------------

/** Entries anyone who knows the URL can call, and how each one authenticates. */
const PUBLIC_ENTRIES: Record<string, { label: string; isPublic: (n: WorkflowNode) => boolean; authenticated: (n: WorkflowNode) => boolean }> = {
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
const SPENDING = Object.entries(RESOURCES).flatMap(([resource, { operations }]) =>
	Object.entries(operations)
		.filter(([, module]) => module.spendsCredits)
		.map(([operation, module]) => ({
			resource,
			operation,
			action: module.option.action,
			writes: module.writes === true,
			// Whether the operation takes a Maximum Price at all.
			capped: JSON.stringify(module.description).includes('"name":"maxPrice"'),
		})),
);
const WRITING = Object.entries(RESOURCES).flatMap(([resource, { operations, defaultOperation }]) =>
	Object.entries(operations)
		.filter(([, module]) => module.writes)
		.map(([operation]) => ({ resource, operation, isDefault: operation === defaultOperation })),
);

function operationOf(node: WorkflowNode): { resource: string; operation: string } | undefined {
	if (!node.type.startsWith(PACKAGE) || node.type === TRIGGER) return undefined;
	const resource = String(node.parameters.resource ?? 'order');
	const operation = String(node.parameters.operation ?? RESOURCES[resource]?.defaultOperation);
	return { resource, operation };
}
const spendingOf = (node: WorkflowNode) => {
	const op = operationOf(node);
	return op && SPENDING.find((s) => s.resource === op.resource && s.operation === op.operation);
};
const maxPriceOf = (node: WorkflowNode) => (node.parameters.additionalFields as { maxPrice?: unknown } | undefined)?.maxPrice;

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

function reachableFrom(workflow: WorkflowFile, start: string): Set<string> {
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
function spendingProblems(workflow: WorkflowFile): string[] {
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

// ---- The family: every entry kind, every spending operation, every way from one to the other -----

type Entry = { label: string; node: (auth: boolean) => WorkflowNode; isPublic: boolean };
const node = (name: string, type: string, parameters: Record<string, unknown> = {}, extra: Partial<WorkflowNode> = {}): WorkflowNode => ({
	name,
	type,
	typeVersion: 1,
	position: [0, 0],
	parameters,
	...extra,
});
const basic = { httpBasicAuth: { id: 'b', name: 'Basic' } };
const ENTRIES: Entry[] = [
	{ label: 'Webhook, Header Auth', isPublic: true, node: (auth) => node('Entry', 'n8n-nodes-base.webhook', auth ? { authentication: 'headerAuth' } : {}, auth ? { credentials: { httpHeaderAuth: { id: 'h', name: 'Header' } } } : {}) },
	{ label: 'Webhook, Basic Auth', isPublic: true, node: (auth) => node('Entry', 'n8n-nodes-base.webhook', auth ? { authentication: 'basicAuth' } : { authentication: 'none' }, auth ? { credentials: basic } : {}) },
	{ label: 'Webhook, Basic Auth without its credential', isPublic: true, node: (auth) => node('Entry', 'n8n-nodes-base.webhook', auth ? { authentication: 'basicAuth' } : {}) },
	{ label: 'Form', isPublic: true, node: (auth) => node('Entry', 'n8n-nodes-base.formTrigger', auth ? { authentication: 'basicAuth' } : {}, auth ? { credentials: basic } : {}) },
	{ label: 'public Chat, Basic Auth', isPublic: true, node: (auth) => node('Entry', '@n8n/n8n-nodes-langchain.chatTrigger', { public: true, ...(auth ? { authentication: 'basicAuth' } : {}) }, auth ? { credentials: basic } : {}) },
	{ label: 'public Chat, n8n User Auth', isPublic: true, node: (auth) => node('Entry', '@n8n/n8n-nodes-langchain.chatTrigger', { public: true, authentication: auth ? 'n8nUserAuth' : 'none' }) },
	{ label: 'Chat open only in the editor', isPublic: false, node: () => node('Entry', '@n8n/n8n-nodes-langchain.chatTrigger', { public: false }) },
];
// The Webhook "without its credential" entry is never authenticated, with or without the option.
const authWorks = (entry: Entry) => !entry.label.includes('without its credential');

type Shape = { label: string; build: (entry: WorkflowNode, spender: WorkflowNode) => WorkflowFile };
const wf = (nodes: WorkflowNode[], connections: Record<string, unknown>): WorkflowFile => ({ name: 'family', nodes, connections });
const main = (...pairs: Array<[string, string, number?]>) => {
	const connections: Record<string, { main: Array<Array<{ node: string; type: string; index: number }>> }> = {};
	for (const [from, to, output = 0] of pairs) {
		const outputs = (connections[from] ??= { main: [] }).main;
		while (outputs.length <= output) outputs.push([]);
		outputs[output].push({ node: to, type: 'main', index: 0 });
	}
	return connections;
};
const asTool = (spender: WorkflowNode) => ({ ...spender, type: `${PACKAGE}postalServiceTool` });
const SHAPES: Shape[] = [
	{ label: 'directly', build: (e, s) => wf([e, s], main([e.name, s.name])) },
	{ label: 'after a Set node', build: (e, s) => wf([e, node('Set', 'n8n-nodes-base.set'), s], main([e.name, 'Set'], ['Set', s.name])) },
	{ label: "on an If node's false branch", build: (e, s) => wf([e, node('If', 'n8n-nodes-base.if'), s], main([e.name, 'If'], ['If', s.name, 1])) },
	{ label: "on another node's error output", build: (e, s) => wf([e, node('Price', `${PACKAGE}postalService`, { resource: 'order', operation: 'getPrice' }), s], main([e.name, 'Price'], ['Price', s.name, 1])) },
	{
		label: "as an AI agent's tool",
		build: (e, s) => ({
			...wf([e, node('Agent', '@n8n/n8n-nodes-langchain.agent'), asTool(s)], main([e.name, 'Agent'])),
			connections: { ...main([e.name, 'Agent']), [s.name]: { ai_tool: [[{ node: 'Agent', type: 'ai_tool', index: 0 }]] } },
		}),
	},
	{
		label: 'in a sub-workflow the workflow calls in itself',
		build: (e, s) =>
			wf(
				[e, node('Call', 'n8n-nodes-base.executeWorkflow', { workflowId: { __rl: true, mode: 'id', value: '={{ $workflow.id }}' } }), node('Called', 'n8n-nodes-base.executeWorkflowTrigger'), s],
				main([e.name, 'Call'], ['Called', s.name]),
			),
	},
	{
		label: "in a sub-workflow an AI agent's workflow tool calls in itself",
		build: (e, s) => ({
			...wf(
				[e, node('Agent', '@n8n/n8n-nodes-langchain.agent'), node('Tool', '@n8n/n8n-nodes-langchain.toolWorkflow', { workflowId: { __rl: true, mode: 'id', value: '={{ $workflow.id }}' } }), node('Called', 'n8n-nodes-base.executeWorkflowTrigger'), s],
				{},
			),
			connections: { ...main([e.name, 'Agent'], ['Called', s.name]), Tool: { ai_tool: [[{ node: 'Agent', type: 'ai_tool', index: 0 }]] } },
		}),
	},
];

const family = ENTRIES.flatMap((entry) =>
	SPENDING.flatMap((spending) =>
		SHAPES.flatMap((shape) =>
			[false, true].flatMap((auth) =>
				[false, true].map((cap) => {
					const spender = node('Spend', `${PACKAGE}postalService`, {
						resource: spending.resource,
						operation: spending.operation,
						...(cap && spending.capped ? { additionalFields: { maxPrice: 30 } } : {}),
					});
					const authenticated = auth && authWorks(entry);
					const expected: RegExp[] = [];
					if (entry.isPublic && !authenticated) expected.push(/without authentication/);
					if (entry.isPublic && !spending.capped) expected.push(/has no Maximum Price/);
					else if (entry.isPublic && !cap) expected.push(/without Maximum Price/);
					return {
						name: `${entry.label} (${auth ? 'authenticated' : 'open'}) → ${spending.action} ${shape.label}, ${cap ? 'with' : 'without'} Maximum Price`,
						workflow: shape.build(entry.node(auth), spender),
						expected,
					};
				}),
			),
		),
	),
);

describe('the rules on spending, over every entry, spending operation and path between them', () => {
	it('know the operations that spend credits from the node', () => {
		expect(SPENDING.map((s) => s.action).sort()).toEqual(['Reprocess chat message', 'Send chat message', 'Send letter']);
		expect(SPENDING.filter((s) => s.capped).map((s) => s.action)).toEqual(['Send letter']);
		expect(family.length).toBe(ENTRIES.length * SPENDING.length * SHAPES.length * 4);
	});

	it.each(family)('$name', ({ workflow, expected }) => {
		const problems = spendingProblems(workflow);
		expect(problems, problems.join('\n')).toHaveLength(expected.length);
		for (const pattern of expected) expect(problems.join('\n')).toMatch(pattern);
	});

	it('refuse a public path into another workflow, whose spending cannot be checked here', () => {
		const workflow = wf(
			[ENTRIES[0].node(true), node('Call', 'n8n-nodes-base.executeWorkflow', { workflowId: { __rl: true, mode: 'list', value: 'x7' } })],
			main(['Entry', 'Call']),
		);
		expect(spendingProblems(workflow).join('\n')).toMatch(/another workflow .* cannot be checked/);
	});

	it('refuse a Postal Service Trigger that takes unsigned deliveries on the way to a spending node', () => {
		const trigger = node('Trigger', TRIGGER, { events: ['order.created'], environment: 'production', options: { acceptUnsigned: true } });
		const spender = node('Spend', `${PACKAGE}postalService`, { resource: 'chatMessage', operation: 'send' });
		expect(spendingProblems(wf([trigger, spender], main(['Trigger', 'Spend'])))).toHaveLength(1);
		const signed = { ...trigger, parameters: { ...trigger.parameters, options: {} } };
		expect(spendingProblems(wf([signed, spender], main(['Trigger', 'Spend'])))).toEqual([]);
	});
});

describe('the example workflows', () => {
	it('authenticate every public entry that leads to a spending node, and cap every letter on a public path', () => {
		expect(examples.length).toBeGreaterThanOrEqual(14);
		for (const { file, workflow } of examples) expect(spendingProblems(workflow), file).toEqual([]);
		// The rules above had something to check: public entries leading to spending nodes.
		const checked = examples.filter(({ workflow }) =>
			workflow.nodes.some((entry) => PUBLIC_ENTRIES[entry.type]?.isPublic(entry) && [...reachableFrom(workflow, entry.name)].some((name) => workflow.nodes.some((n) => n.name === name && spendingOf(n)))),
		);
		expect(checked.map((e) => e.file).sort()).toEqual([
			'crm-client-to-return-receipt.json',
			'crm-deal-to-letter.json',
			'form-send-letter.json',
			'mail-merge-from-csv.json',
			'send-registered-letter-from-pdf.json',
			'telegram-from-template.json',
		]);
	});

	it('name in their Setup note the credential each entry authenticates with, and the header a Header Auth one sends', () => {
		for (const { file, workflow } of examples) {
			for (const credential of entryCredentialsOf([workflow])) {
				expect(setupNote(workflow), file).toContain(`\`${credential.name}\``);
				if (credential.type === 'httpHeaderAuth') expect(setupNote(workflow), file).toContain(`\`${EXAMPLE_API_KEY_HEADER}\``);
			}
		}
	});

	it('set no Retry On Fail on a node that writes (the node refuses it), nor Maximum Price with a PDF link (the node refuses it)', () => {
		for (const { file, workflow } of examples) {
			for (const n of workflow.nodes) {
				const op = operationOf(n);
				if (!op) continue;
				if (WRITING.some((w) => w.resource === op.resource && w.operation === op.operation)) expect(n.retryOnFail, `${file}: "${n.name}"`).not.toBe(true);
				if (maxPriceOf(n) !== undefined) expect(n.parameters.pdfSource, `${file}: "${n.name}"`).not.toBe('url');
			}
		}
	});

	it("leave the trigger's options at their defaults: only Events and Environment are set", () => {
		const triggers = examples.flatMap(({ file, workflow }) => workflow.nodes.filter((n) => n.type === TRIGGER).map((n) => ({ file, n })));
		expect(triggers.length).toBeGreaterThanOrEqual(6);
		for (const { file, n } of triggers) {
			expect(Object.keys(n.parameters).sort(), file).toEqual(['environment', 'events', 'options']);
			expect(n.parameters.options, file).toEqual({});
			expect(n.parameters.environment, file).toBe('production');
		}
	});

	it('say in their note the key each one is idempotent on, and, where a data table keeps it, what still races', () => {
		for (const { file, workflow } of examples) {
			expect(note(workflow), file).toMatch(/\*\*Keys?\b/);
			if (dataTablesOf(workflow).length) expect(note(workflow), file).toMatch(/still races/);
		}
	});

	it('have names n8n takes (1 to 128 characters)', () => {
		for (const { file, workflow } of examples) {
			expect(workflow.name.length, file).toBeGreaterThan(0);
			expect(workflow.name.length, file).toBeLessThanOrEqual(128);
		}
	});

	it('keep nothing in workflow static data, which queue-mode workers start without', () => {
		for (const { file, workflow } of examples) {
			for (const n of workflow.nodes) {
				// n8n 2.41.1 enqueues a webhook's execution without the workflow's static data, and the
				// worker writes back only what that execution holds: a memory there is lost or overwritten.
				expect(JSON.stringify(n.parameters), `${file}: "${n.name}"`).not.toMatch(/\$getWorkflowStaticData/);
			}
		}
	});

	it('name in their Setup note every data table they use, with its columns, for the user to create', () => {
		const withTables = examples.filter(({ workflow }) => dataTablesOf(workflow).length > 0);
		expect(withTables.length).toBeGreaterThanOrEqual(12);
		for (const { file, workflow } of withTables) {
			for (const table of dataTablesOf(workflow)) {
				expect(table.columns.length, `${file}: ${table.name} has no column`).toBeGreaterThan(0);
				const step = setupSteps(setupNote(workflow)).find((line) => line.includes(`\`${table.name}\``));
				expect(step, `${file}: no Setup step creates ${table.name}`).toBeDefined();
				for (const column of table.columns) expect(step, `${file}: column ${column.name}`).toContain(`\`${column.name}\``);
			}
		}
	});

	it('give one table the same columns, with the same types, in every example that uses it', () => {
		const seen = new Map<string, { file: string; columns: Map<string, string> }>();
		for (const { file, workflow } of examples) {
			for (const table of dataTablesOf(workflow)) {
				const earlier = seen.get(table.name);
				for (const column of table.columns) {
					const type = earlier?.columns.get(column.name);
					if (type) expect(column.type, `${table.name}.${column.name} in ${file} and ${earlier!.file}`).toBe(type);
				}
				if (!earlier) seen.set(table.name, { file, columns: new Map(table.columns.map((c) => [c.name, c.type])) });
			}
		}
	});

	it('refuse a data table given other than by name, which a user could not create from the note', () => {
		const [{ workflow }] = examples.filter(({ file }) => file === 'chat-message-when-delivered.json');
		const byId = {
			...workflow,
			nodes: workflow.nodes.map((n) =>
				n.type === 'n8n-nodes-base.dataTable' ? { ...n, parameters: { ...n.parameters, dataTableId: { __rl: true, mode: 'id', value: 'x1' } } } : n,
			),
		};
		expect(() => dataTablesOf(byId)).toThrow(/not given by name/);
	});
});

/** The numbered steps of a Setup note (each with the lines that continue it), in the order written. */
function setupSteps(content: string): string[] {
	const after = content.split(/^### Setup$/m)[1] ?? '';
	const steps: string[] = [];
	for (const line of after.split('\n')) {
		if (/^\d+\. /.test(line)) steps.push(line);
		else if (steps.length && /^\s+\S/.test(line)) steps[steps.length - 1] += `\n${line}`;
		else if (steps.length && line.trim()) break;
	}
	return steps;
}

/** Where a node or a note sits on the canvas; a node is drawn about 100 px square from its position. */
function box(n: WorkflowNode): { left: number; top: number; right: number; bottom: number } {
	const [x, y] = n.position;
	const width = n.type === STICKY ? Number(n.parameters.width ?? 240) : 100;
	const height = n.type === STICKY ? Number(n.parameters.height ?? 160) : 100;
	return { left: x, top: y, right: x + width, bottom: y + height };
}
/** How far a note may sit from the node it explains and still read as beside it. */
const BESIDE = 320;
const beside = (note: WorkflowNode, target: WorkflowNode) => {
	const [a, b] = [box(note), box(target)];
	return b.left <= a.right + BESIDE && b.right >= a.left - BESIDE && b.top <= a.bottom + BESIDE && b.bottom >= a.top - BESIDE;
};
/** A short note says one thing about the nodes beside it; the longest of them fits a few lines on the canvas. */
const SHORT_NOTE = 900;

describe('the example notes', () => {
	it('open with one Setup note: the title, what the workflow does, then what to create first as numbered steps', () => {
		for (const { file, workflow } of examples) {
			expect(notesOf(workflow).filter((n) => n.name === SETUP), file).toHaveLength(1);
			const content = setupNote(workflow);
			expect(content, file).toMatch(/^## \S/);
			expect(content, file).toMatch(/^### Setup$/m);
			const steps = setupSteps(content);
			expect(steps.length, `${file}: numbered steps under Setup`).toBeGreaterThanOrEqual(2);
			expect(steps.map((line) => Number(/^(\d+)\./.exec(line)![1])), file).toEqual(steps.map((_, i) => i + 1));
			// The last step is the one that starts it: nothing before it can be left out.
			expect(steps.at(-1), file).toMatch(/Activate|Publish|run it|Open chat/i);
		}
	});

	it('explain the rest in short notes, each beside a node it names', () => {
		for (const { file, workflow } of examples) {
			const others = notesOf(workflow).filter((n) => n.name !== SETUP);
			expect(others.length, `${file}: notes beside the nodes`).toBeGreaterThanOrEqual(1);
			for (const n of others) {
				const content = String(n.parameters.content);
				expect(content.length, `${file}: "${n.name}" is ${content.length} characters`).toBeLessThanOrEqual(SHORT_NOTE);
				const named = workflow.nodes.filter((target) => target.type !== STICKY && content.includes(`*${target.name}*`));
				expect(named.length, `${file}: "${n.name}" names no node in *italics*`).toBeGreaterThan(0);
				expect(named.some((target) => beside(n, target)), `${file}: "${n.name}" is far from ${named.map((t) => t.name).join(', ')}`).toBe(true);
			}
		}
	});

	it('cover nothing: no note lies over another note or over a node', () => {
		const overlap = (a: ReturnType<typeof box>, b: ReturnType<typeof box>) => b.left < a.right && b.right > a.left && b.top < a.bottom && b.bottom > a.top;
		for (const { file, workflow } of examples) {
			for (const n of notesOf(workflow)) {
				for (const other of workflow.nodes.filter((o) => o !== n)) {
					expect(overlap(box(n), box(other)), `${file}: "${n.name}" lies over "${other.name}"`).toBe(false);
				}
			}
		}
	});
});

describe('the Setup steps in Portuguese', () => {
	const GUIDE = 'docs/pt-BR/README.md';
	const guide = readFileSync(path.join(examplesDir, '..', GUIDE), 'utf8');
	/** The numbered steps the Portuguese guide gives for an example, after its name in bold on a line of its own. */
	const guideSteps = (name: string) => setupSteps(`### Setup\n${guide.split(`\n**${name}**\n`)[1] ?? ''}`);
	/** What a translation keeps of a step: its code, its bold labels and its node names in italics. */
	function figures(step: string) {
		const bold = [...step.matchAll(/\*\*([^*]+?)\*\*/g)].map(([, label]) => label);
		const rest = step.replace(/\*\*[^*]+?\*\*/g, '');
		const italic = [...rest.matchAll(/(?<![\w*])\*(?![\s*])([^*]+?)(?<![\s*])\*(?![\w*])/g)].map(([, name]) => name);
		return { code: [...step.matchAll(/`([^`]+)`/g)].map(([, code]) => code).sort(), bold: bold.sort(), italic: italic.sort() };
	}

	it.each(examples.map(({ file, workflow }) => ({ file, workflow })))(`$file: ${GUIDE} gives its Setup steps, each with the same code, labels and node names`, ({ file, workflow }) => {
		const english = setupSteps(setupNote(workflow));
		const portuguese = guideSteps(file.replace(/\.json$/, ''));
		expect(portuguese.length, `${file}: steps in ${GUIDE}`).toBe(english.length);
		english.forEach((step, i) => expect(figures(portuguese[i]), `${file}, step ${i + 1}`).toEqual(figures(step)));
	});
});

describe('your own systems, in one place', () => {
	const withSystems = examples.filter(({ workflow }) => workflow.nodes.some((n) => n.name === SYSTEMS_NODE));

	it('an example that calls a team chat, a CRM or a file store takes every address from its Your systems node', () => {
		for (const { file, workflow } of examples) {
			const elsewhere = placeholderHosts({ ...workflow, nodes: workflow.nodes.filter((n) => n.name !== SYSTEMS_NODE) });
			expect(elsewhere, `${file}: an address outside "${SYSTEMS_NODE}"`).toEqual([]);
		}
		expect(withSystems.map((e) => e.file)).toEqual(expect.arrayContaining(['insufficient-credits-reprocess.json', 'nightly-reconciliation.json', 'returned-letter-to-collection.json']));
	});

	it('runs Your systems before every node that reads it, from each start of the workflow', () => {
		for (const { file, workflow } of withSystems) {
			const after = reachableFrom(workflow, SYSTEMS_NODE);
			const readers = workflow.nodes.filter((n) => JSON.stringify(n.parameters).includes(`$('${SYSTEMS_NODE}')`));
			expect(readers.length, file).toBeGreaterThan(0);
			for (const reader of readers) expect(after.has(reader.name), `${file}: "${reader.name}" may run before ${SYSTEMS_NODE}`).toBe(true);
			// Each start (a trigger, a schedule, a webhook) leads to it, so no run reads an address it never set.
			const starts = workflow.nodes.filter((n) => n.type !== STICKY && !Object.values(workflow.connections as Record<string, { main?: Array<Array<{ node: string }>> }>).some((c) => c.main?.flat().some((t) => t.node === n.name)));
			for (const start of starts.filter((s) => [...reachableFrom(workflow, s.name)].some((name) => readers.some((r) => r.name === name)))) {
				expect(reachableFrom(workflow, start.name).has(SYSTEMS_NODE), `${file}: "${start.name}" reaches a reader without ${SYSTEMS_NODE}`).toBe(true);
			}
		}
	});

	it('pointed at a receiver there, calls no placeholder address any more', () => {
		for (const { file, workflow } of withSystems) {
			expect(placeholderHosts(workflow).length, file).toBeGreaterThan(0);
			const pointed = withReceiver(workflow, 'http://127.0.0.1:4010/_receiver');
			expect(placeholderHosts(pointed), file).toEqual([]);
			const values = JSON.stringify(pointed.nodes.find((n) => n.name === SYSTEMS_NODE)!.parameters);
			expect(values, file).toMatch(/http:\/\/127\.0\.0\.1:4010\/_receiver\/(chat|crm|files)\//);
		}
	});
});

describe('the round trip in the walkthroughs', () => {
	const ROUND_TRIP = 'crm-client-to-return-receipt.json';
	const workflow = examples.find((e) => e.file === ROUND_TRIP)!.workflow;
	const root = path.join(examplesDir, '..');
	const dev = readFileSync(path.join(root, 'scripts/dev/dev.ts'), 'utf8');
	const fields = (workflow.nodes.find((n) => n.name === 'Client fields')!.parameters.assignments as { assignments: Array<{ name: string }> }).assignments.map((a) => a.name);

	it.each([
		{ page: 'docs/first-registered-letter.md', title: 'From the CRM to the AR' },
		{ page: 'docs/pt-BR/primeira-carta-registrada.md', title: 'Do CRM ao AR' },
	])("$page ends with '$title': the example, every field of the record, the banner's call and the panel's records", ({ page, title }) => {
		const last = readFileSync(path.join(root, page), 'utf8').split(/^## /m).at(-1)!;
		expect(last.split('\n')[0]).toBe(title);
		expect(last).toContain(`examples/${ROUND_TRIP})`);
		for (const field of fields) expect(last, field).toContain(`\`${field}\``);
		expect(last).toContain('**CRM round trip**');
		expect(dev).toContain('`  CRM round trip:');
		expect(last).toContain('*Records of your CRM*');
		expect(PANEL_HTML).toContain('<h2>Records of your CRM</h2>');
		for (const button of ['Assign tracking code', 'Add tracking event', 'Add return receipt']) {
			expect(last).toContain(`**${button}**`);
			expect(PANEL_HTML).toContain(`<button>${button}</button>`);
		}
	});

	it('is pointed at by the banner, for a Portuguese reader', () => {
		expect(dev).toContain('docs/pt-BR/primeira-carta-registrada.md');
		expect(dev).toContain(`'${ROUND_TRIP}'`);
	});
});

describe('the mail merge sample', () => {
	const merge = examples.find((e) => e.file === 'mail-merge-from-csv.json')!.workflow;
	const [header, ...lines] = readFileSync(path.join(examplesDir, 'mail-merge-sample.csv'), 'utf8').trimEnd().split('\n');
	const columns = header.split(',');
	// No field of the sample holds a comma or a quote, so a split reads it as n8n's Extract From File does.
	const rows = lines.map((line, i) => ({ row: i + 2, ...Object.fromEntries(line.split(',').map((value, c) => [columns[c], value])) }) as Record<string, string> & { row: number });

	it('has the columns the example reads and the sandbox PDF, as npm run dev serves it, on every row', () => {
		expect(columns).toEqual(['name', 'street', 'number', 'complement', 'zip', 'city', 'state', 'pdf_url']);
		for (const column of columns) expect(note(merge)).toContain(`\`${column}\``);
		expect(rows.length).toBeGreaterThanOrEqual(3);
		for (const row of rows) expect(row.pdf_url).toBe(`http://127.0.0.1:4010${SAMPLE_LETTER_PATH}`);
	});

	it('has exactly one row the node refuses, the one the note names, for its postal code', () => {
		const price = merge.nodes.find((n) => n.name === 'Get letter price')!;
		const refused = rows
			.map((row) => {
				const fields = { shipType: String(price.parameters.shipType), name: row.name, addr1: row.street, street_number: row.number, addr2: row.complement, zip: row.zip, city: row.city, state: row.state, country: 'Brasil' };
				return { row, problems: validateOrder(fields, { kind: 'url', url: row.pdf_url }) };
			})
			.filter((r) => r.problems.length > 0);
		expect(refused.map((r) => [r.row.row, r.problems.map((p) => p.field)])).toEqual([[4, ['zip']]]);
		expect(note(merge)).toContain(`row 4 (${refused[0].row.name})`);
	});

	it("is posted by the curl line of the note, to the example's path, with its API key header", () => {
		const webhookPath = merge.nodes.find((n) => n.type === 'n8n-nodes-base.webhook')!.parameters.path;
		const curl = /`(curl [^`]+)`/.exec(note(merge))?.[1] ?? '';
		expect(curl).toContain(`-H '${EXAMPLE_API_KEY_HEADER}: <your key>'`);
		expect(curl).toMatch(/-F batch=\S+/);
		expect(curl).toContain("-F 'data=@examples/mail-merge-sample.csv;type=text/csv'");
		expect(curl).toMatch(new RegExp(`http://localhost:5678/webhook/${webhookPath}$`));
	});
});
