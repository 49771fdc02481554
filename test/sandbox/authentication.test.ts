/**
 * The spec's Authentication table, route by route: every route tried with the token in every place
 * a client could put it. Where the spec takes it, the route answers; anywhere else, and with a wrong
 * token in a right place, it answers 401 and changes nothing, so the sandbox is never kinder than
 * the service. The table below is copied from the spec, not from the sandbox.
 */
import { request } from 'undici';
import { describe, expect, it } from 'vitest';

import { answerOf, basic, EMAIL, formData, letter, newLetter, pdfWithPages, TOKEN, useSandbox, welcome, type Answer } from './support';

const ctx = useSandbox({ authFailureLimit: 1_000 });

/** Every place a client could put the token. */
const PLACES = ['path', 'query', 'form field', 'multipart field', 'JSON field', 'securityToken header', 'Bearer', 'Basic'] as const;
type Place = (typeof PLACES)[number];
type Encoding = 'form' | 'multipart' | 'json';
const BODY_PLACES: Record<Encoding, Place> = { form: 'form field', multipart: 'multipart field', json: 'JSON field' };

// The spec's Authentication table: read routes in the path; create and update routes in a form field
// or the query; logo and receipts in the header forms or the query; chat by HTTP Basic.
const WRITE: Place[] = ['form field', 'multipart field', 'query'];
const HEADER_FORMS: Place[] = ['securityToken header', 'Bearer', 'query'];

type Ids = Record<string, string>;

interface RouteCase {
	/** The spec's method and path: `{securityToken}` is where the path takes the token, `{job_id}` the order, `{type}` the file. */
	name: string;
	/** The places the spec gives this route. */
	spec: Place[];
	/** The content types the route accepts, the one a client uses first; none for a route without a body. */
	encodings?: Encoding[];
	query?: (ids: Ids) => Record<string, string>;
	fields?: (ids: Ids, encoding: Encoding) => Promise<Record<string, string | number | Record<string, string> | Buffer>>;
	/** Orders or messages the call needs. */
	prepare?: () => Promise<Ids>;
	/** The route's 401 answer, when it is not envelope A's. */
	refusal?: Record<string, unknown>;
	/** What the call would change, read before and after a refused one. */
	effect?: (ids: Ids) => unknown;
}

const refusedA = { status: 401, status_message: 'Token inválido', data: null };
const refusedChat = { status: 401, status_message: 'Unauthorized - invalid credentials', data: null };
const order = async () => ({ order: await newLetter(ctx.base) });
const letterFields = async (_ids: Ids, encoding: Encoding) => {
	const pdf = await pdfWithPages(1);
	return { ...letter({ userSecurityToken: undefined }), pdfFile: encoding === 'multipart' ? pdf : pdf.toString('base64') };
};

const ROUTES: RouteCase[] = [
	{
		name: 'POST /api/v2/post',
		spec: WRITE,
		encodings: ['multipart', 'form'],
		fields: letterFields,
		effect: () => ctx.sandbox.control.orders().length,
	},
	{
		name: 'GET /api/v2/get/{securityToken}/{job_id}',
		spec: ['path'],
		prepare: order,
	},
	{
		name: 'GET /api/v2/download/{securityToken}/{job_id}/{type}',
		spec: ['path'],
		prepare: order,
	},
	{
		name: 'DELETE /api/v2/delete/{securityToken}/{job_id}',
		spec: ['path'],
		prepare: order,
		effect: (ids) => ctx.sandbox.control.order(ids.order)?.status,
	},
	{
		name: 'GET /api/v2/balance/{securityToken}',
		spec: ['path'],
	},
	{
		name: 'GET /api/v2/logo',
		spec: HEADER_FORMS,
		refusal: { code: 401, status: 'error', message: 'Token de segurança inválido', data: null },
	},
	{
		name: 'PUT /api/v2/favorites',
		// An update route: a form field or the query; a key of a JSON body is not a form field.
		spec: ['form field', 'query'],
		encodings: ['json', 'form'],
		fields: async () => ({ id: '1', city: 'Santos' }),
		refusal: { success: false, message: 'Não autorizado' },
		effect: () => ctx.sandbox.control.favorites()[0].city,
	},
	{
		name: 'GET /api/receipts/v1/get',
		spec: HEADER_FORMS,
		prepare: order,
		query: (ids) => ({ order_id: ids.order }),
	},
	{
		name: 'POST /api/chat/v1/post',
		spec: ['Basic'],
		encodings: ['json', 'form', 'multipart'],
		fields: async (_ids, encoding) =>
			encoding === 'json' ? { ...welcome } : { phone: welcome.phone, template_id: String(welcome.template_id), variables: JSON.stringify(welcome.variables) },
		refusal: refusedChat,
		effect: () => ctx.sandbox.control.chatMessages().length,
	},
	{
		name: 'POST /api/chat/v1/process',
		spec: ['Basic'],
		encodings: ['json'],
		// A message held for lack of credits, then credits added: what the route re-queues.
		prepare: async () => {
			ctx.sandbox.control.setBalance(0);
			const held = await sendRaw('POST', '/api/chat/v1/post', {}, { authorization: basic(EMAIL, TOKEN) }, 'json', { ...welcome });
			expect(held.body).toMatchObject({ status: 200, data: { status: '2' } });
			ctx.sandbox.control.topUp(10);
			return { message: String(held.body.data.message_id) };
		},
		fields: async (ids) => ({ message_id: Number(ids.message) }),
		refusal: refusedChat,
		effect: (ids) => ctx.sandbox.control.chatMessages().find((m) => String(m.message_id) === ids.message)?.status,
	},
	{
		name: 'GET /api/chat/v1/templates/get',
		spec: ['Basic'],
		refusal: { code: 401, status: 'error', message: 'Não autorizado — credenciais inválidas', data: null, request_id: expect.any(String) },
	},
	{
		name: 'GET /api/chat/v1/senders/get',
		spec: ['Basic'],
		refusal: refusedChat,
	},
];

/** One request as bytes on the wire (undici's request, so that a GET may carry a body as any client can send one). */
async function sendRaw(
	method: string,
	path: string,
	query: Record<string, string>,
	headers: Record<string, string>,
	encoding: Encoding | undefined,
	fields: Record<string, unknown> | undefined,
): Promise<Answer> {
	let body: Buffer | undefined;
	const all: Record<string, string> = { ...headers };
	if (encoding && fields) {
		if (encoding === 'json') {
			body = Buffer.from(JSON.stringify(fields));
			all['content-type'] = 'application/json';
		} else if (encoding === 'form') {
			body = Buffer.from(new URLSearchParams(Object.entries(fields).map(([k, v]): [string, string] => [k, String(v)])).toString());
			all['content-type'] = 'application/x-www-form-urlencoded';
		} else {
			const encoded = new Request('http://127.0.0.1/', { method: 'POST', body: formData(fields) });
			body = Buffer.from(await encoded.arrayBuffer());
			all['content-type'] = encoded.headers.get('content-type')!;
		}
	}
	const search = new URLSearchParams(query).toString();
	const answer = await request(`${ctx.base}${path}${search ? `?${search}` : ''}`, { method: method as 'GET', headers: all, body });
	return answerOf(answer.statusCode, await answer.body.text());
}

/** The route called with the token in each place given (a path slot with no right token gets a wrong one). */
async function callWith(route: RouteCase, ids: Ids, tokens: Array<[Place, string]>): Promise<Answer> {
	const bodyPlace = tokens.find(([place]) => Object.values(BODY_PLACES).includes(place));
	const encoding = bodyPlace
		? (Object.entries(BODY_PLACES).find(([, place]) => place === bodyPlace[0])![0] as Encoding)
		: route.encodings?.[0];
	const fields: Record<string, unknown> | undefined = route.fields ? { ...(await route.fields(ids, encoding ?? 'json')) } : bodyPlace ? {} : undefined;
	const query = { ...route.query?.(ids) };
	const headers: Record<string, string> = {};
	let pathToken = 'not-the-token';
	for (const [place, token] of tokens) {
		if (place === 'path') pathToken = token;
		else if (place === 'query') query.userSecurityToken = token;
		else if (place === 'securityToken header') headers.securityToken = token;
		else if (place === 'Bearer') headers.authorization = `Bearer ${token}`;
		else if (place === 'Basic') headers.authorization = basic(EMAIL, token);
		else fields!.userSecurityToken = token;
	}
	const [method, path] = route.name.split(' ');
	const filled = path.replace('{securityToken}', pathToken).replace('{job_id}', ids.order).replace('{type}', 'pdf');
	return await sendRaw(method, filled, query, headers, encoding, fields);
}

/** Every place a client could try on this route: the path only where the route has a token slot, bodies of the types it takes. */
function placesFor(route: RouteCase): Place[] {
	const bodies = (route.encodings ?? (['form', 'multipart', 'json'] as Encoding[])).map((e) => BODY_PLACES[e]);
	return PLACES.filter((place) => (place === 'path' ? route.name.includes('{securityToken}') : Object.values(BODY_PLACES).includes(place) ? bodies.includes(place) : true));
}

async function expectRefused(route: RouteCase, ids: Ids, tokens: Array<[Place, string]>) {
	const before = route.effect?.(ids);
	const answer = await callWith(route, ids, tokens);
	expect(answer.status, JSON.stringify(answer.body)).toBe(401);
	expect(answer.body).toMatchObject(route.refusal ?? refusedA);
	expect(route.effect?.(ids)).toEqual(before);
}

const CASES = ROUTES.flatMap((route) => placesFor(route).map((place) => ({ route, place, accepted: route.spec.includes(place) })));

describe('Authentication › the token where the spec puts it, and nowhere else', () => {
	it('tries every route of the spec, each in at least five places', () => {
		expect(ROUTES).toHaveLength(12);
		for (const route of ROUTES) {
			expect(placesFor(route).length, route.name).toBeGreaterThanOrEqual(5);
			// Every place the spec gives the route is tried.
			for (const place of route.spec) expect(placesFor(route), `${route.name}: ${place}`).toContain(place);
		}
		expect(CASES.filter((c) => c.accepted).length).toBe(ROUTES.reduce((n, r) => n + r.spec.length, 0));
	});

	it.each(CASES.map((c) => [c.route.name, c.place, c.accepted ? 'answers, and refuses a wrong token there' : 'is refused', c] as const))(
		'%s with the token as %s %s',
		async (_name, _place, _what, { route, place, accepted }) => {
			const ids = (await route.prepare?.()) ?? {};
			if (!accepted) {
				await expectRefused(route, ids, [[place, TOKEN]]);
				return;
			}
			await expectRefused(route, ids, [[place, 'wrong-token']]);
			const before = route.effect?.(ids);
			const answer = await callWith(route, ids, [[place, TOKEN]]);
			// The success envelope of its family, and the call's effect made (each answer's shape is test/docs/outputs.test.ts's).
			expect([answer.status, answer.body.status === 200 || answer.body.code === 200 || answer.body.success === true], JSON.stringify(answer.body)).toEqual([200, true]);
			if (route.effect) expect(route.effect(ids)).not.toEqual(before);
		},
	);

	it.each(ROUTES.map((route) => [route.name, route] as const))('%s without any token is refused', async (_name, route) => {
		await expectRefused(route, (await route.prepare?.()) ?? {}, []);
	});

	// Two places the route reads that disagree: the sandbox refuses rather than pick one (the spec does not say which wins).
	const PAIRS = ROUTES.flatMap((route) =>
		route.spec.flatMap((right) =>
			route.spec
				.filter((wrong) => wrong !== right && !(Object.values(BODY_PLACES).includes(right) && Object.values(BODY_PLACES).includes(wrong)))
				.map((wrong) => [route.name, right, wrong, route] as const),
		),
	);
	it('pairs two places on every route that reads more than one', () => {
		expect(PAIRS.length).toBe(4 + 2 + 6 + 6);
	});

	it.each(PAIRS)('%s with the token as %s and a wrong one as %s is refused', async (_name, right, wrong, route) => {
		await expectRefused(route, (await route.prepare?.()) ?? {}, [
			[right, TOKEN],
			[wrong, 'wrong-token'],
		]);
	});
});
