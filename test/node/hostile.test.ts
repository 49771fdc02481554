/**
 * A hostile or broken network between the node and the service: redirects that would carry the
 * token elsewhere, answers that are not the service's, a server that never quite finishes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startHttpServer } from '../harness/httpServer';
import { countSecretLeaks, echoedForms } from '../reliability/types';
import { CHAT_MESSAGE, EMAIL, LETTER, pdfItem, run, TOKEN, useSandbox } from './fixture';

const ctx = useSandbox();
const SEND = CHAT_MESSAGE;

function leaks(text: string): string[] {
	const forms = [
		TOKEN,
		encodeURIComponent(TOKEN),
		Buffer.from(TOKEN).toString('base64'),
		Buffer.from(`${EMAIL}:${TOKEN}`).toString('base64'),
	];
	return forms.filter((form) => text.includes(form));
}

describe('redirects are never followed', () => {
	let elsewhere: Awaited<ReturnType<typeof startHttpServer>>;
	beforeAll(async () => {
		elsewhere = await startHttpServer((_req, res) => {
			res.setHeader('content-type', 'application/json');
			res.end(JSON.stringify({ status: 200, status_message: 'Sucesso - pedido aceito', data: '999999' }));
		});
	});
	afterAll(async () => await elsewhere.close());

	const cases: Array<[string, Record<string, unknown>, string, boolean]> = [
		['an order create (token in a multipart field), 307', LETTER, '/api/v2/post', true],
		['an order create, 302', LETTER, '/api/v2/post', true],
		['the logo (token in a header), 307', { resource: 'account', operation: 'getLogo' }, '/api/v2/logo', false],
		['a chat message (HTTP Basic), 307', SEND, '/api/chat/v1/post', true],
		['an order read (token in the path), 308', { resource: 'order', operation: 'get', orderId: '100001' }, '/api/v2/get/', false],
	];

	it.each(cases)('%s: an error naming the target, nothing sent there', async (label, parameters, path, write) => {
		elsewhere.requests.length = 0;
		ctx.sandbox.control.addChatNumber('+5511987654321');
		const status = Number(/(\d{3})$/.exec(label)![1]);
		// A target that carries the token itself, as a server echoing the path would make it.
		const location = `${elsewhere.url}/moved/${TOKEN}?again=${encodeURIComponent(TOKEN)}`;
		ctx.sandbox.control.injectFault({ path, kind: 'redirect', status, location, count: 5 });
		const result = await run(ctx.sandbox, parameters, { items: [await pdfItem(1)] });
		expect(elsewhere.requests).toHaveLength(0);
		expect(result.error?.message).toMatch(new RegExp(`redirect \\(HTTP ${status}\\)`));
		expect(result.error?.message).toContain(`${elsewhere.url}/moved/***`);
		expect(result.error?.message).toMatch(/nothing was sent there/);
		if (write) expect(result.error?.description).toMatch(/not sent again/);
		expect(leaks(result.serialized)).toEqual([]);
		expect(ctx.sandbox.control.orders()).toHaveLength(0);
	});
});

describe('an answer that is not the service\'s is an error', () => {
	let fake: Awaited<ReturnType<typeof startHttpServer>>;
	let answer: { status: number; type: string; body: string } = { status: 200, type: 'application/json', body: '' };
	beforeAll(async () => {
		fake = await startHttpServer((_req, res) => {
			res.statusCode = answer.status;
			res.setHeader('content-type', answer.type);
			res.end(answer.body);
		});
	});
	afterAll(async () => await fake.close());

	it.each<[string, string]>([
		['an HTML page', 'html'],
		['an empty body', 'empty'],
	])('a create answered with %s: the letter may exist, it is not resent, and the error says how to check', async (_label, kind) => {
		ctx.sandbox.control.injectFault({ path: '/api/v2/post', kind: kind as 'html' });
		const result = await run(ctx.sandbox, { ...LETTER, tag: 'unclear' }, { items: [await pdfItem(1)] });
		expect(result.error?.message).toMatch(/not the service's usual answer.*may have been accepted.*not sent again/);
		expect(result.error?.description).toMatch(/Letter > Get/);
		expect(result.error?.description).toMatch(/tag/);
		expect(ctx.sandbox.control.requests({ path: '/api/v2/post' })).toHaveLength(1);
		expect(ctx.sandbox.control.orders()).toHaveLength(1);
	});

	it('a create answered with envelope A and data null', async () => {
		answer = { status: 200, type: 'application/json', body: JSON.stringify({ status: 200, status_message: 'Sucesso - pedido aceito', data: null }) };
		const result = await run({ baseUrl: fake.url }, LETTER, { items: [await pdfItem(1)] });
		expect(result.error?.message).toMatch(/may have been accepted.*not sent again/);
		expect(result.items).toHaveLength(0);
		expect(fake.requests).toHaveLength(1);
	});

	it('a chat message answered with an HTML page', async () => {
		ctx.sandbox.control.addChatNumber('+5511987654321');
		ctx.sandbox.control.injectFault({ path: '/api/chat/v1/post', kind: 'html' });
		const result = await run(ctx.sandbox, SEND);
		expect(result.error?.message).toMatch(/may have been accepted.*not sent again/);
		expect(ctx.sandbox.control.chatMessages()).toHaveLength(1);
	});

	it('a read answered with the wrong types: an error that names what was expected, no output', async () => {
		fake.requests.length = 0;
		answer = { status: 200, type: 'application/json', body: JSON.stringify({ status: 200, status_message: 'ok', data: { id: 5, status: 'posted' } }) };
		const result = await run({ baseUrl: fake.url }, { resource: 'order', operation: 'get', orderId: '100001' });
		expect(result.error?.message).toMatch(/not the service's usual answer/);
		expect(result.error?.description).toMatch(/data\.id/);
		expect(result.error?.message).not.toMatch(/may have been accepted/);
		expect(leaks(result.serialized)).toEqual([]);
	});

	it('a read from a base URL that serves a web page', async () => {
		answer = { status: 200, type: 'text/html', body: '<!doctype html><title>Panel</title>' };
		const result = await run({ baseUrl: fake.url }, { resource: 'account', operation: 'getBalance' });
		expect(result.error?.message).toMatch(/not the service's usual answer/);
		expect(result.error?.description).toMatch(/base URL/);
	});
});

describe('Timeout bounds the whole request', () => {
	it('a write whose answer trickles past the timeout: an error saying it may have been accepted, sent once', async () => {
		ctx.sandbox.control.addChatNumber('+5511987654321');
		ctx.sandbox.control.injectFault({ path: '/api/chat/v1/post', kind: 'trickle', delayMs: 400 });
		const result = await run(ctx.sandbox, { ...SEND, options: { timeout: 1000 } });
		expect(result.error?.message).toMatch(/did not answer in time; the request may have been accepted\. It was not sent again/);
		expect(ctx.sandbox.control.requests({ path: '/api/chat/v1/post' })).toHaveLength(1);
		expect(ctx.sandbox.control.chatMessages()).toHaveLength(1);
	});

	it('a read that trickles: stopped at the timeout, which bounds the whole operation, so not tried again', async () => {
		ctx.sandbox.control.injectFault({ path: '/api/v2/balance/', kind: 'trickle', delayMs: 400, count: 3 });
		const result = await run(ctx.sandbox, { resource: 'account', operation: 'getBalance', options: { timeout: 1000 } });
		expect(result.error?.message).toMatch(/did not answer in time/);
		expect(ctx.sandbox.control.requests({ path: '/api/v2/balance/' })).toHaveLength(1);
	});

	it.each([2 ** 31, 2 ** 32 + 5, 1.5])('a Timeout of %s ms is refused before anything is sent, naming the field', async (timeout) => {
		const result = await run(ctx.sandbox, { ...LETTER, options: { timeout } }, { items: [await pdfItem(1)] });
		expect(result.error?.message).toMatch(/"Timeout \(Ms\)" must be a whole number of milliseconds from 1 to 3600000.*Nothing was sent/);
		expect(result.error?.message).not.toMatch(/not sent again/);
		expect(ctx.sandbox.control.requests({ path: '/api/v2/post' })).toHaveLength(0);
	});
});

describe('the token in any encoding a server echoes it in is redacted', () => {
	const SLASHY = 'Ab/Cd+Ef=Gh Ij&SECRET-91';
	const SECRETS = [{ secret: SLASHY }, { secret: SLASHY, basicUser: EMAIL }];
	let echo = { status: 302, type: 'text/plain', body: '', location: '' };
	let server: Awaited<ReturnType<typeof startHttpServer>>;
	beforeAll(async () => {
		server = await startHttpServer((_req, res) => {
			res.statusCode = echo.status;
			res.setHeader('content-type', echo.type);
			if (echo.location) res.setHeader('location', echo.location);
			res.end(echo.body);
		});
	});
	afterAll(async () => await server.close());

	const places: Record<string, (text: string) => typeof echo> = {
		'a redirect Location': (text) => ({ status: 302, type: 'text/plain', body: '', location: `${server.url}/login?next=/api/v2/balance/${text}` }),
		"an error in the service's envelope": (text) => ({ status: 401, type: 'application/json', body: JSON.stringify({ status: 401, status_message: `Token inválido: ${text}`, data: null }), location: '' }),
		'an HTML error page': (text) => ({ status: 502, type: 'text/html', body: `<html><head><title>Bad gateway ${text}</title></head></html>`, location: '' }),
		'an HTML page with 200': (text) => ({ status: 200, type: 'text/html', body: `<html><head><title>${text}</title></head></html>`, location: '' }),
		// A success is output as it came: the echo in a message, a link, a field's name and value.
		'a successful answer': (text) => ({
			status: 200,
			type: 'application/json',
			body: JSON.stringify({ code: 200, status: 'success', message: `ok ${text}`, data: [{ id: 1, name: 'aviso', link: `https://example.com/t?token=${text}`, [`k ${text}`]: text }] }),
			location: '',
		}),
	};
	const cases = Object.keys(places).flatMap((place) => echoedForms(SLASHY, EMAIL).map(({ name, text }) => [place, name, text] as const));

	it.each(cases)('%s holding the token (%s)', async (place, _name, text) => {
		echo = places[place](text);
		const result = await run({ baseUrl: server.url }, { resource: 'chatTemplate', operation: 'getMany', returnAll: true, simplify: false }, { token: SLASHY });
		expect(result.error === undefined).toBe(place === 'a successful answer');
		expect(countSecretLeaks(`${result.serialized}\n${String(result.error?.message)}\n${String(result.error?.description)}`, SECRETS)).toBe(0);
	});
});
