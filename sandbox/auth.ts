/**
 * Where each route takes the account token, as the spec's Authentication table gives it, and
 * nowhere else: a token in a place the route does not read is no token, so that the sandbox never
 * lets through a request the service would refuse.
 */
import type { SandboxCore } from './core';
import { basicCredentials, text, type Ctx } from './http';

/** A token as a place carries it: undefined where the request carries none, else whether it is the account's. */
const carried = (value: unknown, token: string) => (typeof value === 'string' ? value === token : undefined);
const BEARER = /^bearer\s+/i;

/** Each place a token may travel, read from a request. */
const PLACES = {
	/** The first path segment after the route name (read routes). */
	path: (ctx: Ctx, token: string) => pathSegment(ctx.params[0]) === token,
	/** A `userSecurityToken` field of a form body: urlencoded or multipart, never JSON. */
	formField: (ctx: Ctx, token: string) =>
		ctx.bodyKind === 'form' || ctx.bodyKind === 'multipart' ? carried(text(ctx.fields.userSecurityToken), token) : undefined,
	/** The `userSecurityToken` query parameter. */
	query: (ctx: Ctx, token: string) => carried(ctx.query.userSecurityToken, token),
	/** The `securityToken` header. */
	header: (ctx: Ctx, token: string) => carried(ctx.headers['securitytoken'], token),
	/** `Authorization: Bearer <token>`. */
	bearer: (ctx: Ctx, token: string) =>
		BEARER.test(ctx.headers.authorization ?? '') ? carried(ctx.headers.authorization!.replace(BEARER, '').trim(), token) : undefined,
	/** `Authorization: Basic base64(<account e-mail>:<token>)`. */
	basic: (ctx: Ctx, token: string, email: string) => {
		const credentials = basicCredentials(ctx.headers);
		return credentials ? credentials.user === email && credentials.password === token : undefined;
	},
};

export type Placement = keyof typeof PLACES;

/** Each route family's places (the query parameter goes wherever the header forms work, as the spec says). */
export const PLACEMENTS = {
	read: ['path'],
	write: ['formField', 'query'],
	logoAndReceipts: ['header', 'bearer', 'query'],
	chat: ['basic'],
} as const satisfies Record<string, readonly Placement[]>;

function pathSegment(raw: string | undefined): string | undefined {
	try {
		return raw === undefined ? undefined : decodeURIComponent(raw);
	} catch {
		return undefined;
	}
}

/**
 * Whether the request carries the account's credentials in one of the places given: at least one
 * of them, and every one present right (two places that disagree are refused, not guessed between).
 */
export function authenticated(core: SandboxCore, ctx: Ctx, places: readonly Placement[]): boolean {
	const { token, email } = core.settings;
	const checks = places.map((place) => PLACES[place](ctx, token, email)).filter((check) => check !== undefined);
	return checks.length > 0 && checks.every(Boolean);
}
