/**
 * Where each route takes the account token, as the spec's Authentication table gives it, and
 * nowhere else: a token in a place the route does not read is no token, so that the sandbox never
 * lets through a request the service would refuse.
 */
import type { SandboxCore } from './core';
import { basicCredentials, text, type Ctx } from './http';

export type Placement =
	/** The first path segment after the route name (read routes). */
	| 'path'
	/** A `userSecurityToken` field of a form body: urlencoded or multipart, never JSON. */
	| 'formField'
	/** The `userSecurityToken` query parameter. */
	| 'query'
	/** The `securityToken` header. */
	| 'header'
	/** `Authorization: Bearer <token>`. */
	| 'bearer'
	/** `Authorization: Basic base64(<account e-mail>:<token>)`. */
	| 'basic';

/** Each route family's places (the query parameter goes wherever the header forms work, as the spec says). */
export const PLACEMENTS = {
	read: ['path'],
	write: ['formField', 'query'],
	logoAndReceipts: ['header', 'bearer', 'query'],
	chat: ['basic'],
} as const satisfies Record<string, readonly Placement[]>;

function presented(ctx: Ctx, placement: Exclude<Placement, 'path' | 'basic'>): string | undefined {
	switch (placement) {
		case 'formField':
			return ctx.bodyKind === 'form' || ctx.bodyKind === 'multipart' ? text(ctx.fields.userSecurityToken) : undefined;
		case 'query':
			return ctx.query.userSecurityToken;
		case 'header': {
			const header = ctx.headers['securitytoken'];
			return typeof header === 'string' ? header : undefined;
		}
		case 'bearer': {
			const authorization = ctx.headers.authorization;
			return authorization && /^bearer\s+/i.test(authorization) ? authorization.replace(/^bearer\s+/i, '').trim() : undefined;
		}
	}
}

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
	const checks: boolean[] = [];
	for (const place of places) {
		if (place === 'path') {
			checks.push(pathSegment(ctx.params[0]) === token);
		} else if (place === 'basic') {
			const credentials = basicCredentials(ctx.headers);
			if (credentials) checks.push(credentials.user === email && credentials.password === token);
		} else {
			const value = presented(ctx, place);
			if (value !== undefined) checks.push(value === token);
		}
	}
	return checks.length > 0 && checks.every(Boolean);
}
