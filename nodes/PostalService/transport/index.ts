import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import { redactSecrets } from './redact';

export type ServiceContext = IExecuteFunctions | ILoadOptionsFunctions;

/** Where the security token travels, per route family (the spec's Authentication table). */
export type TokenPlacement =
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

/**
 * A: {status, status_message, data}; B: {code, status, message, data, request_id}; C: {success,
 * message}. `auto` recognises whichever of the three a route answers with, for routes whose answer
 * the spec does not show (receipts, senders).
 */
export type Envelope = 'A' | 'B' | 'C' | 'auto' | 'raw';

export interface ServiceRequest {
	method: IHttpRequestMethods;
	/** Path relative to the base URL; may hold the `{token}` placeholder for path placement. */
	path: string;
	auth: TokenPlacement;
	envelope: Envelope;
	qs?: IDataObject;
	body?: IDataObject | FormData | URLSearchParams;
	/**
	 * Whether resending the request after an unclear failure is harmless. Reads are; creating an
	 * order is not: a letter must never be sent twice.
	 */
	idempotent: boolean;
	timeout?: number;
}

export interface ServiceResponse {
	statusCode: number;
	/** The envelope's payload (`data`, or for envelope C the whole object). */
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
const DEFAULT_TIMEOUT_MS = 60_000;

const CONNECTION_NEVER_MADE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

export async function getServiceCredentials(ctx: ServiceContext, auth: TokenPlacement): Promise<ApiCredentials> {
	if (auth === 'basic') {
		const c = await ctx.getCredentials('postalServiceChatApi');
		return { baseUrl: String(c.baseUrl ?? ''), securityToken: String(c.securityToken ?? ''), email: String(c.email ?? '') };
	}
	const c = await ctx.getCredentials('postalServiceApi');
	return { baseUrl: String(c.baseUrl ?? ''), securityToken: String(c.securityToken ?? '') };
}

function buildOptions(req: ServiceRequest, creds: ApiCredentials): IHttpRequestOptions {
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
		timeout: req.timeout ?? DEFAULT_TIMEOUT_MS,
	};
}

/** The node's "Timeout" option, when the context has node parameters and the user set one. */
function timeoutOption(ctx: ServiceContext, itemIndex: number): number | undefined {
	try {
		const value = Number((ctx as IExecuteFunctions).getNodeParameter('options.timeout', itemIndex, 0));
		return value > 0 ? value : undefined;
	} catch {
		return undefined;
	}
}

function parseBody(raw: unknown): IDataObject {
	if (raw && typeof raw === 'object' && !Buffer.isBuffer(raw)) return raw as IDataObject;
	const text = Buffer.isBuffer(raw) ? raw.toString('utf8') : String(raw ?? '');
	try {
		const parsed = JSON.parse(text);
		return parsed && typeof parsed === 'object' ? (parsed as IDataObject) : { value: parsed };
	} catch {
		return { unparsedBody: text.slice(0, 2000) };
	}
}

/** The service's own message and request id, whatever the envelope. */
function serviceMessage(body: IDataObject): { message?: string; requestId?: string } {
	const message = body.status_message ?? body.message;
	return {
		message: typeof message === 'string' ? message : undefined,
		requestId: typeof body.request_id === 'string' ? body.request_id : undefined,
	};
}

function detectEnvelope(body: IDataObject): Envelope {
	if (typeof body.success === 'boolean') return 'C';
	if (typeof body.status === 'string' && ('code' in body || 'message' in body)) return 'B';
	if ('status_message' in body || (typeof body.status === 'number' && 'data' in body)) return 'A';
	return 'raw';
}

function isEnvelopeSuccess(envelope: Envelope, statusCode: number, body: IDataObject): boolean {
	if (statusCode < 200 || statusCode >= 300) return false;
	if (envelope === 'A' && typeof body.status === 'number') return body.status >= 200 && body.status < 300;
	if (envelope === 'B') return body.status !== 'error';
	if (envelope === 'C') return body.success !== false;
	return true;
}

const EXPLANATIONS: Record<number, string> = {
	400: 'The service refused the request as invalid or incomplete. Check the fields named in its message.',
	401: 'The service did not accept the credentials. Check the security token (and, for chat, the account e-mail) in the credential, and that the base URL is the environment the token belongs to.',
	403: 'The credentials are valid but this account is not allowed to do this. Check the account plan or permissions in the panel.',
	404: 'The service has no such route or record. Check the base URL and the id.',
	405: 'The service does not accept this HTTP method on this route. Check the method of a Custom API Call.',
	429: 'Too many failed authentication attempts: the service is refusing requests for now. Fix the credential, wait, then try again.',
	500: 'The service had an internal error. Try again later; if it persists, contact support with the request id.',
	503: 'The service is in a maintenance window. Try again later.',
};

function explain(statusCode: number): string {
	return EXPLANATIONS[statusCode] ?? (statusCode >= 500 ? EXPLANATIONS[500] : `The service answered with HTTP ${statusCode}.`);
}

function apiError(
	ctx: ServiceContext,
	itemIndex: number,
	statusCode: number,
	body: IDataObject,
	secrets: string[],
	route: string,
	idempotent: boolean,
): NodeApiError {
	const { message, requestId } = serviceMessage(body);
	// A server error on a create leaves it unclear whether anything was stored.
	const notResent =
		!idempotent && statusCode >= 500 && statusCode !== 503
			? ' The request was not sent again: check whether it went through (account panel, Order > Get) before resending.'
			: '';
	const parts = [message ? `Service message: ${message}` : undefined, requestId ? `Request id: ${requestId}` : undefined, `Route: ${route}`];
	const clean = (s: string) => redactSecrets(s, secrets);
	// Built from a plain object (never the HTTP client's error), so no URL, header or config with
	// the token can be serialized into the execution.
	return new NodeApiError(
		ctx.getNode(),
		{ message: clean(message ?? ''), httpCode: String(statusCode) } as JsonObject,
		{
			message: clean(explain(statusCode) + notResent),
			description: clean(parts.filter(Boolean).join('\n')),
			httpCode: String(statusCode),
			itemIndex,
		},
	);
}

function transportError(
	ctx: ServiceContext,
	itemIndex: number,
	error: Error & { code?: string; cause?: { code?: string } },
	req: ServiceRequest,
	secrets: string[],
	route: string,
): NodeOperationError {
	const code = error.code ?? error.cause?.code ?? '';
	const neverConnected = CONNECTION_NEVER_MADE.has(code);
	const timedOut = code === 'ECONNABORTED' || code === 'ETIMEDOUT' || /timeout/i.test(error.message);
	let message: string;
	let description: string;
	if (neverConnected) {
		message = 'Could not connect to the service. Check the base URL in the credential.';
		description = 'The connection was refused or the host was not found, so the request did not reach the service.';
	} else if (!req.idempotent) {
		message = timedOut
			? 'The service did not answer in time; the request may have been accepted. It was not sent again.'
			: 'The connection dropped after the request was sent; the request may have been accepted. It was not sent again.';
		description =
			'To avoid sending the same letter or message twice this node never repeats a request that changes something on its own. Before sending again, check whether it went through: look for the order in the account panel (search by its tag), read it with Order > Get if you have its id, or check the balance with Account > Get Balance.';
	} else {
		message = timedOut
			? 'The service did not answer in time. Try again later, or raise the Timeout option.'
			: 'The connection to the service failed. Try again later.';
		description = `The request was tried ${READ_ATTEMPTS} times.`;
	}
	return new NodeOperationError(ctx.getNode(), redactSecrets(message, secrets), {
		description: redactSecrets(`${description}\nRoute: ${route}\nNetwork error: ${code || error.message}`, secrets),
		itemIndex,
	});
}

function retryableStatus(statusCode: number): boolean {
	return statusCode >= 500;
}

/**
 * Sends one request to the service: places the token as the route wants it, unwraps the envelope,
 * turns failures into n8n errors with an English explanation and the service's own message, and
 * retries only what is safe to retry.
 */
export async function serviceRequest(
	ctx: ServiceContext,
	req: ServiceRequest,
	itemIndex = 0,
): Promise<ServiceResponse> {
	const creds = await getServiceCredentials(ctx, req.auth);
	const secrets = [creds.securityToken, creds.email ? `${creds.email}:${creds.securityToken}` : undefined].filter(
		(s): s is string => !!s,
	);
	const route = `${req.method} ${req.path.replace('{token}', '***')}`;
	const attempts = req.idempotent ? READ_ATTEMPTS : 1;
	req = { ...req, timeout: req.timeout ?? timeoutOption(ctx, itemIndex) };

	for (let attempt = 1; ; attempt++) {
		let statusCode: number;
		let body: IDataObject;
		try {
			const response = (await ctx.helpers.httpRequest(buildOptions(req, creds))) as {
				statusCode: number;
				body: unknown;
			};
			statusCode = response.statusCode;
			body = parseBody(response.body);
		} catch (error) {
			const err = error as Error & { code?: string; cause?: { code?: string } };
			const code = err.code ?? err.cause?.code ?? '';
			if (req.idempotent && attempt < attempts && code !== 'ENOTFOUND') {
				await sleep(READ_BACKOFF_MS[attempt - 1] ?? 1000);
				continue;
			}
			throw transportError(ctx, itemIndex, err, req, secrets, route);
		}

		const envelope = req.envelope === 'auto' ? detectEnvelope(body) : req.envelope;
		if (isEnvelopeSuccess(envelope, statusCode, body)) {
			const data = envelope === 'C' || envelope === 'raw' ? body : body.data;
			return { statusCode, data, body };
		}
		if (req.idempotent && attempt < attempts && retryableStatus(statusCode)) {
			await sleep(READ_BACKOFF_MS[attempt - 1] ?? 1000);
			continue;
		}
		// Envelope A may signal failure inside a 200; report the envelope's own code then.
		const effective = statusCode >= 200 && statusCode < 300 && typeof body.status === 'number' ? body.status : statusCode;
		throw apiError(ctx, itemIndex, effective >= 200 && effective < 300 ? 400 : effective, body, secrets, route, req.idempotent);
	}
}
