/** The transport's errors: what happened and what to do, the service's own message, never the token, and whether the service may have acted. */
import type { IDataObject, IExecuteFunctions, ILoadOptionsFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

export type ServiceContext = IExecuteFunctions | ILoadOptionsFunctions;

/** Errors after which the service certainly did nothing: a refusal in its own envelope, or no request reached it. */
const NOT_CARRIED_OUT = new WeakSet<object>();

export function nothingCarriedOut<T extends object>(error: T): T {
	NOT_CARRIED_OUT.add(error);
	return error;
}

/** Whether the request that failed may still have been carried out: the safe reading of any other error. */
export function outcomeIsUnclear(error: unknown): boolean {
	return !(typeof error === 'object' && error !== null && NOT_CARRIED_OUT.has(error));
}

/** Per failed request: the context the error needs to say the right thing. */
export interface Failure {
	ctx: ServiceContext;
	/** Wire name → the field's label in the panel. */
	labels?: Record<string, string>;
	itemIndex: number;
	/** `METHOD /path` with the token shown as ***. */
	route: string;
	/** Hides the credential's secrets in a text. */
	redact: (text: string) => string;
	/** Whether resending is harmless (reads). */
	idempotent: boolean;
	/** For a write: how to check whether it went through. */
	verify?: string;
	attempts: number;
}

/** A failure before a byte was sent: the item may be sent again once the cause is fixed. */
export function notSent(ctx: ServiceContext, itemIndex: number, why: string): NodeOperationError {
	const error = new NodeOperationError(ctx.getNode(), `${why}. Nothing was sent.`, {
		itemIndex,
		description: 'The request never left the node, so the service did nothing with it. Fix the setting named above and run again.',
	});
	return nothingCarriedOut(error);
}

const GENERIC_VERIFY =
	'look for it in the account panel (an order can be found by its tag), read it with Letter > Get if you have its id, or check the balance with Account > Get Balance';

const NOT_RESENT = 'the request may have been accepted. It was not sent again.';

function checkFirst(failure: Failure): string {
	return `To avoid sending the same letter or message twice this node repeats a request that changes something only when it never reached the service. Before sending again, check whether it went through: ${failure.verify ?? GENERIC_VERIFY}.`;
}

/** An error of the request itself (no answer of the service's to pass on), with the token hidden everywhere. */
function requestError(failure: Failure, message: string, description: Array<string | undefined>): NodeOperationError {
	return new NodeOperationError(failure.ctx.getNode(), failure.redact(message), {
		description: failure.redact([...description, `Route: ${failure.route}`].filter(Boolean).join('\n')),
		itemIndex: failure.itemIndex,
	});
}

const EXPLANATIONS: Record<number, string> = {
	400: 'The service refused the request as invalid or incomplete. Check the fields named in its message.',
	401: 'The service did not accept the credentials. Check the security token (and, for chat, the account e-mail) in the credential, and that the base URL is the environment the token belongs to.',
	403: 'The credentials are valid but this account is not allowed to do this. Check the account plan or permissions in the panel.',
	404: 'The service has no such route or record. Check the base URL and the id.',
	405: 'The service does not accept this HTTP method on this route. Check the method of the HTTP Request node that sent it.',
	429: 'Too many failed authentication attempts: the service is refusing requests for now. Fix the credential, wait, then try again.',
	500: 'The service had an internal error. Try again later; if it persists, contact support with the request id.',
	503: 'The service is in a maintenance window. Try again later.',
};

function explain(statusCode: number): string {
	if (EXPLANATIONS[statusCode]) return EXPLANATIONS[statusCode];
	if (statusCode >= 500) return EXPLANATIONS[500];
	return `The service answered with HTTP ${statusCode}. Check the base URL and the request.`;
}

/** The first field of the panel the service's message names by its wire name, longest names first. */
function namedField(labels: Record<string, string>, message: string): string | undefined {
	const wires = Object.keys(labels).sort((a, b) => b.length - a.length);
	if (wires.length === 0) return undefined;
	const pattern = new RegExp(`(?<![\\w"])(${wires.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})(?![\\w"])`);
	return pattern.exec(message)?.[1];
}

/** A refusal or failure the service (or something at its address) answered with an HTTP code. */
export function apiError(failure: Failure, statusCode: number, body: IDataObject | undefined, notEnvelope?: string): NodeApiError {
	const message = typeof body?.status_message === 'string' ? body.status_message : typeof body?.message === 'string' ? body.message : undefined;
	const requestId = typeof body?.request_id === 'string' ? body.request_id : undefined;
	// Only the service's own envelope tells that it refused (a 4xx, or 503 for maintenance): a 500 or a proxy's answer may follow work done.
	const refused = !notEnvelope && ((statusCode >= 400 && statusCode < 500) || statusCode === 503);
	const unclearWrite = !refused && !failure.idempotent;
	const clean = failure.redact;
	let headline = explain(statusCode);
	if (unclearWrite) {
		headline = notEnvelope
			? `Something at the service's address (the service or a proxy in front of it) answered with HTTP ${statusCode}; ${NOT_RESENT}`
			: statusCode >= 500
				? 'The service had an internal error; the request may have been accepted. The request was not sent again.'
				: `The service answered with HTTP ${statusCode}; ${NOT_RESENT}`;
	}
	// A refusal names the panel's field, then the service's own words, since an AI agent reads only the message.
	const field = refused && message ? namedField(failure.labels ?? {}, message) : undefined;
	if (field) headline = `The service refused "${failure.labels![field]}" (${field}): fix it and run again.${failure.idempotent ? '' : ' Nothing was sent.'}`;
	const shown = refused && message ? `${headline} The service said: ${message}` : headline;
	const parts = [
		message ? `Service message: ${message}` : undefined,
		notEnvelope ? `The answer was not the service's usual answer: ${notEnvelope}. Check that the base URL in the credential is the service's API address.` : undefined,
		requestId ? `Request id: ${requestId}` : undefined,
		unclearWrite ? checkFirst(failure) : undefined,
		`Route: ${failure.route}`,
	];
	// Built from a plain object, never the HTTP client's error, whose URL, headers and config hold the token.
	const error = new NodeApiError(
		failure.ctx.getNode(),
		{ message: clean(message ?? ''), httpCode: String(statusCode) } as JsonObject,
		{
			message: clean(shown),
			description: clean(parts.filter(Boolean).join('\n')),
			httpCode: String(statusCode),
			itemIndex: failure.itemIndex,
		},
	);
	return refused ? nothingCarriedOut(error) : error;
}

/** A 2xx that is not the route's answer: an HTML page, an empty body, JSON of another shape. */
export function unexpectedAnswer(failure: Failure, statusCode: number, what: string): NodeOperationError {
	const headline = failure.idempotent
		? "The answer was not the service's usual answer."
		: `The answer was not the service's usual answer; ${NOT_RESENT}`;
	return requestError(failure, headline, [
		`HTTP ${statusCode} with ${what}.`,
		'A web page or an empty answer usually means the base URL in the credential is not the service\'s API address (the panel, a proxy or a sign-in page answered instead).',
		failure.idempotent ? 'Check the base URL, then try again.' : checkFirst(failure),
	]);
}

/** A 3xx: never followed, since the token would travel with the request to the other address. */
export function redirectError(failure: Failure, statusCode: number, target: string): NodeOperationError {
	const headline = `The service answered with a redirect (HTTP ${statusCode}) to ${target}. This node does not follow redirects, so nothing was sent there.`;
	return requestError(failure, headline, [
		'A redirect usually means the base URL in the credential is not the API address itself (http instead of https, an old host, a proxy). If you trust the target, put it in the credential as the base URL.',
		failure.idempotent ? undefined : `Whether the service at the base URL acted on the request is unclear; it was not sent again. ${checkFirst(failure)}`,
	]);
}

export type NetworkFailure = 'neverConnected' | 'timedOut' | 'cancelled' | 'dropped';

export function transportError(failure: Failure, kind: NetworkFailure, code: string): NodeOperationError {
	let message: string;
	let description: string;
	if (kind === 'neverConnected') {
		message = 'Could not connect to the service. Check the base URL in the credential. Nothing was sent.';
		description = `The host was not found, the connection was refused or its secure (TLS) connection failed, so the request did not reach the service. Tried ${failure.attempts} time(s).`;
	} else if (!failure.idempotent) {
		const what = {
			timedOut: 'The service did not answer in time',
			cancelled: 'The execution was stopped while the request was under way',
			dropped: 'The connection dropped after the request was sent',
		}[kind];
		message = `${what}; ${NOT_RESENT}`;
		description = checkFirst(failure);
	} else if (kind === 'cancelled') {
		message = 'The execution was stopped while the request was under way.';
		description = 'Run the workflow again when needed.';
	} else {
		message =
			kind === 'timedOut'
				? 'The service did not answer in time. Try again later, or raise the Timeout option.'
				: 'The connection to the service failed. Try again later.';
		description = `The request was tried ${failure.attempts} time(s).`;
	}
	const error = requestError(failure, message, [description, `Network error: ${code || kind}`]);
	return kind === 'neverConnected' ? nothingCarriedOut(error) : error;
}
