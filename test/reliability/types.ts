/**
 * The reliability suite: each `*.suite.ts` file in this folder exports `suite`, which runs one
 * family of adversarial cases against the real nodes (n8n's engine, the sandbox over HTTP) and
 * reports counts. The runner names each row after its suite, starts and stops the suite's
 * sandboxes, prints every row as one table and fails when any `bad` count is not 0.
 */
import type { IDataObject } from 'n8n-workflow';

import type { Sandbox, SandboxOptions } from '../../sandbox';
import { type Outcome, SECRET } from '../trigger/support';

export interface ReliabilityRow {
	/** The family, e.g. "Forgery fuzz". */
	suite: string;
	/** What was tried in this row, e.g. "bit flips of signed bodies". */
	case: string;
	/** How many inputs, deliveries or runs the row covers. */
	runs: number;
	/** What the row measures, e.g. "executions started by a forged delivery". */
	measure: string;
	/** The count of outcomes that break a promise. Must be 0. */
	bad: number;
	/** Optional further figure, e.g. "executions = 1,204 = distinct ids". */
	note?: string;
}

export interface SuiteContext {
	/** Seed for property-based generators, so a failing run can be reproduced (`--seed`). */
	seed: number;
	/** Scales the number of generated cases (1 = the figures the README states). */
	scale: number;
	log(message: string): void;
	/** A sandbox on a port of its own (quiet, with a large balance unless told), stopped when the suite ends. */
	sandbox(options: SandboxOptions): Promise<Sandbox>;
}

/** A row as a suite reports it; the runner adds the suite's name where the row gives none. */
export type SuiteRow = Omit<ReliabilityRow, 'suite'> & { suite?: string };

export interface ReliabilitySuite {
	name: string;
	run(context: SuiteContext): Promise<SuiteRow[]>;
}

/** Runs the action node once through n8n's engine, loaded only once the runner has set the environment. */
export async function runAction(parameters: object, options: Omit<Parameters<typeof import('../harness/engine').runNode>[0], 'type' | 'parameters'> = {}) {
	const { runNode } = await import('../harness/engine');
	return await runNode({ type: 'n8n-nodes-postal-service.postalService', parameters: parameters as IDataObject, ...options });
}

/** A family's runs and, among them, those that break its promise, each of those logged. */
export function counter(log: (message: string) => void) {
	const count = {
		runs: 0,
		bad: 0,
		/** Counts one run, and counts it bad and logs `what` unless `ok`. */
		check(ok: boolean, what: string): void {
			count.runs++;
			if (ok) return;
			count.bad++;
			log(what);
		},
	};
	return count;
}

/** `%xx` escapes (either case) decoded, byte sequences that are not UTF-8 left as they were. */
function percentDecoded(text: string): string {
	return text.replace(/(?:%[0-9a-f]{2})+/gi, (run) => {
		try {
			return decodeURIComponent(run);
		} catch {
			return run;
		}
	});
}

function entitiesDecoded(text: string): string {
	const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
	return text
		.replace(/&#x([0-9a-f]+);/gi, (_m, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
		.replace(/&#(\d+);/g, (_m, dec: string) => String.fromCodePoint(Number(dec)))
		.replace(/&(amp|lt|gt|quot|apos);/gi, (_m, name: string) => named[name.toLowerCase()]);
}

function jsonUnescaped(text: string): string {
	return text.replace(/\\u([0-9a-f]{4})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))).replace(/\\\//g, '/');
}

/**
 * The text as a reader would see it after undoing each encoding a server or client may apply, once
 * or more: percent escapes in either case, `+` for a space, HTML character references, JSON escapes.
 */
export function decodedViews(text: string): string[] {
	const views = new Set<string>([text]);
	let frontier = [text];
	for (let round = 0; round < 3 && frontier.length > 0; round++) {
		const next: string[] = [];
		for (const view of frontier) {
			for (const decoded of [percentDecoded(view), percentDecoded(view.replace(/\+/g, ' ')), entitiesDecoded(view), jsonUnescaped(view)]) {
				if (!views.has(decoded)) {
					views.add(decoded);
					next.push(decoded);
				}
			}
		}
		frontier = next;
	}
	return [...views];
}

/** What is looked for in every view: the secret, and base64 and base64url (unpadded) of it and of `user:secret`. */
export function secretForms(secret: string, basicUser?: string): string[] {
	const plain = [secret, ...(basicUser !== undefined ? [`${basicUser}:${secret}`] : [])];
	const forms = new Set<string>(plain);
	for (const p of plain) {
		forms.add(Buffer.from(p).toString('base64').replace(/=+$/, ''));
		forms.add(Buffer.from(p).toString('base64url'));
	}
	return [...forms].filter((form) => form.length >= 6);
}

/** How many occurrences of any form of the secrets the text holds, in the view that shows the most. */
export function countSecretLeaks(text: string, secrets: Array<{ secret: string; basicUser?: string }>): number {
	let worst = 0;
	for (const view of decodedViews(text)) {
		let count = 0;
		for (const { secret, basicUser } of secrets) {
			for (const form of secretForms(secret, basicUser)) count += view.split(form).length - 1;
		}
		worst = Math.max(worst, count);
	}
	return worst;
}

/**
 * The token as a server in front of the service might echo it: every encoding the token scan puts
 * into Location headers, error bodies and HTML pages.
 */
export function echoedForms(secret: string, basicUser: string): Array<{ name: string; text: string }> {
	const lower = (s: string) => s.replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase());
	const form = new URLSearchParams({ s: secret }).toString().slice(2);
	const basic = `${basicUser}:${secret}`;
	const forms: Array<[string, string]> = [
		['raw', secret],
		['encodeURIComponent', encodeURIComponent(secret)],
		['encodeURIComponent, lower-case escapes', lower(encodeURIComponent(secret))],
		['encodeURI', encodeURI(secret)],
		['form (+ for space)', form],
		['form, lower-case escapes', lower(form)],
		['%20 for space, the rest raw', secret.replace(/ /g, '%20')],
		['double-encoded', encodeURIComponent(encodeURIComponent(secret))],
		['double-encoded, lower-case', lower(encodeURIComponent(encodeURIComponent(secret)))],
		['every byte escaped, lower-case', [...Buffer.from(secret)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('')],
		['HTML character references', secret.replace(/[^A-Za-z0-9]/g, (c) => `&#${c.charCodeAt(0)};`)],
		['HTML named and hex references', secret.replace(/&/g, '&amp;').replace(/[/+=]/g, (c) => `&#x${c.charCodeAt(0).toString(16)};`)],
		['JSON escapes', secret.replace(/\//g, '\\/').replace(/[+=&]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)],
		['base64', Buffer.from(secret).toString('base64')],
		['base64url', Buffer.from(secret).toString('base64url')],
		['base64, URL-encoded lower-case', lower(encodeURIComponent(Buffer.from(secret).toString('base64')))],
		['base64 of email:token', Buffer.from(basic).toString('base64')],
		['base64url of email:token', Buffer.from(basic).toString('base64url')],
		['base64 of email:token, URL-encoded', lower(encodeURIComponent(Buffer.from(basic).toString('base64')))],
	];
	return forms.map(([name, text]) => ({ name, text }));
}

/** Occurrences of the trigger's signing secret in everything a delivery produced that someone could read. */
export const triggerLeaks = (result: Outcome) =>
	countSecretLeaks(JSON.stringify(result.response.body ?? '') + (result.run?.serialized ?? '') + String(result.webhookError ?? ''), [{ secret: SECRET }]);

/** A small seeded generator for the shuffles, batch sizes and faults of one scenario. */
export function mulberry32(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

/** The list in a random order (Fisher–Yates). */
export function shuffled<T>(list: T[], random: () => number): T[] {
	const out = [...list];
	for (let i = out.length - 1; i > 0; i--) {
		const j = Math.floor(random() * (i + 1));
		[out[i], out[j]] = [out[j], out[i]];
	}
	return out;
}

/** Sends every item of `queue` (which a send may add to) in order, 1 to 10 at a time. */
export async function inBatches<T>(queue: T[], random: () => number, send: (item: T) => Promise<void>): Promise<void> {
	while (queue.length > 0) await Promise.all(queue.splice(0, 1 + Math.floor(random() * 10)).map(send));
}

/** Runs after the trigger per delivery, against the deliveries that had to run: how many never ran, and how many extra runs. */
export function countRuns(expected: Iterable<string>, runs: Map<string, number>): { downstream: number; lost: number; twice: number } {
	const wanted = new Set(expected);
	let downstream = 0;
	let lost = 0;
	let twice = 0;
	for (const key of wanted) {
		const n = runs.get(key) ?? 0;
		downstream += n;
		if (n === 0) lost++;
		if (n > 1) twice += n - 1;
	}
	// A run of something that was never a delivery of its own is a run too many.
	for (const [key, n] of runs) if (!wanted.has(key)) twice += n;
	return { downstream, lost, twice };
}

let renumbering = 10n ** 17n;
/** A delivery_id the service never used before. */
export const freshId = () => String(renumbering++);
