/** Reads what came back and holds it against the route's envelope and shape (contract/routes.ts). */
import type { IDataObject } from 'n8n-workflow';
import type { ZodIssue, ZodTypeAny } from 'zod';

import { ENVELOPES, type EnvelopeName, type Route } from '../contract/routes';

export type Answer =
	| { kind: 'json'; value: unknown }
	| { kind: 'empty' }
	| { kind: 'html'; title?: string }
	| { kind: 'text' };

export function readAnswer(raw: unknown): Answer {
	if (raw !== null && typeof raw === 'object' && !Buffer.isBuffer(raw)) return { kind: 'json', value: raw };
	if (typeof raw === 'number' || typeof raw === 'boolean') return { kind: 'json', value: raw };
	const text = Buffer.isBuffer(raw) ? raw.toString('utf8') : raw === undefined || raw === null ? '' : String(raw);
	if (!text.trim()) return { kind: 'empty' };
	try {
		return { kind: 'json', value: JSON.parse(text) };
	} catch {
		if (/^\s*</.test(text)) {
			const title = /<title[^>]*>([^<]{0,80})/i.exec(text)?.[1]?.trim();
			return { kind: 'html', title: title || undefined };
		}
		return { kind: 'text' };
	}
}

interface Enveloped {
	name: EnvelopeName;
	body: IDataObject;
}

/** The answer read as the route's envelope (for `auto`, whichever of the three fits), if it is one. */
export function envelopeOf(answer: Answer, expected: Route['envelope']): Enveloped | undefined {
	if (answer.kind !== 'json') return undefined;
	const value = answer.value;
	const candidates: EnvelopeName[] = expected === 'auto' ? ['A', 'B', 'C'] : [expected];
	for (const name of candidates) {
		if (ENVELOPES[name].safeParse(value).success) return { name, body: value as IDataObject };
	}
	return undefined;
}

export function isSuccess(enveloped: Enveloped): boolean {
	const { name, body } = enveloped;
	if (name === 'A') return (body.status as number) >= 200 && (body.status as number) < 300;
	if (name === 'B') return body.status === 'success';
	return body.success === true;
}

/** The HTTP code an envelope reports for itself (A and B carry one; a failed C is a refusal). */
export function envelopeCode(enveloped: Enveloped | undefined, statusCode: number): number {
	if (statusCode >= 200 && statusCode < 300 && enveloped) {
		const code = enveloped.name === 'A' ? enveloped.body.status : enveloped.name === 'B' ? enveloped.body.code : undefined;
		if (typeof code === 'number' && (code < 200 || code >= 300)) return code;
		return 400;
	}
	return statusCode;
}

/** The route's payload (`data` of envelopes A and B, the whole answer of C) held against its shape. */
export function checkShape(enveloped: Enveloped, shape: ZodTypeAny): { ok: true; data: unknown } | { ok: false; issues: ZodIssue[] } {
	const inData = enveloped.name !== 'C';
	const result = shape.safeParse(inData ? enveloped.body.data : enveloped.body);
	if (result.success) return { ok: true, data: result.data };
	const prefix = inData ? ['data'] : [];
	return { ok: false, issues: result.error.issues.map((issue) => ({ ...issue, path: [...prefix, ...issue.path] })) };
}

/** In a few words, what came back, for the error description. */
export function describeAnswer(answer: Answer, issues: ZodIssue[] = []): string {
	switch (answer.kind) {
		case 'empty':
			return 'an empty body';
		case 'html':
			return `a web page${answer.title ? ` ("${answer.title}")` : ''}, not JSON`;
		case 'text':
			return 'text that is not JSON';
		case 'json': {
			if (issues.length === 0) return 'JSON that is not one of the service\'s envelopes';
			const listed = issues.slice(0, 4).map((issue) => `${issue.path.join('.') || 'the answer'}: ${issue.message}`);
			return `JSON that does not match what the service sends (${listed.join('; ')}${issues.length > 4 ? '; ...' : ''})`;
		}
	}
}
