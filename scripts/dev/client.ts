// The two doors into a running n8n: the editor's REST API and the public API.
import { DEFAULT_OWNER, type Owner } from './common';

export class HttpError extends Error {
	constructor(
		readonly status: number,
		readonly body: unknown,
		message: string,
	) {
		super(message);
	}
}

/** The two doors into n8n: the editor's REST API (login cookie) and the public API (API key). */
export class N8nClient {
	cookie = '';
	apiKey = '';

	constructor(public baseUrl: string) {}

	private async call(url: string, init: RequestInit & { json?: unknown }, what: string) {
		const headers = new Headers(init.headers);
		if (init.json !== undefined) {
			headers.set('content-type', 'application/json');
			init.body = JSON.stringify(init.json);
		}
		const response = await fetch(url, { ...init, headers });
		const text = await response.text();
		let body: unknown = text;
		try {
			body = text ? JSON.parse(text) : undefined;
		} catch {
			// not JSON
		}
		if (!response.ok) throw new HttpError(response.status, body, `${what} ${init.method ?? 'GET'} ${new URL(url).pathname} -> ${response.status}: ${text.slice(0, 500)}`);
		return { response, body };
	}

	/** Editor REST API (`/rest/...`); unwraps n8n's `{ data }` envelope. */
	async rest<T = unknown>(method: string, route: string, json?: unknown): Promise<T> {
		const { body } = await this.call(`${this.baseUrl}/rest${route}`, { method, json, headers: this.cookie ? { cookie: this.cookie } : {} }, 'n8n REST');
		return (body && typeof body === 'object' && 'data' in body ? (body as { data: T }).data : body) as T;
	}

	/** Public API (`/api/v1/...`). */
	async api<T = unknown>(method: string, route: string, json?: unknown): Promise<T> {
		const { body } = await this.call(`${this.baseUrl}/api/v1${route}`, { method, json, headers: { 'X-N8N-API-KEY': this.apiKey } }, 'n8n public API');
		return body as T;
	}

	/** Creates the owner on a fresh instance, or logs in on one that already has it. */
	async signIn(owner: Owner = DEFAULT_OWNER): Promise<void> {
		const settings = await this.rest<{ userManagement?: { showSetupOnFirstLoad?: boolean } }>('GET', '/settings');
		if (settings.userManagement?.showSetupOnFirstLoad) {
			await this.rest('POST', '/owner/setup', owner);
		}
		const { response } = await this.call(
			`${this.baseUrl}/rest/login`,
			{ method: 'POST', json: { emailOrLdapLoginId: owner.email, password: owner.password } },
			'n8n login',
		);
		const cookies = response.headers.getSetCookie().map((c) => c.split(';')[0]);
		const auth = cookies.find((c) => c.startsWith('n8n-auth='));
		if (!auth) throw new Error('n8n login answered without an n8n-auth cookie');
		this.cookie = auth;
	}

	/** A fresh public-API key with every scope the owner may grant, never expiring. */
	async createApiKey(label = 'postal-service'): Promise<string> {
		// Labels are unique per user and a key is shown only once: replace an earlier one.
		type Key = { id: string; label: string };
		const listed = await this.rest<Key[] | { items: Key[] }>('GET', '/api-keys');
		const existing = Array.isArray(listed) ? listed : (listed.items ?? []);
		for (const key of existing.filter((k) => k.label === label)) await this.rest('DELETE', `/api-keys/${key.id}`);
		// Releases before API-key scopes (n8n 1.x) have no scopes route; their keys may do everything.
		const scopes = await this.rest<string[]>('GET', '/api-keys/scopes').catch((error: unknown) => {
			if (error instanceof HttpError && error.status === 404) return undefined;
			throw error;
		});
		const created = await this.rest<{ rawApiKey: string }>('POST', '/api-keys', { label, ...(scopes ? { scopes } : {}), expiresAt: null });
		this.apiKey = created.rawApiKey;
		return this.apiKey;
	}
}

/** A client signed in as the owner with a fresh public-API key, as every start of n8n here needs. */
export async function signedInClient(baseUrl: string, keyLabel?: string): Promise<N8nClient> {
	const client = new N8nClient(baseUrl);
	await client.signIn();
	await client.createApiKey(keyLabel);
	return client;
}
