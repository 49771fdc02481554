/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
// A scripted stand-in for an OpenAI-compatible chat model on 127.0.0.1, for n8n's OpenAI Chat Model
// node. It answers /chat/completions (plain JSON) with the turns of a script,
// as a model that calls tools would, and keeps every request it received: the tools n8n offered,
// their JSON schemas and what each tool answered.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ToolCall {
	name: string;
	arguments: Record<string, unknown>;
}

/** One answer of the model: call tools, or say something and stop. */
export type Turn = { toolCalls: ToolCall[] } | { text: string };

export interface OfferedTool {
	type: 'function';
	function: { name: string; description?: string; parameters?: JsonSchema };
}

export interface JsonSchema {
	type?: string;
	properties?: Record<string, JsonSchema & { description?: string }>;
	required?: string[];
	[key: string]: unknown;
}

interface Message {
	role: string;
	content?: string | Array<{ type: string; text?: string }> | null;
	tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
	tool_call_id?: string;
}

export interface ChatCompletionRequest {
	model: string;
	messages: Message[];
	tools?: OfferedTool[];
	stream?: boolean;
	[key: string]: unknown;
}

/** What the model has seen so far in one conversation, for turns that depend on it. */
export interface Conversation {
	userText: string;
	tools: OfferedTool[];
	/** Each tool call the model made and what came back, in order. */
	toolResults: Array<{ name: string; arguments: Record<string, unknown>; content: string }>;
}

export interface Script {
	name: string;
	/** Whether a conversation is this script's, by the user's first message. */
	matches(userText: string): boolean;
	/** Turn n answers the request that already holds n answers of the model. */
	turns: Array<(conversation: Conversation) => Turn>;
}

export interface RecordedRequest {
	method: string;
	path: string;
	authorization?: string;
	body?: ChatCompletionRequest;
	/** The user's first message of the conversation. */
	userText?: string;
	script?: string;
	turn?: number;
	answer?: Turn;
	/** Why the server refused to answer: a script that does not fit what n8n sent. */
	problem?: string;
}

const textOf = (content: Message['content']) =>
	typeof content === 'string' ? content : (content ?? []).map((part) => part.text ?? '').join('');

function conversationOf(body: ChatCompletionRequest): Conversation {
	const calls = new Map<string, ToolCall>();
	const toolResults: Conversation['toolResults'] = [];
	for (const message of body.messages) {
		for (const call of message.tool_calls ?? []) {
			calls.set(call.id, { name: call.function.name, arguments: JSON.parse(call.function.arguments || '{}') as Record<string, unknown> });
		}
		if (message.role === 'tool') {
			const call = calls.get(message.tool_call_id ?? '');
			toolResults.push({ name: call?.name ?? '?', arguments: call?.arguments ?? {}, content: textOf(message.content) });
		}
	}
	const user = body.messages.find((m) => m.role === 'user');
	return { userText: textOf(user?.content), tools: body.tools ?? [], toolResults };
}

/** A tool call a real model could make: the tool is offered and the arguments fit its schema. */
function checkToolCall(call: ToolCall, tools: OfferedTool[]): string | undefined {
	const tool = tools.find((t) => t.function.name === call.name);
	if (!tool) return `the script calls "${call.name}", but n8n offered only ${JSON.stringify(tools.map((t) => t.function.name))}`;
	const schema = tool.function.parameters ?? {};
	const known = Object.keys(schema.properties ?? {});
	const unknown = Object.keys(call.arguments).filter((k) => !known.includes(k));
	const missing = (schema.required ?? []).filter((k) => !(k in call.arguments));
	if (unknown.length || missing.length) {
		return `arguments of "${call.name}" do not fit its schema: unknown ${JSON.stringify(unknown)}, missing ${JSON.stringify(missing)}`;
	}
	return undefined;
}

export class ChatModelServer {
	readonly requests: RecordedRequest[] = [];
	private readonly scripts: Script[] = [];
	private readonly documents = new Map<string, { bytes: Buffer; type: string }>();
	private server?: Server;
	private calls = 0;
	port = 0;

	constructor(readonly apiKey: string) {}

	/** The credential's Base URL. */
	get baseUrl() {
		return `http://127.0.0.1:${this.port}/v1`;
	}

	async start(): Promise<void> {
		const server = createServer((req, res) => {
			this.handle(req, res).catch((error: Error) => {
				if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
				res.end(JSON.stringify({ error: { message: error.message, type: 'server_error' } }));
			});
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		this.server = server;
		this.port = (server.address() as AddressInfo).port;
	}

	async stop(): Promise<void> {
		const server = this.server;
		if (!server) return;
		this.server = undefined;
		server.closeAllConnections();
		await new Promise<void>((resolve) => server.close(() => resolve()));
	}

	use(script: Script): void {
		this.scripts.push(script);
	}

	/** A file the user points the agent to; served at the returned URL. */
	addDocument(name: string, bytes: Buffer, type = 'application/pdf'): string {
		this.documents.set(name, { bytes, type });
		return `http://127.0.0.1:${this.port}/documents/${encodeURIComponent(name)}`;
	}

	/** Completion requests of one script, in the order they came. */
	requestsOf(script: string): RecordedRequest[] {
		return this.requests.filter((r) => r.script === script);
	}

	private async handle(req: IncomingMessage, res: ServerResponse) {
		const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
		const document = path.startsWith('/documents/') ? this.documents.get(decodeURIComponent(path.slice('/documents/'.length))) : undefined;
		if (req.method === 'GET' && document) {
			res.writeHead(200, { 'content-type': document.type, 'content-length': document.bytes.length });
			res.end(document.bytes);
			return;
		}
		const recorded: RecordedRequest = { method: req.method ?? 'GET', path, authorization: req.headers.authorization };
		this.requests.push(recorded);
		if (req.headers.authorization !== `Bearer ${this.apiKey}`) {
			return json(res, 401, { error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' } });
		}
		if (req.method === 'GET' && path.endsWith('/models')) {
			return json(res, 200, { object: 'list', data: [{ id: 'scripted-model', object: 'model', created: 0, owned_by: 'postal-service-e2e' }] });
		}
		if (req.method !== 'POST' || !path.endsWith('/chat/completions')) {
			return json(res, 404, { error: { message: `no route ${req.method} ${path}`, type: 'invalid_request_error' } });
		}
		const body = JSON.parse(await readBody(req)) as ChatCompletionRequest;
		recorded.body = body;
		const answered = this.answer(body, recorded);
		if ('problem' in answered) {
			recorded.problem = answered.problem;
			return json(res, 400, { error: { message: `scripted model: ${answered.problem}`, type: 'invalid_request_error' } });
		}
		recorded.answer = answered.turn;
		const id = `chatcmpl-${++this.calls}`;
		// The example's chat answers when the last node ends: n8n asks for no stream then.
		if (body.stream) return json(res, 400, { error: { message: 'scripted model: streaming is not scripted', type: 'invalid_request_error' } });
		return json(res, 200, completion(id, body, answered.turn));
	}

	private answer(body: ChatCompletionRequest, recorded: RecordedRequest): { turn: Turn } | { problem: string } {
		const conversation = conversationOf(body);
		recorded.userText = conversation.userText;
		const script = this.scripts.find((s) => s.matches(conversation.userText));
		if (!script) return { problem: `no script for the message ${JSON.stringify(conversation.userText.slice(0, 200))}` };
		const index = body.messages.filter((m) => m.role === 'assistant').length;
		recorded.script = script.name;
		recorded.turn = index;
		const next = script.turns[index];
		if (!next) return { problem: `script "${script.name}" has no turn ${index}` };
		const turn = next(conversation);
		if ('toolCalls' in turn) {
			for (const call of turn.toolCalls) {
				const problem = checkToolCall(call, conversation.tools);
				if (problem) return { problem };
			}
		}
		return { turn };
	}
}

function readBody(req: IncomingMessage): Promise<string> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
		req.on('error', reject);
	});
}

function json(res: ServerResponse, status: number, body: unknown) {
	const text = JSON.stringify(body);
	res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
	res.end(text);
}

// Rough token counts: n8n shows them, nothing here depends on them.
function usage(body: ChatCompletionRequest, turn: Turn) {
	const prompt_tokens = Math.ceil(JSON.stringify(body.messages).length / 4);
	const completion_tokens = Math.ceil(JSON.stringify(turn).length / 4);
	return { prompt_tokens, completion_tokens, total_tokens: prompt_tokens + completion_tokens };
}

const callId = (id: string, index: number) => `call_${id.replace(/\D/g, '')}_${index}`;

function completion(id: string, body: ChatCompletionRequest, turn: Turn) {
	const message =
		'toolCalls' in turn
			? {
					role: 'assistant',
					content: null,
					tool_calls: turn.toolCalls.map((call, index) => ({
						id: callId(id, index),
						type: 'function',
						function: { name: call.name, arguments: JSON.stringify(call.arguments) },
					})),
				}
			: { role: 'assistant', content: turn.text };
	return {
		id,
		object: 'chat.completion',
		created: Math.floor(Date.now() / 1000),
		model: body.model,
		choices: [{ index: 0, message, logprobs: null, finish_reason: 'toolCalls' in turn ? 'tool_calls' : 'stop' }],
		usage: usage(body, turn),
	};
}
