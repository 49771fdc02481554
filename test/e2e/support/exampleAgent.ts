// The AI agent example: as shipped, with a scripted OpenAI-compatible model on 127.0.0.1 choosing
// the tool calls through n8n's chat webhook, and its Send letter sub-workflow called directly. What
// the agent reads when a tool fails is proven on every release's engine by test/releases/tool.test.ts.
import { randomUUID } from 'node:crypto';

import { expect } from 'vitest';

import { activateWorkflow, createWorkflow, dataTableRows, upsertCredential, waitForWebhook, type WorkflowFile, type WorkflowNode } from '../../../scripts/dev/workflows';
import { ChatModelServer, type Conversation, type Turn } from './chatModelServer';
import type { E2eEnvironment } from './environment';
import { example, finishedExecutions, importAndActivate, postJson, sampleLetterUrl } from './examples';
import { expectSecretsInNoExecution } from './secrets';
import { pdfOfSize } from './service';

/**
 * The agent with a scripted model: the price in one message, the send once the user agrees in the
 * next one. The model is given the second message after the first exchange only because the
 * example's Simple Memory keeps it (the scripted model takes a conversation by its first message).
 */
export async function aiAgentConfirmsInALaterMessage(env: E2eEnvironment, skip: (reason: string) => void): Promise<void> {
	// Simple Memory lives in one process: in queue mode two messages may run on two workers, which is
	// why the example's note says to use a Postgres or Redis chat memory there.
	if (env.topology === 'queue') return skip('Simple Memory is not shared between queue-mode workers (the example says so)');
	const model = new ChatModelServer(`sk-examples-${randomUUID()}`);
	await model.start();
	try {
		const pdfUrl = model.addDocument('notice.pdf', await pdfOfSize(0, 'Notificação'));
		const openAi = await upsertCredential(env.client, { name: 'OpenAI account', type: 'openAiApi', data: { apiKey: model.apiKey, url: model.baseUrl, header: false } });
		const shipped = example('ai-agent-registered-letter.json');
		// Shared for the test only, as the note says to before making it public (there with Authentication).
		const workflow = {
			...shipped,
			name: `${shipped.name} (shared chat)`,
			nodes: shipped.nodes.map((n) => (n.type === '@n8n/n8n-nodes-langchain.chatTrigger' ? { ...n, webhookId: randomUUID(), parameters: { ...n.parameters, public: true, mode: 'hostedChat' } } : n)),
		};
		const id = await importAndActivate(env, workflow, [...env.credentials, openAi]);
		const chatUrl = `${env.webhookUrl}/webhook/${workflow.nodes.find((n) => n.type === '@n8n/n8n-nodes-langchain.chatTrigger')!.webhookId}/chat`;
		await waitForWebhook(chatUrl);
		const letter = agentLetter('Júlia Moraes', pdfUrl);
		const first = `Send the PDF at ${pdfUrl} as a registered letter to Júlia Moraes, Rua Augusta 500, Apto 12, 01305-000 São Paulo SP. Tell me the price first.`;
		// What the user has said so far; the model answers the latest message.
		let agreed = false;
		const decide = (conversation: Conversation): Turn => {
			const quote = conversation.toolResults.find((r) => r.name === 'Get_letter_price');
			const sent = conversation.toolResults.find((r) => r.name === 'Send_letter');
			if (!agreed) {
				if (!quote) return { toolCalls: [{ name: 'Get_letter_price', arguments: letter }] };
				return { text: `It costs R$ ${/"value":\s*([\d.]+)/.exec(quote.content)?.[1]}. Shall I send it?` };
			}
			if (!sent) return { toolCalls: [{ name: 'Send_letter', arguments: letter }] };
			return { text: `Sent: ${sent.content}` };
		};
		model.use({ name: 'confirm in a later message', matches: (text) => text === first, turns: Array.from({ length: 8 }, () => decide) });
		const sessionId = randomUUID();
		const say = async (chatInput: string) => {
			const answer = await postJson(chatUrl, { action: 'sendMessage', sessionId, chatInput });
			expect(answer.status, answer.text).toBe(200);
			return String(answer.json?.output);
		};
		const orders = () => env.sandbox.control.orders().filter((o) => o.name === 'Júlia Moraes');
		expect(await say(first)).toMatch(/^It costs R\$ [\d.]+\. Shall I send it\?$/);
		expect(orders()).toHaveLength(0);
		agreed = true;
		const reply = await say('Yes, send it.');
		const [order] = orders();
		expect(order).toMatchObject({ shipType: 2, tag: 'ai-agent' });
		expect(reply).toContain(String(order.id));
		// The second message reached the model after the first exchange, from the memory.
		const requests = model.requestsOf('confirm in a later message');
		const secondMessage = requests.find((r) => r.body?.messages.at(-1)?.content === 'Yes, send it.');
		const said = (secondMessage?.body?.messages ?? []).filter((m) => m.role === 'user' || (m.role === 'assistant' && typeof m.content === 'string' && m.content));
		expect(said.map((m) => `${m.role}: ${String(m.content)}`)).toEqual([`user: ${first}`, expect.stringMatching(/^assistant: It costs R\$ [\d.]+\. Shall I send it\?$/), 'user: Yes, send it.']);
		expect(requests.map((r) => r.problem).filter(Boolean)).toEqual([]);
		// n8n offers both tools with the example's descriptions and the $fromAI parameters as a JSON schema.
		const tools = requests[0].body!.tools!;
		expect(tools.map((t) => t.function.name).sort()).toEqual(['Get_letter_price', 'Send_letter']);
		for (const tool of tools) {
			const node = shipped.nodes.find((n) => n.name.replaceAll(' ', '_') === tool.function.name)!;
			// A Postal Service tool's Tool Description, or the Description of the workflow tool that sends.
			expect(tool.function.description).toBe(node.parameters.toolDescription ?? node.parameters.description);
			const properties = tool.function.parameters?.properties ?? {};
			expect(Object.keys(properties).sort()).toEqual(Object.keys(letter).sort());
			expect([...(tool.function.parameters?.required ?? [])].sort()).toEqual(Object.keys(properties).sort());
			for (const [key, property] of Object.entries(properties)) expect(property.type === 'string' && Boolean(property.description), key).toBe(true);
		}
		await finishedExecutions(env, id, 3);
		// Two chat runs and the send's sub-workflow run: neither the account token nor the model's key in any.
		expect(await expectSecretsInNoExecution(env.client, [env.token, model.apiKey], { workflowIds: [id] })).toBe(3);
		await env.client.api('POST', `/workflows/${id}/deactivate`);
	} finally {
		await model.stop();
	}
}

/** A letter as the AI agent example's Send letter tool takes it, to an address in São Paulo. */
function agentLetter(name: string, pdfUrl: string) {
	return {
		Recipient_Name: name,
		Recipient_Street: 'Rua Augusta',
		Recipient_Number: '500',
		Recipient_Complement: 'Apto 12',
		Recipient_Postal_Code: '01305-000',
		Recipient_City: 'São Paulo',
		Recipient_State: 'SP',
		PDF_URL: pdfUrl,
	};
}

/**
 * The agent's Send letter without a model: the letter the tool would pass, given to the workflow's
 * own "When the agent sends a letter" by a caller workflow, as the tool calls it.
 * (aiAgentConfirmsInALaterMessage runs the model's side.)
 */
export async function aiAgentSendsThroughItself(env: E2eEnvironment): Promise<void> {
	const agent = example('ai-agent-registered-letter.json');
	// The chat part needs a model's credential; only the sub-workflow runs here.
	const called = { ...agent, name: `${agent.name} (called part)`, nodes: agent.nodes.filter((n) => !n.type.startsWith('@n8n/')), connections: Object.fromEntries(Object.entries(agent.connections).filter(([from]) => !from.startsWith('When chat') && !['OpenAI Chat Model', 'Simple Memory', 'Get letter price', 'Send letter'].includes(from))) };
	const agentId = await importAndActivate(env, called);
	const path = `agent-letter-${randomUUID()}`;
	const letter = { ...agentLetter('Ana Pereira', sampleLetterUrl(env)), Chat_Session: randomUUID() };
	const node = (name: string, type: string, typeVersion: number, parameters: Record<string, unknown>, extra: Partial<WorkflowNode> = {}): WorkflowNode => ({ name, type, typeVersion, position: [0, 0], parameters, ...extra });
	const caller: WorkflowFile = {
		name: `Calls ${agent.name}`,
		nodes: [
			node('Hook', 'n8n-nodes-base.webhook', 2, { httpMethod: 'POST', path, responseMode: 'lastNode', options: {} }, { webhookId: randomUUID() }),
			node('Call', 'n8n-nodes-base.executeWorkflow', 1.2, {
				workflowId: { __rl: true, mode: 'id', value: agentId },
				workflowInputs: { mappingMode: 'defineBelow', value: Object.fromEntries(Object.keys(letter).map((k) => [k, `={{ $json.body.${k} }}`])), matchingColumns: [], schema: Object.keys(letter).map((k) => ({ id: k, displayName: k, type: 'string', display: true, required: false, defaultMatch: false, canBeUsedToMatch: true })) },
				options: {},
			}),
		],
		connections: { Hook: { main: [[{ node: 'Call', type: 'main', index: 0 }]] } },
	};
	const { id: callerId } = await createWorkflow(env.client, caller, env.credentials);
	await activateWorkflow(env.client, callerId);
	const url = `${env.webhookUrl}/webhook/${path}`;
	await waitForWebhook(url);
	const ask = (value: typeof letter) => postJson(url, value);
	try {
		const first = await ask(letter);
		expect(first.status, first.text).toBe(200);
		const orderId = String(first.json?.id);
		expect(env.sandbox.control.order(orderId)).toMatchObject({ shipType: 2, name: 'Ana Pereira', tag: 'ai-agent' });
		// The PDF was downloaded once, and those bytes were priced (Maximum Price) and sent.
		const posts = env.sandbox.control.requests({ method: 'POST', path: '/api/v2/post' }).filter((r) => r.fields.tag === 'ai-agent').slice(-2);
		expect(posts.map((p) => [p.fields.test ?? '0', p.fields.pdfFile, p.files.length])).toEqual([
			['1', undefined, 1],
			['0', undefined, 1],
		]);
		expect(posts[0].files[0].sha256).toBe(posts[1].files[0].sha256);
		// The same letter asked again in the same chat (a model calling the tool twice): no second letter.
		const again = await ask(letter);
		expect(again.json).toMatchObject({ alreadySent: true, id: orderId });
		expect(env.sandbox.control.orders().filter((o) => o.tag === 'ai-agent' && o.name === 'Ana Pereira' && o.id === orderId)).toHaveLength(1);
		const rows = (await dataTableRows(env.client, 'postal_agent_letters')).filter((r) => String(r.letter_key).startsWith(letter.Chat_Session));
		expect(rows).toEqual([expect.objectContaining({ status: 'sent', order_id: orderId })]);
		await finishedExecutions(env, callerId, 2);
	} finally {
		await env.client.api('POST', `/workflows/${callerId}/deactivate`).catch(() => undefined);
		await env.client.api('DELETE', `/workflows/${callerId}`).catch(() => undefined);
	}
}
