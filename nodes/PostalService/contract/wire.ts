/**
 * What the service answers, per route, as zod schemas: the three envelopes of the spec's Errors
 * part and the `data` each route returns on success (Endpoints and Resources). The transport checks
 * every answer against them, so a page that is not the service's (a wrong base URL, a proxy's
 * sign-in page, an empty body) is never taken for a success. Where the spec does not show a shape
 * the schema only asks for what the node reads (see assumptions.ts for the names it assumes).
 */
import { z } from 'zod';

const integer = z.number().int();

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

/** `data` of each route's success answer (the whole answer for envelope C). */
export const ANSWERS = {
	/** POST /api/v2/post: the visual id of the new order. */
	orderCreated: z.string().regex(/^\d+$/, 'expected the visual id of the new order (a string of digits)'),
	/** POST /api/v2/post with test=1: the computed price. */
	quote: z.object({ value: z.number() }).passthrough(),
	/** GET /api/v2/get/...: the order (the registered e-mail read shape is not shown). */
	order: z
		.object({
			id: z.string(),
			status: integer.optional(),
			shipType: integer.optional(),
			numPages: integer.optional(),
			files: z.array(z.object({ name: z.string(), type: z.string() }).passthrough()).optional(),
		})
		.passthrough(),
	/** GET /api/v2/download/...: the file in base64. */
	file: z
		.object({ file_name: z.string(), file_type: z.string(), id_job: z.string(), file_base64: z.string() })
		.passthrough(),
	/** DELETE /api/v2/delete/... */
	cancelled: z.object({ id: z.string(), status: integer, status_text: z.string(), message: z.string() }).passthrough(),
	/** GET /api/v2/balance/...: fields not shown; anything but nothing. */
	balance: z.union([z.number(), z.string(), z.object({}).passthrough()]),
	/** GET /api/v2/logo (envelope B). */
	logo: z.object({ logo_url: z.string() }).passthrough(),
	/** PUT /api/v2/favorites (envelope C, the whole answer). */
	favoriteUpdated: z.object({ success: z.literal(true), message: z.string(), favorite: z.object({ id: integer }).passthrough() }).passthrough(),
	/** POST /api/chat/v1/post. `status` is `processing`, or 2 when credits are short. */
	chatMessage: z
		.object({
			message_id: integer,
			visual_id: z.string(),
			status: z.union([z.string(), integer]),
			template_id: integer.optional(),
			sender_id: integer.optional(),
		})
		.passthrough(),
	/** POST /api/chat/v1/process. */
	chatReprocessed: z.object({ success: z.boolean(), message_id: integer, visual_id: z.string() }).passthrough(),
	/** GET /api/chat/v1/templates/get (envelope B). */
	templates: z.array(z.object({ id: integer, name: z.string(), sender_id: integer.optional() }).passthrough()),
	/** GET /api/chat/v1/senders/get: not shown; a list, or an object holding one. */
	senders: z.union([z.array(z.object({}).passthrough()), z.object({}).passthrough()]),
	/** GET /api/receipts/v1/get: not shown. */
	receipt: z.unknown(),
} satisfies Record<string, z.ZodTypeAny>;
