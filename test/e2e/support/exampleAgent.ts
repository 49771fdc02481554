// The AI agent example: as shipped, with a scripted OpenAI-compatible model on 127.0.0.1 choosing
// the tool calls through n8n's chat webhook. What the agent reads when a tool fails is proven on
// every release's engine by test/releases/tool.test.ts.
import { randomUUID } from 'node:crypto';

import { expect } from 'vitest';

import { dataTableRows, upsertCredential } from '../../../scripts/dev/workflows';
import { startChatModel, type ToolResults, type Turn } from './chatModelServer';
import type { E2eEnvironment } from './environment';
import { example, finishedExecutions, importExample, postJson, sampleLetterUrl } from './examples';
import { expectSecretsInNoExecution } from './secrets';

/**
 * The agent with a scripted model: the price in one message, the send once the user agrees in the
 * next one, and the same letter sent again as a model may call a tool twice. The model is given
 * the first exchange with the second message only because the example's Simple Memory keeps it.
 */
export async function aiAgentConfirmsInALaterMessage(env: E2eEnvironment, skip: (reason: string) => void): Promise<void> {
	// Simple Memory lives in one process: in queue mode two messages may run on two workers, which is
	// why the example's note says to use a Postgres or Redis chat memory there.
	if (env.topology === 'queue') return skip('Simple Memory is not shared between queue-mode workers (the example says so)');
	const pdfUrl = sampleLetterUrl(env);
	const letter = {
		Recipient_Name: 'Júlia Moraes',
		Recipient_Street: 'Rua Augusta',
		Recipient_Number: '500',
		Recipient_Complement: 'Apto 12',
		Recipient_Postal_Code: '01305-000',
		Recipient_City: 'São Paulo',
		Recipient_State: 'SP',
		PDF_URL: pdfUrl,
	};
	// What the user has said so far; the model answers the latest message.
	let agreed = false;
	let sentAgain = '';
	const decide = (results: ToolResults): Turn => {
		const quote = results.find((r) => r.name === 'Get_letter_price');
		const sends = results.filter((r) => r.name === 'Send_letter');
		if (!agreed) {
			if (!quote) return { toolCalls: [{ name: 'Get_letter_price', arguments: letter }] };
			return { text: `It costs R$ ${/"value":\s*([\d.]+)/.exec(quote.content)?.[1]}. Shall I send it?` };
		}
		if (sends.length < 2) return { toolCalls: [{ name: 'Send_letter', arguments: letter }] };
		sentAgain = sends[1].content;
		return { text: `Sent: ${sends[0].content}` };
	};
	const model = await startChatModel(`sk-examples-${randomUUID()}`, decide);
	try {
		const openAi = await upsertCredential(env.client, { name: 'OpenAI account', type: 'openAiApi', data: { apiKey: model.apiKey, url: model.baseUrl, header: false } });
		const shipped = example('ai-agent-registered-letter.json');
		// Shared for the test only, as the note says to before making it public (there with Authentication).
		const workflow = {
			...shipped,
			name: `${shipped.name} (shared chat)`,
			nodes: shipped.nodes.map((n) => (n.type === '@n8n/n8n-nodes-langchain.chatTrigger' ? { ...n, webhookId: randomUUID(), parameters: { ...n.parameters, public: true, mode: 'hostedChat' } } : n)),
		};
		const { id, url: chatUrl } = await importExample(env, workflow, [...env.credentials, openAi]);
		const first = `Send the PDF at ${pdfUrl} as a registered letter to Júlia Moraes, Rua Augusta 500, Apto 12, 01305-000 São Paulo SP. Tell me the price first.`;
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
		// The Send letter tool runs the workflow's own sub-workflow: the PDF downloaded once, and those
		// bytes priced (Maximum Price) and sent; called again for the same letter in the chat, it sends nothing.
		const posts = env.sandbox.control.requests({ method: 'POST', path: '/api/v2/post' }).filter((r) => r.fields.tag === 'ai-agent').slice(-2);
		expect(posts.map((p) => [p.fields.test ?? '0', p.fields.pdfFile, p.files.length])).toEqual([
			['1', undefined, 1],
			['0', undefined, 1],
		]);
		expect(posts[0].files[0].sha256).toBe(posts[1].files[0].sha256);
		expect(sentAgain).toMatch(/"alreadySent":\s*true/);
		expect(sentAgain).toContain(String(order.id));
		expect(orders()).toHaveLength(1);
		const rows = (await dataTableRows(env.client, 'postal_agent_letters')).filter((r) => String(r.letter_key).startsWith(sessionId));
		expect(rows).toEqual([expect.objectContaining({ status: 'sent', order_id: String(order.id) })]);
		// The second message reached the model after the first exchange, from the memory.
		const secondMessage = model.requests.find((r) => r.messages.at(-1)?.content === 'Yes, send it.');
		const said = (secondMessage?.messages ?? []).filter((m) => m.role === 'user' || (m.role === 'assistant' && typeof m.content === 'string' && m.content));
		expect(said.map((m) => `${m.role}: ${String(m.content)}`)).toEqual([`user: ${first}`, expect.stringMatching(/^assistant: It costs R\$ [\d.]+\. Shall I send it\?$/), 'user: Yes, send it.']);
		// n8n offers both tools with the example's descriptions and the $fromAI parameters as a JSON schema,
		// which the script's calls fit: their arguments are the letter's fields, each a described string.
		const tools = model.requests[0].tools!;
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
		await finishedExecutions(env, id, 4);
		// Two chat runs and the two runs of the send's sub-workflow: neither the account token nor the model's key in any.
		expect(await expectSecretsInNoExecution(env.client, [env.token, model.apiKey], { workflowIds: [id] })).toBe(4);
		await env.client.api('POST', `/workflows/${id}/deactivate`);
	} finally {
		await model.stop();
	}
}
