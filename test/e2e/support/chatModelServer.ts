// A scripted stand-in for an OpenAI-compatible chat model on 127.0.0.1, for n8n's OpenAI Chat Model
// node: each /chat/completions request is answered with the turn the script picks from the tool
// results so far, as a model that calls tools would, and kept with the tools n8n offered.
import { startHttpServer } from '../../harness/httpServer';

/** One answer of the model: call tools, or say something and stop. */
export type Turn = { toolCalls: Array<{ name: string; arguments: Record<string, unknown> }> } | { text: string };

/** Each tool the model called in the conversation so far, and what it answered, in order. */
export type ToolResults = Array<{ name: string; content: string }>;

interface CompletionRequest {
	model: string;
	messages: Array<{ role: string; content?: unknown; tool_calls?: Array<{ id: string; function: { name: string } }>; tool_call_id?: string }>;
	tools?: Array<{ function: { name: string; description?: string; parameters?: { properties?: Record<string, { type?: string; description?: string }>; required?: string[] } } }>;
}

export async function startChatModel(apiKey: string, script: (results: ToolResults) => Turn) {
	const requests: CompletionRequest[] = [];
	const server = await startHttpServer((req, res) => {
		// Anything else than a completion with the credential's key fails the chat's run, and so the case.
		if (req.headers.authorization !== `Bearer ${apiKey}` || req.method !== 'POST' || !req.url.endsWith('/chat/completions')) {
			res.writeHead(req.headers.authorization === `Bearer ${apiKey}` ? 404 : 401).end(JSON.stringify({ error: { message: `scripted model: no ${req.method} ${req.url} with this key` } }));
			return;
		}
		const body = JSON.parse(req.body) as CompletionRequest;
		requests.push(body);
		const called = new Map(body.messages.flatMap((m) => m.tool_calls ?? []).map((c) => [c.id, c.function.name]));
		const turn = script(body.messages.filter((m) => m.role === 'tool').map((m) => ({ name: called.get(m.tool_call_id ?? '') ?? '?', content: String(m.content) })));
		const calls = 'toolCalls' in turn ? turn.toolCalls : [];
		const message = {
			role: 'assistant',
			content: 'text' in turn ? turn.text : null,
			...(calls.length ? { tool_calls: calls.map((c, i) => ({ id: `call_${requests.length}_${i}`, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.arguments) } })) } : {}),
		};
		res.writeHead(200, { 'content-type': 'application/json' });
		res.end(JSON.stringify({ id: `chatcmpl-${requests.length}`, object: 'chat.completion', created: 0, model: body.model, choices: [{ index: 0, message, finish_reason: calls.length ? 'tool_calls' : 'stop' }] }));
	});
	return { apiKey, baseUrl: `${server.url}/v1`, requests, stop: server.close };
}
