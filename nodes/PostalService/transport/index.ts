import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
} from 'n8n-workflow';
import { sleep } from 'n8n-workflow';
import type { ZodTypeAny } from 'zod';

import { checkShape, describeAnswer, envelopeCode, envelopeOf, isSuccess, readAnswer, type Envelope } from './answer';
import { apiError, notSent, redirectError, transportError, unexpectedAnswer, type Failure, type NetworkFailure } from './errors';
import { redactSecrets } from './redact';
import { stateOfRun } from './runState';
import { operationTimeout } from './runParameters';

export type { Envelope } from './answer';
export { deliveryOf, type Delivery } from './errors';

export type ServiceContext = IExecuteFunctions | ILoadOptionsFunctions;

/** Where the security token travels, per route family (the spec's Authentication table). */
type TokenPlacement =
	/** `{token}` in the path is replaced with the URL-encoded token (get, balance, download, delete). */
	| 'path'
	/** `userSecurityToken` form field (create order). */
	| 'form'
	/** `userSecurityToken` query parameter (favorites). */
	| 'query'
	/** `securityToken` header (logo, receipts). */
	| 'header'
	/** HTTP Basic, account e-mail : token (chat routes). */
	| 'basic';

export interface ServiceRequest {
	method: IHttpRequestMethods;
	/** Path relative to the base URL; may hold the `{token}` placeholder for path placement. */
	path: string;
	auth: TokenPlacement;
	/** A: {status, status_message, data}; B: {code, status, message, data, request_id}; C: {success, message}. */
	envelope: Envelope;
	/** The shape of the success payload (contract/wire.ts): an answer of another shape is an error. */
	answer?: ZodTypeAny;
	qs?: IDataObject;
	body?: IDataObject | FormData | URLSearchParams;
	/**
	 * Whether resending the request after an unclear failure is harmless. Reads are; creating an
	 * order is not: a letter must never be sent twice.
	 */
	idempotent: boolean;
	/** For a write: how the user checks whether it went through, when the answer is unclear. */
	verify?: string;
	timeout?: number;
}

export interface ServiceResponse {
	statusCode: number;
	/** The envelope's payload (`data`, or for envelope C the whole object), checked against `answer`. */
	data: unknown;
	/** The whole parsed body. */
	body: IDataObject;
}

interface ApiCredentials {
	baseUrl: string;
	securityToken: string;
	email?: string;
}

const READ_ATTEMPTS = 3;
const READ_BACKOFF_MS = [400, 1200];

const CONNECTION_NEVER_MADE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

// Per node run (an execute or load-options context is made for one run and dropped after it): in
// n8n each credential read is a database query and a decryption, once per item otherwise. The
// credential is read without an item index, so every item of the run gets the same values anyway.
const credentialsOfRun = new WeakMap<ServiceContext, Map<string, Promise<ApiCredentials>>>();

async function readCredentials(ctx: ServiceContext, auth: TokenPlacement): Promise<ApiCredentials> {
	if (auth === 'basic') {
		const c = await ctx.getCredentials('postalServiceChatApi');
		return { baseUrl: String(c.baseUrl ?? ''), securityToken: String(c.securityToken ?? ''), email: String(c.email ?? '') };
	}
	const c = await ctx.getCredentials('postalServiceApi');
	return { baseUrl: String(c.baseUrl ?? ''), securityToken: String(c.securityToken ?? '') };
}

async function getServiceCredentials(ctx: ServiceContext, auth: TokenPlacement): Promise<ApiCredentials> {
	const type = auth === 'basic' ? 'chat' : 'api';
	const ofRun = stateOfRun(credentialsOfRun, ctx, () => new Map<string, Promise<ApiCredentials>>());
	let pending = ofRun.get(type);
	if (!pending) {
		pending = readCredentials(ctx, auth);
		ofRun.set(type, pending);
		// A failed read is not kept: the next item reads again and reports its own error.
		pending.catch(() => ofRun.delete(type));
	}
	return await pending;
}

function buildOptions(req: ServiceRequest, creds: ApiCredentials, timeout: number, signal: AbortSignal): IHttpRequestOptions {
	const token = creds.securityToken;
	const path = req.path.replace('{token}', encodeURIComponent(token));
	const qs: IDataObject = { ...(req.qs ?? {}) };
	const headers: IDataObject = { Accept: 'application/json' };
	let body = req.body;

	switch (req.auth) {
		case 'query':
			qs.userSecurityToken = token;
			break;
		case 'header':
			headers.securityToken = token;
			break;
		case 'basic':
			headers.Authorization = `Basic ${Buffer.from(`${creds.email}:${token}`).toString('base64')}`;
			break;
		case 'form':
			if (body instanceof FormData || body instanceof URLSearchParams) body.set('userSecurityToken', token);
			else body = { ...(body ?? {}), userSecurityToken: token };
			break;
		case 'path':
			break;
	}

	return {
		method: req.method,
		url: `${creds.baseUrl.replace(/\/+$/, '')}${path}`,
		qs,
		headers,
		body: body as IHttpRequestOptions['body'],
		json: !(body instanceof FormData || body instanceof URLSearchParams),
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		// The token travels with every request: a redirect must never take it to another address.
		disableFollowRedirect: true,
		sendCredentialsOnCrossOriginRedirect: false,
		// The client's own timeout only notices a silent socket; the signal bounds the whole request.
		timeout,
		abortSignal: signal,
	};
}

function cancelSignalOf(ctx: ServiceContext): AbortSignal | undefined {
	return 'getExecutionCancelSignal' in ctx ? ctx.getExecutionCancelSignal() : undefined;
}

function networkFailure(code: string, deadline: AbortSignal, cancel: AbortSignal | undefined, message: string): NetworkFailure {
	if (deadline.aborted) return 'timedOut';
	if (cancel?.aborted) return 'cancelled';
	if (CONNECTION_NEVER_MADE.has(code)) return 'neverConnected';
	if (code === 'ECONNABORTED' || code === 'ETIMEDOUT' || /timeout/i.test(message)) return 'timedOut';
	return 'dropped';
}

function redirectTarget(location: unknown, url: string, secrets: string[]): string {
	const raw = Array.isArray(location) ? location[0] : location;
	if (typeof raw !== 'string' || !raw) return 'an address it did not give';
	let target = raw;
	try {
		target = new URL(raw, url).toString();
	} catch {
		// Not a URL: named as given.
	}
	return redactSecrets(target, secrets);
}

/**
 * Sends one request to the service: places the token as the route wants it, never follows a
 * redirect, bounds the whole exchange by the timeout, checks the answer against the route's
 * envelope and shape, turns failures into n8n errors with an English explanation and the service's
 * own message, and retries only what is safe to retry.
 */
export async function serviceRequest(ctx: ServiceContext, req: ServiceRequest, itemIndex = 0): Promise<ServiceResponse> {
	const creds = await getServiceCredentials(ctx, req.auth);
	const secrets = [creds.securityToken, creds.email ? `${creds.email}:${creds.securityToken}` : undefined].filter(
		(s): s is string => !!s,
	);
	const attempts = req.idempotent ? READ_ATTEMPTS : 1;
	const timeout = operationTimeout(ctx, itemIndex, req.timeout);
	// The Timeout bounds the whole operation: every attempt and every pause between them.
	const end = Date.now() + timeout;
	const cancel = cancelSignalOf(ctx);
	const failure = (attempt: number): Failure => ({
		ctx,
		itemIndex,
		route: `${req.method} ${req.path.replace('{token}', '***')}`,
		secrets,
		idempotent: req.idempotent,
		verify: req.verify,
		attempts: attempt,
	});
	// Another attempt only when it and the pause before it still fit in the operation's time.
	const mayRetry = (attempt: number) => req.idempotent && attempt < attempts && end - Date.now() > (READ_BACKOFF_MS[attempt - 1] ?? 1000);

	for (let attempt = 1; ; attempt++) {
		let deadline: AbortSignal;
		let signal: AbortSignal;
		let options: IHttpRequestOptions;
		try {
			const remaining = Math.max(1, end - Date.now());
			deadline = AbortSignal.timeout(remaining);
			signal = cancel ? AbortSignal.any([deadline, cancel]) : deadline;
			options = buildOptions(req, creds, remaining, signal);
		} catch (error) {
			// Nothing has left the node yet.
			throw notSent(ctx, itemIndex, `the request could not be built: ${redactSecrets((error as Error).message, secrets)}`);
		}
		let response: { statusCode: number; body: unknown; headers?: IDataObject };
		try {
			response = (await ctx.helpers.httpRequest(options)) as typeof response;
		} catch (error) {
			const err = error as Error & { code?: string; cause?: { code?: string } };
			const code = err.code ?? err.cause?.code ?? '';
			const kind = networkFailure(code, deadline, cancel, String(err.message));
			if (mayRetry(attempt) && code !== 'ENOTFOUND' && kind !== 'cancelled' && kind !== 'timedOut') {
				await sleep(READ_BACKOFF_MS[attempt - 1] ?? 1000);
				continue;
			}
			throw transportError(failure(attempt), kind, kind === 'timedOut' ? `no complete answer within ${timeout} ms` : code);
		}

		const { statusCode } = response;
		if (statusCode >= 300 && statusCode < 400) {
			throw redirectError(failure(attempt), statusCode, redirectTarget(response.headers?.location, String(options.url), secrets));
		}
		const answer = readAnswer(response.body);
		const enveloped = envelopeOf(answer, req.envelope);
		const ok = statusCode >= 200 && statusCode < 300;
		if (ok && enveloped && isSuccess(enveloped)) {
			const checked = checkShape(enveloped, req.answer);
			if (checked.ok) return { statusCode, data: checked.data, body: enveloped.body };
			throw unexpectedAnswer(failure(attempt), statusCode, describeAnswer(answer, checked.issues));
		}
		if (ok && !enveloped) throw unexpectedAnswer(failure(attempt), statusCode, describeAnswer(answer));
		if (mayRetry(attempt) && statusCode >= 500) {
			await sleep(READ_BACKOFF_MS[attempt - 1] ?? 1000);
			continue;
		}
		// A and B may report a failure inside a 200; their own code is the one that counts then.
		throw apiError(failure(attempt), envelopeCode(enveloped, statusCode), enveloped?.body, enveloped ? undefined : describeAnswer(answer));
	}
}
