// What the example files must not do with a user's credits, over every entry, spending operation and
// path between them, and what they may rely on in every topology a user runs them in. The end-to-end
// suites run them in one n8n process and in queue mode; these checks name the rule when a file breaks it.
import { describe, expect, it } from 'vitest';

import { RESOURCES } from '../../nodes/PostalService/actions/resources';
import type { WorkflowFile, WorkflowNode } from '../../scripts/dev/workflows';
import { examples, maxPriceOf, operationOf, PACKAGE, PUBLIC_ENTRIES, reachableFrom, SPENDING, spendingOf, spendingProblems, TRIGGER } from './exampleGraph';

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
	// Which operations spend is held to the node by test/node/panel.test.ts; here which of them take a cap.
	it('know the operations that take a Maximum Price from the node', () => {
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

	it('set no Retry On Fail on a node that writes (the node refuses it), nor Maximum Price with a PDF link (the node refuses it)', () => {
		for (const { file, workflow } of examples) {
			for (const n of workflow.nodes) {
				const op = operationOf(n);
				if (!op) continue;
				if (RESOURCES[op.resource]?.operations[op.operation]?.writes) expect(n.retryOnFail, `${file}: "${n.name}"`).not.toBe(true);
				if (maxPriceOf(n) !== undefined) expect(n.parameters.pdfSource, `${file}: "${n.name}"`).not.toBe('url');
			}
		}
	});

	it("leave the trigger's options at their defaults: only Events and Environment are set", () => {
		const triggers = examples.flatMap(({ file, workflow }) => workflow.nodes.filter((n) => n.type === TRIGGER).map((n) => ({ file, n })));
		expect(triggers.length).toBeGreaterThanOrEqual(6);
		for (const { file, n } of triggers) {
			expect(n.parameters, file).toEqual({ events: expect.any(Array), environment: 'production', options: {} });
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
});
