/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
/** The check's only way to the service: plain fetch, the token kept out of everything it prints. */
import { redactSecrets } from '../../nodes/PostalService/transport/redact';
import { serviceUrl } from '../../nodes/PostalService/transport/url';

export interface Target {
	baseUrl: string;
	email: string;
	token: string;
}

export interface Answer {
	status: number;
	// The service's envelopes differ per route; each probe reads the fields it checks.
	body: any;
}

export interface RequestInput {
	query?: Record<string, string>;
	headers?: Record<string, string>;
	json?: unknown;
	form?: FormData;
	basic?: boolean;
}

export class Client {
	readonly calls: string[] = [];

	constructor(readonly target: Target) {}

	async send(method: string, path: string, input: RequestInput = {}): Promise<Answer> {
		// The node's own join: a Base URL's path (such as /homolog-api) is kept, as the node keeps it.
		const url = new URL(serviceUrl(this.target.baseUrl, path.replace('{token}', encodeURIComponent(this.target.token))));
		for (const [name, value] of Object.entries(input.query ?? {})) url.searchParams.set(name, value);
		const headers: Record<string, string> = { accept: 'application/json', ...input.headers };
		if (input.basic) {
			headers.authorization = `Basic ${Buffer.from(`${this.target.email}:${this.target.token}`).toString('base64')}`;
		}
		let body: string | FormData | undefined;
		if (input.json !== undefined) {
			headers['content-type'] = 'application/json';
			body = JSON.stringify(input.json);
		} else if (input.form) {
			body = input.form;
		}
		this.calls.push(`${method} ${path.split('?')[0]}`);
		let response: Response;
		try {
			response = await fetch(url, { method, headers, body, redirect: 'manual', signal: AbortSignal.timeout(30_000) });
		} catch (error) {
			// No answer (refused, reset, timed out): reported as such, never taken for a refusal.
			const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
			return { status: 0, body: `no answer: ${cause}` };
		}
		const text = await response.text();
		let parsed: unknown = text;
		try {
			parsed = JSON.parse(text);
		} catch {
			// not JSON: the text is the answer
		}
		return { status: response.status, body: parsed };
	}

	/**
	 * An answer in a line: the token hidden in every form the node's own redaction knows, before
	 * anything is shortened (a shortened string could keep part of it); then long strings (files in
	 * base64) shortened.
	 */
	show(answer: Answer): string {
		// Each string is cleaned before JSON escapes its characters again, then the whole line.
		const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body, (_key, value: unknown) => (typeof value === 'string' ? this.redact(value) : value));
		const clean = this.redact(`${answer.status} ${text ?? ''}`);
		return clean.replace(/[^\s"]{61,}/g, (long) => `${long.slice(0, 24)}…(${long.length} chars)`).slice(0, 160);
	}

	redact(text: string): string {
		return redactSecrets(text, [this.target.token, `${this.target.email}:${this.target.token}`]);
	}
}
