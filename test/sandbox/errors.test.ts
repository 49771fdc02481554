/** The status codes every route shares (405, 404, 429, 503), and the faults the control can inject. */
import { describe, expect, it } from 'vitest';

import { call, chatAuth, chatRoutes, TOKEN, useSandbox, welcome } from './support';

// A low limit, so that the 429 test reaches it in a few requests.
const ctx = useSandbox({ authFailureLimit: 3 });
const { send } = chatRoutes(ctx);

describe('Errors › status codes', () => {
	it('405 for a wrong method on a known route, 404 for an unknown one', async () => {
		const wrong = await call(`${ctx.base}/api/v2/post`, { method: 'GET' });
		expect(wrong.status).toBe(405);
		expect(wrong.headers.get('allow')).toBe('POST');
		expect((await call(`${ctx.base}/api/chat/v1/templates/get`, { method: 'POST', headers: chatAuth })).body).toMatchObject({ code: 405 });
		expect((await call(`${ctx.base}/api/v2/favorites`, { method: 'GET' })).body).toEqual({ success: false, message: expect.any(String) });
		expect((await call(`${ctx.base}/api/v9/nothing`)).status).toBe(404);
	});

	it('429 after repeated failed authentication from one client; a success resets the count', async () => {
		const statuses: number[] = [];
		for (let i = 0; i < 5; i++) statuses.push((await call(`${ctx.base}/api/v2/balance/wrong`)).status);
		expect(statuses).toEqual([401, 401, 401, 429, 429]);
		expect((await call(`${ctx.base}/api/v2/balance/${TOKEN}`)).status).toBe(200);
		expect((await call(`${ctx.base}/api/v2/balance/wrong`)).status).toBe(401);
	});

	it('503 during maintenance on letter and e-mail routes only', async () => {
		ctx.sandbox.control.setMaintenance(true);
		const answer = await call(`${ctx.base}/api/v2/balance/${TOKEN}`);
		expect(answer.status).toBe(503);
		expect(answer.body).toMatchObject({ status: 503, data: null });
		expect((await call(`${ctx.base}/api/v2/get/${TOKEN}/1`)).status).toBe(503);
		expect((await call(`${ctx.base}/api/chat/v1/senders/get`, { headers: chatAuth })).status).toBe(200);
		ctx.sandbox.control.setMaintenance(false);
		expect((await call(`${ctx.base}/api/v2/balance/${TOKEN}`)).status).toBe(200);
	});

	// A 500 (and its count), a 503 and skip are test/node/errors.test.ts's, slow test/node/batching.test.ts's, a
	// redirect's status and target test/node/credentials.test.ts's: these are the faults no other test reads.
	it('injected faults: drop, dropAfterAccept, html, empty, trickle; a redirect needs its location', async () => {
		ctx.sandbox.control.injectFault({ path: '/api/v2/balance', kind: 'drop' });
		await expect(fetch(`${ctx.base}/api/v2/balance/${TOKEN}`)).rejects.toThrow();
		expect(() => ctx.sandbox.control.injectFault({ path: '/', kind: 'redirect' })).toThrow(/location/);

		// The others do the work, then close the connection or answer with something that is not the envelope.
		ctx.sandbox.control.injectFault({ method: 'POST', path: '/api/chat/v1/post', kind: 'dropAfterAccept' });
		await expect(send(welcome)).rejects.toThrow();
		ctx.sandbox.control.injectFault({ method: 'POST', path: '/api/chat/v1/post', kind: 'html' });
		const page = await send(welcome);
		expect([page.status, page.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
		ctx.sandbox.control.injectFault({ method: 'POST', path: '/api/chat/v1/post', kind: 'empty' });
		const empty = await send(welcome);
		expect([empty.status, empty.body]).toEqual([200, '']);
		expect(ctx.sandbox.control.chatMessages()).toHaveLength(3);

		ctx.sandbox.control.injectFault({ path: '/api/v2/balance', kind: 'trickle', delayMs: 20 });
		const response = await fetch(`${ctx.base}/api/v2/balance/${TOKEN}`);
		const reader = response.body!.getReader();
		const chunks: Uint8Array[] = [];
		for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) chunks.push(chunk.value);
		// One byte per pause: the reader sees the answer in many small pieces.
		expect(chunks.length).toBeGreaterThan(10);
		expect(JSON.parse(Buffer.concat(chunks).toString('utf8'))).toMatchObject({ status: 200, data: { balance: expect.any(Number) } });
	});
});
