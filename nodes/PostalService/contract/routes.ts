/** Every route the node calls, as data (method, path, token, envelope, answer): operations name a route, the transport makes the request. */
import { z, type ZodTypeAny } from 'zod';

const integer = z.number().int();

/** The spec's three answer envelopes. */
export const ENVELOPES = {
	/** Letters, telegrams, registered e-mail, chat messages and senders. */
	A: z.object({ status: integer, status_message: z.string(), data: z.unknown() }).passthrough(),
	/** Chat templates and the logo route (which omits `request_id`). */
	B: z
		.object({
			code: integer,
			status: z.enum(['success', 'error']),
			message: z.string(),
			data: z.unknown(),
			request_id: z.string().optional(),
		})
		.passthrough(),
	/** Favorites. */
	C: z.object({ success: z.boolean(), message: z.string(), favorite: z.unknown().optional() }).passthrough(),
};

export type EnvelopeName = keyof typeof ENVELOPES;

/** Where the security token travels (the spec's Authentication table). */
export type TokenPlacement =
	/** `{token}` in the path (get, balance, download, delete). */
	| 'path'
	/** `userSecurityToken` form field (create order). */
	| 'form'
	/** `userSecurityToken` query parameter (favorites). */
	| 'query'
	/** `securityToken` header (logo, receipts). */
	| 'header'
	/** HTTP Basic, account e-mail : token (chat routes, with the chat credential). */
	| 'basic';

export interface Route {
	method: 'GET' | 'POST' | 'PUT' | 'DELETE';
	/** Relative to the base URL; `{token}` and `{name}` are filled in, URL-encoded, by the transport. */
	path: string;
	token: TokenPlacement;
	/** `auto` where the spec does not show the answer: whichever envelope fits. */
	envelope: EnvelopeName | 'auto';
	/** The success payload: `data` of A and B, the whole answer of C. */
	answer: ZodTypeAny;
	/** Whether sending it twice is harmless; a write that is not is repeated only when it never reached the service. */
	idempotent: boolean;
	/** Body fields the route always carries, whatever the caller gives. */
	fixedFields?: Record<string, string>;
}

/** A list answer as the list, whether it is `data` itself or the one array inside `data` (where the spec does not show it). */
const listIn = (data: unknown): Array<Record<string, unknown>> => {
	const arrays = Array.isArray(data) ? [data] : Object.values(data as object).filter(Array.isArray);
	return arrays.length === 1 ? arrays[0] : [];
};

const orderFile = z.object({ name: z.string(), type: z.string() }).passthrough();

export const ROUTES = {
	createOrder: {
		method: 'POST', path: '/api/v2/post', token: 'form', envelope: 'A', idempotent: false, fixedFields: { test: '0' },
		answer: z.string().regex(/^\d+$/, 'expected the visual id of the new order (a string of digits)'),
	},
	/** The same route with test=1: the service checks and prices the order and creates nothing. */
	priceOrder: {
		method: 'POST', path: '/api/v2/post', token: 'form', envelope: 'A', idempotent: true, fixedFields: { test: '1' },
		answer: z.object({ value: z.number() }).passthrough(),
	},
	/** Letters and, by the id `E…`, registered e-mail (see docs/assumptions.md). */
	getOrder: {
		method: 'GET', path: '/api/v2/get/{token}/{id}', token: 'path', envelope: 'A', idempotent: true,
		answer: z
			.object({ id: z.string(), status: integer.optional(), shipType: integer.optional(), numPages: integer.optional(), files: z.array(orderFile).optional() })
			.passthrough(),
	},
	downloadOrderFile: {
		method: 'GET', path: '/api/v2/download/{token}/{id}/{type}', token: 'path', envelope: 'A', idempotent: true,
		answer: z.object({ file_name: z.string(), file_type: z.string(), id_job: z.string(), file_base64: z.string() }).passthrough(),
	},
	cancelOrder: {
		method: 'DELETE', path: '/api/v2/delete/{token}/{id}', token: 'path', envelope: 'A', idempotent: false,
		answer: z.object({ id: z.string(), status: integer, status_text: z.string(), message: z.string() }).passthrough(),
	},
	/** Fields not shown: anything but nothing. */
	getBalance: {
		method: 'GET', path: '/api/v2/balance/{token}', token: 'path', envelope: 'A', idempotent: true,
		answer: z.union([z.number(), z.string(), z.object({}).passthrough()]),
	},
	getLogo: {
		method: 'GET', path: '/api/v2/logo', token: 'header', envelope: 'B', idempotent: true,
		answer: z.object({ logo_url: z.string() }).passthrough(),
	},
	// The same change twice is harmless, but a resend could undo a change made in between: not idempotent.
	updateSavedContact: {
		method: 'PUT', path: '/api/v2/favorites', token: 'query', envelope: 'C', idempotent: false,
		answer: z.object({ success: z.literal(true), message: z.string(), favorite: z.object({ id: integer }).passthrough() }).passthrough(),
	},
	/** Answer not shown. */
	getReceipt: { method: 'GET', path: '/api/receipts/v1/get', token: 'header', envelope: 'auto', idempotent: true, answer: z.unknown() },
	/** `status` is `processing`, or 2 when credits are short. */
	sendChatMessage: {
		method: 'POST', path: '/api/chat/v1/post', token: 'basic', envelope: 'A', idempotent: false,
		answer: z
			.object({ message_id: integer, visual_id: z.string(), status: z.union([z.string(), integer]), template_id: integer.optional(), sender_id: integer.optional() })
			.passthrough(),
	},
	/** Where `no_change` sits is not shown: the answer's fields are checked where present. */
	reprocessChatMessage: {
		method: 'POST', path: '/api/chat/v1/process', token: 'basic', envelope: 'A', idempotent: false,
		answer: z.object({ success: z.boolean().optional(), message_id: integer.optional(), visual_id: z.string().optional() }).passthrough().nullable(),
	},
	getChatTemplates: {
		method: 'GET', path: '/api/chat/v1/templates/get', token: 'basic', envelope: 'B', idempotent: true,
		answer: z.array(z.object({ id: integer, name: z.string(), sender_id: integer.optional() }).passthrough()),
	},
	/** Answer not shown: a list, or an object holding one. */
	getChatSenders: {
		method: 'GET', path: '/api/chat/v1/senders/get', token: 'basic', envelope: 'auto', idempotent: true,
		answer: z.union([z.array(z.object({}).passthrough()), z.object({}).passthrough()]).transform(listIn),
	},
} as const satisfies Record<string, Route>;

export type RouteName = keyof typeof ROUTES;
