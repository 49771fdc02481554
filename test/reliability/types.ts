/**
 * The reliability suite: each `*.suite.ts` file in this folder exports `suite`, which runs one
 * family of adversarial cases against the real nodes (n8n's engine, the sandbox over HTTP) and
 * reports counts. The runner prints every row as one table and fails when any `bad` count is not 0.
 */
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
}

export interface ReliabilitySuite {
	name: string;
	run(context: SuiteContext): Promise<ReliabilityRow[]>;
}

/**
 * Every form in which a secret could leak into text the package produces: as is, URL-encoded,
 * form-encoded, base64, and inside an HTTP Basic header value.
 */
export function secretForms(secret: string, basicUser?: string): string[] {
	const forms = new Set<string>([
		secret,
		encodeURIComponent(secret),
		new URLSearchParams({ s: secret }).toString().slice(2),
		Buffer.from(secret).toString('base64'),
	]);
	if (basicUser !== undefined) forms.add(Buffer.from(`${basicUser}:${secret}`).toString('base64'));
	return [...forms].filter((form) => form.length >= 6);
}

/** How many occurrences of any form of the secrets the text holds. */
export function countSecretLeaks(text: string, secrets: Array<{ secret: string; basicUser?: string }>): number {
	let count = 0;
	for (const { secret, basicUser } of secrets) {
		for (const form of secretForms(secret, basicUser)) count += text.split(form).length - 1;
	}
	return count;
}
