/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
// A stand-in for the user's own systems (a team chat's incoming webhook, a CRM's API, a file store):
// the examples that post to them can run against the sandbox, and the panel shows what they posted;
// a file PUT at a path is given back by a GET of that path, as the link a workflow wrote promises.
import type { IncomingHttpHeaders } from 'node:http';

import type { Reply } from './http';
import { saoPauloDateTime, sha256Hex } from './util';

/** Everything under this path is taken and recorded: `<base>/_receiver/chat/hooks/alerts`, `<base>/_receiver/crm/api/...`. */
export const RECEIVER_PATH = '/_receiver';
/** How much of a body is kept as text; the size and digest are of the whole body. */
export const RECEIVED_TEXT_LIMIT = 100_000;
/** Arrivals kept, oldest dropped first: a long `npm run dev` session does not grow without end. */
export const RECEIVED_LIMIT = 1_000;
/** Files kept to be read back (the last PUT of each path), oldest dropped first. */
export const KEPT_FILES_LIMIT = 200;

export interface Received {
	id: number;
	/** `Y-m-d H:i:s`, São Paulo time, as the panel shows every time. */
	at: string;
	method: string;
	/** The path under `/_receiver`, with its query: `/chat/hooks/alerts`. */
	path: string;
	contentType: string;
	size: number;
	sha256: string;
	/** The body as UTF-8 text (JSON, forms, text); binary bodies are described, not kept. */
	body: string;
	/** The body parsed, when it is JSON. */
	json?: unknown;
}

export type ReceivedFilter = { method?: string; path?: string } | ((received: Received) => boolean);

const TEXTUAL = /json|text|xml|x-www-form-urlencoded/i;

export class Receiver {
	arrivals: Received[] = [];
	/** What a PUT stored, by path without the query: a file store or a CRM's attachment gives it back on a GET. */
	private files = new Map<string, { contentType: string; body: Buffer }>();
	private nextId = 1;

	take(method: string, pathWithQuery: string, headers: IncomingHttpHeaders, raw: Buffer): Reply {
		const path = pathWithQuery.slice(RECEIVER_PATH.length) || '/';
		const file = method === 'GET' ? this.files.get(path.split('?')[0]) : undefined;
		// Reading a stored file back is not something a workflow sent: it is answered, not recorded.
		if (file) return { status: 200, body: null, raw: file.body, headers: { 'content-type': file.contentType || 'application/octet-stream' } };
		const contentType = String(headers['content-type'] ?? '');
		const textual = raw.length === 0 || TEXTUAL.test(contentType);
		const arrival: Received = {
			id: this.nextId++,
			at: saoPauloDateTime(),
			method,
			path,
			contentType,
			size: raw.length,
			sha256: sha256Hex(raw),
			body: textual ? raw.toString('utf8').slice(0, RECEIVED_TEXT_LIMIT) : `(${raw.length} bytes of ${contentType || 'unknown type'})`,
		};
		if (/json/i.test(contentType) && raw.length > 0) {
			try {
				arrival.json = JSON.parse(raw.toString('utf8'));
			} catch {
				// kept as text: the panel shows what came, valid or not
			}
		}
		this.arrivals.push(arrival);
		if (this.arrivals.length > RECEIVED_LIMIT) this.arrivals.splice(0, this.arrivals.length - RECEIVED_LIMIT);
		if (method === 'PUT') {
			const kept = path.split('?')[0];
			this.files.delete(kept);
			this.files.set(kept, { contentType, body: raw });
			if (this.files.size > KEPT_FILES_LIMIT) this.files.delete(this.files.keys().next().value!);
		}
		// What a chat's incoming webhook or a CRM's API typically answers: a success with an id.
		return { status: 200, body: { ok: true, id: `received-${arrival.id}` } };
	}

	list(filter?: ReceivedFilter): Received[] {
		const all = structuredClone(this.arrivals);
		if (!filter) return all;
		if (typeof filter === 'function') return all.filter(filter);
		return all.filter(
			(r) =>
				(!filter.method || r.method === filter.method.toUpperCase()) &&
				(filter.path === undefined || r.path.split('?')[0] === filter.path || r.path.startsWith(filter.path.endsWith('/') ? filter.path : `${filter.path}/`)),
		);
	}

	clear(): void {
		this.arrivals = [];
		this.files.clear();
		this.nextId = 1;
	}
}
