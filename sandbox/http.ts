/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
import type { IncomingHttpHeaders } from 'node:http';

import { requestId } from './util';

export interface UploadedFile {
	field: string;
	fileName: string;
	mimeType: string;
	data: Buffer;
}

export interface Ctx {
	method: string;
	path: string;
	query: Record<string, string>;
	headers: IncomingHttpHeaders;
	/** The parsed body: form fields (strings) or the JSON object. */
	fields: Record<string, unknown>;
	files: UploadedFile[];
	/** `form`, `multipart`, `json`, `none` or `other`. */
	bodyKind: 'form' | 'multipart' | 'json' | 'none' | 'other';
	/** Who is calling, for counting failed authentications. */
	client: string;
	/** Path parameters captured by the route pattern. */
	params: string[];
}

export interface Reply {
	status: number;
	body: unknown;
	headers?: Record<string, string>;
	/** Raw bytes (static files); `body` is ignored when set. */
	raw?: Buffer;
}

/** Which of the spec's error envelopes a route answers with. */
export type Family = 'A' | 'B' | 'logo' | 'C';

export function envelopeA(status: number, message: string, data: unknown = null): Reply {
	return { status, body: { status, status_message: message, data } };
}

export function envelopeB(code: number, message: string, data: unknown = null, extra: Record<string, unknown> = {}): Reply {
	return {
		status: code,
		body: { code, status: code < 400 ? 'success' : 'error', message, data, ...extra, request_id: requestId() },
	};
}

export function envelopeLogo(code: number, message: string, data: unknown = null): Reply {
	return { status: code, body: { code, status: code < 400 ? 'success' : 'error', message, data } };
}

export function envelopeC(status: number, success: boolean, message: string, favorite?: unknown): Reply {
	return { status, body: favorite === undefined ? { success, message } : { success, message, favorite } };
}

const ERROR_REPLIES: Record<Family, (status: number, message: string) => Reply> = {
	A: (status, message) => envelopeA(status, message),
	B: (status, message) => envelopeB(status, message),
	logo: (status, message) => envelopeLogo(status, message),
	C: (status, message) => envelopeC(status, false, message),
};

export function errorReply(family: Family, status: number, message: string): Reply {
	return ERROR_REPLIES[family](status, message);
}

export class BodyError extends Error {}

/** Parses a request body the way the service accepts them: form, multipart or JSON. */
export async function parseBody(
	contentType: string,
	raw: Buffer,
): Promise<{ kind: Ctx['bodyKind']; fields: Record<string, unknown>; files: UploadedFile[] }> {
	const type = contentType.split(';')[0].trim().toLowerCase();
	if (raw.length === 0 && !type) return { kind: 'none', fields: {}, files: [] };
	if (type === 'application/x-www-form-urlencoded') {
		const fields: Record<string, unknown> = {};
		for (const [key, value] of new URLSearchParams(raw.toString('utf8'))) fields[key] = value;
		return { kind: 'form', fields, files: [] };
	}
	if (type === 'multipart/form-data') {
		let form: FormData;
		try {
			form = await new Request('http://sandbox.invalid/', {
				method: 'POST',
				headers: { 'content-type': contentType },
				body: raw,
			}).formData();
		} catch {
			throw new BodyError('multipart/form-data inválido');
		}
		const fields: Record<string, unknown> = {};
		const files: UploadedFile[] = [];
		for (const [key, value] of form) {
			if (typeof value === 'string') {
				fields[key] = value;
			} else {
				files.push({
					field: key,
					fileName: value.name,
					mimeType: value.type || 'application/octet-stream',
					data: Buffer.from(await value.arrayBuffer()),
				});
			}
		}
		return { kind: 'multipart', fields, files };
	}
	if (type === 'application/json' || type.endsWith('+json')) {
		if (raw.length === 0) return { kind: 'json', fields: {}, files: [] };
		try {
			const parsed: unknown = JSON.parse(raw.toString('utf8'));
			if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
				throw new BodyError('o corpo JSON deve ser um objeto');
			}
			return { kind: 'json', fields: parsed as Record<string, unknown>, files: [] };
		} catch (error) {
			throw error instanceof BodyError ? error : new BodyError('JSON inválido');
		}
	}
	return { kind: raw.length === 0 ? 'none' : 'other', fields: {}, files: [] };
}

/** Form and JSON values as text (numbers and booleans of a JSON body included). */
export function text(value: unknown): string | undefined {
	if (value === undefined || value === null) return undefined;
	if (typeof value === 'string') return value;
	if (typeof value === 'number' || typeof value === 'boolean') return String(value);
	return undefined;
}

/** `user:password` of an HTTP Basic header, or null. */
export function basicCredentials(headers: IncomingHttpHeaders): { user: string; password: string } | null {
	const header = headers.authorization;
	if (!header || !/^basic\s+/i.test(header)) return null;
	const decoded = Buffer.from(header.replace(/^basic\s+/i, '').trim(), 'base64').toString('utf8');
	const colon = decoded.indexOf(':');
	if (colon === -1) return null;
	return { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}
