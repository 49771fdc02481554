/** The check's only way to the service: plain fetch, the token kept out of everything it prints. */
export interface Target {
	baseUrl: string;
	email: string;
	token: string;
}

export interface Answer {
	status: number;
	// The service's envelopes differ per route; each probe reads the fields it checks.
	// eslint-disable-next-line @typescript-eslint/no-explicit-any
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
		const url = new URL(path.replace('{token}', encodeURIComponent(this.target.token)), this.target.baseUrl);
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
		const response = await fetch(url, { method, headers, body, redirect: 'manual', signal: AbortSignal.timeout(30_000) });
		const text = await response.text();
		let parsed: unknown = text;
		try {
			parsed = JSON.parse(text);
		} catch {
			// not JSON: the text is the answer
		}
		return { status: response.status, body: parsed };
	}

	/** An answer in a line: long strings (files in base64) shortened, the token and e-mail hidden. */
	show(answer: Answer): string {
		const short = JSON.stringify(answer.body, (_key, value: unknown) =>
			typeof value === 'string' && value.length > 60 && !/\s/.test(value) ? `${value.slice(0, 24)}…(${value.length} chars)` : value,
		);
		return this.redact(`${answer.status} ${short ?? ''}`).slice(0, 160);
	}

	redact(text: string): string {
		const secrets = [this.target.token, encodeURIComponent(this.target.token)].filter((s) => s.length > 0);
		return secrets.reduce((out, secret) => out.split(secret).join('<token>'), text);
	}
}
