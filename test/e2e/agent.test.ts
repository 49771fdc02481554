/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
// n8n's own AI Agent using the Postal Service Tool in a real n8n, with a scripted OpenAI-compatible
// model on 127.0.0.1 choosing the tool calls: the example workflow, imported as users import it.
// What the agent reads when the tool fails (a bad field, the service's refusal) is proven on every
// release's engine by test/releases/tool.test.ts; here the chat's answer through n8n's own server.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
	activateWorkflow,
	createDataTables,
	createWorkflow,
	readExamples,
	upsertCredential,
	waitForWebhook,
	type WorkflowFile,
	type WorkflowNode,
} from '../../scripts/workflows';
import { priceThenSend, PRICE_TOOL, SEND_TOOL, type Letter } from './support/agentScripts';
import { ChatModelServer, type OfferedTool, type RecordedRequest } from './support/chatModelServer';
import { getExecution, listExecutions, startEnvironment, waitFor, type E2eEnvironment, type Execution } from './support/environment';
import { expectSecretsInNoExecution } from './support/secrets';
import { pdfOfSize } from './support/service';

const EXAMPLE = 'ai-agent-registered-letter.json';
const artifacts = path.join(__dirname, 'artifacts');

let env: E2eEnvironment;
let model: ChatModelServer;
let pdfUrl: string;
/** The bytes of the PDF at pdfUrl. */
let pdfSha: string;
/** The workflow of each chat response mode: as the example ships (lastNode), and streaming. */
const workflows: Record<'lastNode' | 'streaming', { id: string; url: string }> = {} as never;

function example(): WorkflowFile {
	const found = readExamples().find((e) => e.file === EXAMPLE);
	if (!found) throw new Error(`examples/${EXAMPLE} is missing`);
	return found.workflow;
}

const CHAT_TRIGGER = '@n8n/n8n-nodes-langchain.chatTrigger';
const POSTAL_TOOL = 'n8n-nodes-postal-service.postalServiceTool';

/** A variant of the example, under its own name and chat webhook. */
function variant(workflow: WorkflowFile, label: string, change: (node: WorkflowNode) => WorkflowNode): WorkflowFile {
	const nodes = workflow.nodes.map((node) => change(node.type === CHAT_TRIGGER ? { ...node, webhookId: randomUUID() } : node));
	return { ...workflow, name: `${workflow.name} (${label})`, nodes };
}

const withResponseMode = (workflow: WorkflowFile, responseMode: string) =>
	variant(workflow, responseMode, (node) =>
		node.type === CHAT_TRIGGER ? { ...node, parameters: { ...node.parameters, options: { ...(node.parameters.options as object), responseMode } } } : node,
	);

/** The tools as a user adds them: Tool Description left on "Set Automatically". */
/** The chat shared the way the example's note says to before making it public: open to anyone here. */
const asSharedChat = (workflow: WorkflowFile) =>
	variant(workflow, 'shared chat', (node) => (node.type === CHAT_TRIGGER ? { ...node, parameters: { ...node.parameters, public: true, mode: 'hostedChat' } } : node));

const withAutomaticToolDescriptions = (workflow: WorkflowFile) =>
	variant(workflow, 'automatic tool descriptions', (node) => {
		if (node.type !== POSTAL_TOOL) return node;
		const { toolDescription: _, ...parameters } = node.parameters;
		return { ...node, parameters: { ...parameters, descriptionType: 'auto' } };
	});

const imported: string[] = [];
let credentials: E2eEnvironment['credentials'];

async function importChat(workflow: WorkflowFile) {
	// The data table its Send letter reserves each letter in, as its note asks a user to create.
	await createDataTables(env.client, workflow);
	const { id } = await createWorkflow(env.client, workflow, credentials);
	imported.push(id);
	await activateWorkflow(env.client, id);
	const trigger = workflow.nodes.find((n) => n.type === CHAT_TRIGGER)!;
	const url = `${env.webhookUrl}/webhook/${trigger.webhookId}/chat`;
	await waitForWebhook(url);
	return { id, url };
}

beforeAll(async () => {
	env = await startEnvironment();
	model = new ChatModelServer(`sk-e2e-${randomBytes(16).toString('hex')}`);
	await model.start();
	const pdf = await pdfOfSize(0, 'Notificação');
	pdfSha = createHash('sha256').update(pdf).digest('hex');
	pdfUrl = model.addDocument('notice.pdf', pdf);
	const openAi = await upsertCredential(env.client, {
		name: 'OpenAI account',
		type: 'openAiApi',
		data: { apiKey: model.apiKey, url: model.baseUrl, header: false },
	});
	credentials = [...env.credentials, openAi];
	workflows.lastNode = await importChat(asSharedChat(example()));
	workflows.streaming = await importChat(withResponseMode(asSharedChat(example()), 'streaming'));
});

afterAll(async () => {
	if (model) {
		// Every request as n8n sent it, for reading what the agent saw; the key itself stays out.
		const requests = model.requests.map(({ authorization, ...rest }) => ({ ...rest, authorized: authorization === `Bearer ${model.apiKey}` }));
		writeArtifact('agent-model-requests.json', `${JSON.stringify(requests, null, '\t')}\n`);
	}
	await model?.stop();
	await env?.stop();
});

/** Sends one chat message the way n8n's chat widget does; returns the agent's reply text. */
async function chat(url: string, message: string): Promise<string> {
	const response = await fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ action: 'sendMessage', sessionId: randomUUID(), chatInput: message }),
	});
	const body = await response.text();
	expect(response.status, body).toBe(200);
	try {
		return String((JSON.parse(body) as { output: unknown }).output);
	} catch {
		// Streaming: one JSON object per line, the text in the "item" chunks.
		const chunks = body.split('\n').filter(Boolean).map((line) => JSON.parse(line) as { type: string; content?: string });
		return chunks.filter((c) => c.type === 'item').map((c) => c.content ?? '').join('');
	}
}

/** The one execution a chat message started, once finished. */
async function executionAfter(workflowId: string, before: Set<string>): Promise<Execution> {
	const summary = await waitFor(
		async () => {
			// Send letter runs the workflow's own sub-workflow, an execution of its own ("integrated").
			const fresh = (await listExecutions(env.client, { workflowId })).filter((e) => !before.has(e.id) && e.mode !== 'integrated');
			return fresh.length === 1 && fresh[0].status !== 'running' && fresh[0].status !== 'new' ? fresh[0] : undefined;
		},
		`the execution of workflow ${workflowId}`,
		60_000,
	);
	return await getExecution(env.client, summary.id);
}

async function runChat(mode: keyof typeof workflows, message: string) {
	const { id, url } = workflows[mode];
	const before = new Set((await listExecutions(env.client, { workflowId: id })).map((e) => e.id));
	const ordersBefore = env.sandbox.control.orders().length;
	const postsBefore = env.sandbox.control.requests({ method: 'POST', path: '/api/v2/post' }).length;
	const reply = await chat(url, message);
	const execution = await executionAfter(id, before);
	return {
		reply,
		execution,
		newOrders: env.sandbox.control.orders().slice(ordersBefore),
		posts: env.sandbox.control.requests({ method: 'POST', path: '/api/v2/post' }).slice(postsBefore),
	};
}

function letterTo(name: string, zip: string): Letter {
	return {
		Recipient_Name: name,
		Recipient_Street: 'Rua Augusta',
		Recipient_Number: '500',
		Recipient_Complement: 'Apto 12',
		Recipient_Postal_Code: zip,
		Recipient_City: 'São Paulo',
		Recipient_State: 'SP',
		PDF_URL: pdfUrl,
	};
}

/** What the model received as the answer of a tool call, from the request that followed it. */
function toolResultSeen(requests: RecordedRequest[], tool: string): string {
	const messages = requests.at(-1)?.body?.messages ?? [];
	const callIds = messages.flatMap((m) => m.tool_calls ?? []).filter((c) => c.function.name === tool).map((c) => c.id);
	const result = messages.find((m) => m.role === 'tool' && callIds.includes(m.tool_call_id ?? ''));
	expect(result, `no result of ${tool} reached the model`).toBeDefined();
	return typeof result!.content === 'string' ? result!.content : JSON.stringify(result!.content);
}

function expectScriptFollowed(requests: RecordedRequest[], turns: number, streamed: boolean) {
	expect(requests.map((r) => r.problem).filter(Boolean)).toEqual([]);
	expect(requests.map((r) => r.turn)).toEqual([...Array(turns).keys()]);
	for (const request of requests) {
		expect(request.authorization).toBe(`Bearer ${model.apiKey}`);
		expect(Boolean(request.body?.stream)).toBe(streamed);
	}
}

const toolSchemas: Record<string, OfferedTool[]> = {};
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe.each(['lastNode', 'streaming'] as const)('an AI agent with the Postal Service Tool (chat response mode %s)', (mode) => {
	it('prices a registered letter, sends it once and reports the order id', async () => {
		const letter = letterTo(`Ana Pereira ${mode}`, '01305-000');
		const prompt = `Send the PDF at ${pdfUrl} as a registered letter to ${letter.Recipient_Name}, Rua Augusta 500, Apto 12, 01305-000 São Paulo SP, if it costs at most R$ 50. Tell me the price and the order id.`;
		const script = `price then send (${mode})`;
		model.use(priceThenSend(script, prompt, letter, 50));

		const { reply, execution, newOrders, posts } = await runChat(mode, prompt);
		const requests = model.requestsOf(script);
		expectScriptFollowed(requests, 3, mode === 'streaming');
		toolSchemas[mode] = requests[0].body!.tools!;

		expect(execution.status, JSON.stringify(execution.data?.resultData.error)).toBe('success');
		expect(newOrders).toHaveLength(1);
		const [order] = newOrders;
		expect(order).toMatchObject({
			shipType: 2,
			name: letter.Recipient_Name,
			addr1: letter.Recipient_Street,
			street_number: letter.Recipient_Number,
			addr2: letter.Recipient_Complement,
			zip: '01305000',
			city: letter.Recipient_City,
			state: letter.Recipient_State,
			country: 'Brasil',
			tag: 'ai-agent',
			pdf_available: true,
		});
		// The agent's quote, Send letter's own check against its Maximum Price, and one create: the
		// letter went out once.
		expect(posts.map((p) => p.fields.test ?? '0')).toEqual(['1', '1', '0']);
		// The quote takes the link; Send letter downloads it once and prices and sends those bytes.
		expect(posts.map((p) => p.fields.pdfFile ?? p.files.map((f) => f.sha256).join())).toEqual([pdfUrl, pdfSha, pdfSha]);

		const quoted = toolResultSeen(requests, PRICE_TOOL);
		expect(quoted).toContain(String(order.value));
		const sent = toolResultSeen(requests, SEND_TOOL);
		expect(sent).toContain(`"id":"${String(order.id)}"`);
		expect(reply).toContain(`order ${String(order.id)}`);
		expect(reply).toContain(`R$ ${Number(order.value).toFixed(2)}`);
		const runData = execution.data!.resultData.runData;
		expect(runData['Get letter price']).toHaveLength(1);
		expect(runData['Send letter']).toHaveLength(1);
	});
});

describe('what the agent was given', () => {
	it('offers both tools with their descriptions and the $fromAI parameters as a JSON schema', () => {
		const tools = toolSchemas.lastNode;
		expect(tools, 'the pricing test did not run').toBeDefined();
		writeArtifact('agent-tool-schema.json', `${JSON.stringify(tools, null, '\t')}\n`);
		console.log(`[e2e] the tool schema n8n sent to the model:\n${JSON.stringify(tools, null, 2)}`);
		expect(tools.map((t) => t.function.name).sort()).toEqual([PRICE_TOOL, SEND_TOOL]);
		const workflow = example();
		for (const tool of tools) {
			const node = workflow.nodes.find((n) => n.name.replaceAll(' ', '_') === tool.function.name)!;
			// A Postal Service tool's Tool Description, or the Description of the workflow tool that sends.
			expect(tool.function.description).toBe(node.parameters.toolDescription ?? node.parameters.description);
			const properties = tool.function.parameters?.properties ?? {};
			expect(Object.keys(properties).sort()).toEqual(Object.keys(letterTo('', '')).sort());
			expect([...(tool.function.parameters?.required ?? [])].sort()).toEqual(Object.keys(properties).sort());
			for (const [key, property] of Object.entries(properties)) {
				expect(property.type, key).toBe('string');
				expect(property.description, key).toBeTruthy();
			}
		}
		// Streaming or not, n8n offers the same tools.
		expect(sha256(JSON.stringify(toolSchemas.streaming))).toBe(sha256(JSON.stringify(tools)));
	});

	it('describes each tool by its operation\'s action when Tool Description is left on "Set Automatically"', async () => {
		const { url } = await importChat(withAutomaticToolDescriptions(asSharedChat(example())));
		const prompt = 'Which tools do you have?';
		model.use({ name: 'automatic descriptions', matches: (text) => text === prompt, turns: [() => ({ text: 'Two postal tools.' })] });
		expect(await chat(url, prompt)).toBe('Two postal tools.');
		const [request] = model.requestsOf('automatic descriptions');
		const offered = Object.fromEntries(request.body!.tools!.map((t) => [t.function.name, t.function.description]));
		writeArtifact('agent-tool-descriptions-automatic.json', `${JSON.stringify(offered, null, '\t')}\n`);
		console.log(`[e2e] tool descriptions n8n makes by itself: ${JSON.stringify(offered)}`);
		// n8n writes "<the operation's action> in <the node's default name>".
		const actions = await orderActions();
		expect(offered).toEqual({
			[PRICE_TOOL]: `${actions.getPrice} in Postal Service`,
			// Send letter is a workflow tool (it downloads the PDF before sending): its own description stays.
			[SEND_TOOL]: example().nodes.find((n) => n.name === 'Send letter')!.parameters.description,
		});
	});
});

/** The action labels of the order operations, as the tool node type declares them. */
async function orderActions(): Promise<Record<string, string>> {
	const response = await fetch(`${env.client.baseUrl}/types/nodes.json`, { headers: { cookie: env.client.cookie } });
	type Property = { name: string; displayOptions?: { show?: Record<string, unknown[]> }; options?: Array<{ value: string; action?: string }> };
	const types = (await response.json()) as Array<{ name: string; properties: Property[] }>;
	// n8n describes a tool by the action of the node it wraps, not the tool variant's own texts.
	const tool = types.find((t) => t.name === POSTAL_TOOL.replace(/Tool$/, ''))!;
	const operation = tool.properties.find((p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes('order'))!;
	return Object.fromEntries((operation.options ?? []).map((o) => [o.value, o.action ?? '']));
}

describe('secrets', () => {
	it("neither the account token nor the model's API key appears in any execution of the agent workflows", async () => {
		const searched = await expectSecretsInNoExecution(env.client, [env.token, model.apiKey], { workflowIds: imported });
		// Three chat runs, and the two sends' sub-workflow runs.
		expect(searched).toBe(5);
	});
});

function writeArtifact(name: string, content: string) {
	mkdirSync(artifacts, { recursive: true });
	writeFileSync(path.join(artifacts, name), content);
}
