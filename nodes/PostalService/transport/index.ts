/** The only code that sees the token: a route of the contract made into a request, its answer checked, repeated only when safe. */
import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { ROUTES, type RouteName } from '../contract/routes';
import { checkShape, describeAnswer, envelopeCode, envelopeOf, isSuccess, readAnswer } from './answer';
import { apiError, notSent, redirectError, transportError, unexpectedAnswer, type Failure, type NetworkFailure, type ServiceContext } from './errors';
import { Multipart, type FormField } from './multipart';
import { redactAnswer, secretRedactor } from './redact';
import { serviceUrl } from './url';

export type { FilePart, FormField } from './multipart';
export { notSent, outcomeIsUnclear } from './errors';

export interface Credentials {
	baseUrl: string;
	securityToken: string;
	/** The account e-mail of the chat credential (HTTP Basic). */
	email?: string;
	/** Hides the token (and, for chat, `email:token`) in any text: made once per credential read. */
	redact: (text: string) => string;
}

export type CredentialName = 'postalServiceApi' | 'postalServiceChatApi';

/** The credential a route authenticates with: the chat one for HTTP Basic. */
export function credentialOf(route: RouteName): CredentialName {
	return ROUTES[route].token === 'basic' ? 'postalServiceChatApi' : 'postalServiceApi';
}

export async function readCredentials(ctx: ServiceContext, name: CredentialName): Promise<Credentials> {
	const c = await ctx.getCredentials(name);
	const securityToken = String(c.securityToken ?? '');
	const email = c.email === undefined ? undefined : String(c.email);
	return { baseUrl: String(c.baseUrl ?? ''), securityToken, email, redact: secretRedactor([securityToken, email ? `${email}:${securityToken}` : undefined]) };
}

/** The time one item's requests may take together (the Timeout option): each request spends from it. */
export interface Deadline {
	timeoutMs: number;
	spentMs: number;
}

export const DEFAULT_TIMEOUT_MS = 60_000;

/** What one request carries besides its route. */
export interface Call {
	/** Values of the path's `{name}` placeholders. */
	params?: Record<string, string>;
	qs?: IDataObject;
	body?: IDataObject;
	/** A multipart/form-data body instead, its files read while it is sent. */
	form?: FormField[];
	/** For a write: how the user checks whether it went through, when the answer is unclear. */
	verify?: string;
	/** Wire name → the field's label in the panel, to show beside the names the service's messages use. */
	labels?: Record<string, string>;
}

export interface ServiceResponse {
	/** The envelope's payload (`data`, or the whole answer of envelope C), checked against the route's shape. */
	data: unknown;
	/** The whole parsed answer. */
	body: IDataObject;
}

const ATTEMPTS = 3;
/** The least of an item's Timeout a write starts with. */
const MIN_WRITE_MS = 1000;
const BACKOFF_MS = [400, 1200];
type NetworkError = { code?: string; syscall?: string; message?: string };

function requestOptions(name: RouteName, call: Call, creds: Credentials, remainingMs: number, signal: AbortSignal): IHttpRequestOptions {
	const route = ROUTES[name];
	const token = creds.securityToken;
	const path = route.path.replace(/\{(\w+)\}/g, (_, key: string) => encodeURIComponent(key === 'token' ? token : (call.params?.[key] ?? '')));
	const qs: IDataObject = { ...call.qs };
	const headers: IDataObject = { Accept: 'application/json' };
	const fields: Record<string, string> = { ...('fixedFields' in route ? route.fixedFields : {}), ...(route.token === 'form' ? { userSecurityToken: token } : {}) };
	const body = call.form ? new Multipart(call.form).encode(fields) : call.body && { ...call.body, ...fields };
	if (body instanceof Blob) headers['Content-Type'] = body.type;
	if (route.token === 'query') qs.userSecurityToken = token;
	if (route.token === 'header') headers.securityToken = token;
	if (route.token === 'basic') headers.Authorization = `Basic ${Buffer.from(`${creds.email ?? ''}:${token}`).toString('base64')}`;
	return {
		method: route.method,
		url: serviceUrl(creds.baseUrl, path),
		qs,
		headers,
		body: body as IHttpRequestOptions['body'],
		json: !(body instanceof Blob),
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		// The token travels with every request: a redirect must never take it to another address.
		disableFollowRedirect: true,
		sendCredentialsOnCrossOriginRedirect: false,
		// The client's own timeout only notices a silent socket; the signal bounds the whole request.
		timeout: remainingMs,
		abortSignal: signal,
	};
}

function networkFailure({ code = '', syscall, message = '' }: NetworkError, deadline: AbortSignal, cancel: AbortSignal | undefined): NetworkFailure {
	if (deadline.aborted) return 'timedOut';
	if (cancel?.aborted) return 'cancelled';
	// Decided by where it failed, not the code alone: EHOSTUNREACH after a write comes from a read or a write, not the connect.
	const beforeConnection = ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN'].includes(code) || syscall === 'connect' || syscall === 'getaddrinfo';
	if (beforeConnection || /CERT|UNABLE_TO_|WRONG_VERSION_NUMBER/.test(code) || /before secure TLS connection/.test(message)) return 'neverConnected';
	if (code === 'ECONNABORTED' || code === 'ETIMEDOUT' || /timeout/i.test(message)) return 'timedOut';
	return 'dropped';
}

function redirectTarget(location: unknown, url: string, redact: (text: string) => string): string {
	const raw = Array.isArray(location) ? location[0] : location;
	if (typeof raw !== 'string' || !raw) return 'an address it did not give';
	let target = raw;
	try {
		target = new URL(raw, url).toString();
	} catch {
		// Not a URL: named as given.
	}
	return redact(target);
}

/** One request of an item, spent from its deadline; repeated when it never connected, and for a read also after a drop or a 5xx. */
export async function callService(
	ctx: ServiceContext,
	creds: Credentials,
	name: RouteName,
	call: Call,
	itemIndex: number,
	deadline: Deadline,
	/** The run's pacing clock: waits for a start no later than the time given, false when there is none; throws once the run has stopped. */
	pace: (until: number) => Promise<boolean> = async () => true,
): Promise<ServiceResponse> {
	const route = ROUTES[name];
	const { redact } = creds;
	// A write started without time for its answer would end unclear: every attempt must start with this much left.
	const floor = route.idempotent ? 1 : Math.min(MIN_WRITE_MS, deadline.timeoutMs);
	// An item's Timeout starts with its first request: the wait for that one's turn is not its time, every later wait is.
	if (deadline.spentMs === 0) await pace(Infinity);
	const started = Date.now();
	const end = started + deadline.timeoutMs - deadline.spentMs;
	/** A pause, then the clock, taken only when both end with the floor still left. */
	const waited = async (ms: number) => end - Date.now() - ms >= floor && (await sleep(ms), await pace(end - floor));
	const cancel = 'getExecutionCancelSignal' in ctx ? ctx.getExecutionCancelSignal() : undefined;
	const failure = (attempts: number): Failure => ({
		ctx,
		itemIndex,
		route: `${route.method} ${route.path.replace('{token}', '***').replace(/\{(\w+)\}/g, (_, key: string) => call.params?.[key] ?? '')}`,
		redact,
		idempotent: route.idempotent,
		verify: call.verify,
		labels: call.labels,
		attempts,
	});
	try {
		if (deadline.spentMs > 0 && !(await waited(0))) {
			throw notSent(ctx, itemIndex, `Options > "Timeout (Ms)" (${deadline.timeoutMs} ms) was used up by this item's earlier requests before this one could start`);
		}
		for (let attempt = 1; ; attempt++) {
			const remaining = Math.max(1, end - Date.now());
			const timer = AbortSignal.timeout(remaining);
			const signal = cancel ? AbortSignal.any([timer, cancel]) : timer;
			let options: IHttpRequestOptions;
			try {
				options = requestOptions(name, call, creds, remaining, signal);
			} catch (error) {
				throw notSent(ctx, itemIndex, `Could not connect to the service: ${redact((error as Error).message)}`);
			}
			let response: { statusCode: number; body: unknown; headers?: IDataObject };
			try {
				response = (await ctx.helpers.httpRequest(options)) as typeof response;
			} catch (error) {
				const err = error as NetworkError & { cause?: NetworkError };
				const code = err.code ?? err.cause?.code ?? '';
				const kind = networkFailure({ ...err.cause, code, message: String(err.message) }, timer, cancel);
				const failed = transportError(failure(attempt), kind, kind === 'timedOut' ? `no complete answer within ${deadline.timeoutMs} ms` : code);
				// A repeat is made only when it can start in time; otherwise the item reports this failure, as it was.
				if ((kind === 'neverConnected' || (kind === 'dropped' && route.idempotent)) && attempt < ATTEMPTS && (await waited(BACKOFF_MS[attempt - 1]))) continue;
				throw failed;
			}
			const { statusCode } = response;
			if (statusCode >= 300 && statusCode < 400) {
				throw redirectError(failure(attempt), statusCode, redirectTarget(response.headers?.location, String(options.url), redact));
			}
			const answer = readAnswer(response.body);
			const enveloped = envelopeOf(answer, route.envelope);
			const ok = statusCode >= 200 && statusCode < 300;
			if (ok && enveloped && isSuccess(enveloped)) {
				// A success is output as it came, so the token is hidden there as in an error.
				const clean = { ...enveloped, body: redactAnswer(enveloped.body, redact) };
				const checked = checkShape(clean, route.answer);
				if (checked.ok) return { data: checked.data, body: clean.body };
				throw unexpectedAnswer(failure(attempt), statusCode, describeAnswer(answer, checked.issues));
			}
			if (ok && !enveloped) throw unexpectedAnswer(failure(attempt), statusCode, describeAnswer(answer));
			if (route.idempotent && statusCode >= 500 && attempt < ATTEMPTS && (await waited(BACKOFF_MS[attempt - 1]))) continue;
			// A and B may report a failure inside a 200; their own code is the one that counts then.
			throw apiError(failure(attempt), envelopeCode(enveloped, statusCode), enveloped?.body, enveloped ? undefined : describeAnswer(answer));
		}
	} finally {
		deadline.spentMs += Date.now() - started;
	}
}

/** One request outside a run (the editor's lists): its own credential and the default deadline. */
export async function callServiceOnce(ctx: ServiceContext, name: RouteName, call: Call): Promise<ServiceResponse> {
	const creds = await readCredentials(ctx, credentialOf(name));
	return await callService(ctx, creds, name, call, 0, { timeoutMs: DEFAULT_TIMEOUT_MS, spentMs: 0 });
}
