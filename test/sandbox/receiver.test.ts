/** The receiver: the stand-in of a user's own systems that the examples post to under `npm run dev`. */
import { createHash } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import { call, pdfWithPages, useSandbox } from './support';

const ctx = useSandbox();
const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

describe('Receiver (<base>/_receiver/...)', () => {
	it('answers every method 200 and records the request: path, query, type, size, digest, body', async () => {
		const json = JSON.stringify({ text: 'Letter 100001 is held' });
		const pdf = await pdfWithPages(1);
		const sent = [
			{ method: 'POST', path: '/chat/hooks/postal-alerts', type: 'application/json', body: json },
			{ method: 'PATCH', path: '/crm/api/orders/100001?source=n8n', type: 'application/json; charset=utf-8', body: '{"status":4}' },
			{ method: 'PUT', path: '/files/return-receipts/100001-rr.pdf', type: 'application/pdf', body: pdf },
			{ method: 'DELETE', path: '/crm/api/orders/100001', type: undefined, body: undefined },
			{ method: 'POST', path: '/chat/hooks/form', type: 'application/x-www-form-urlencoded', body: 'text=ol%C3%A1' },
		];
		for (const r of sent) {
			const answer = await call(`${ctx.sandbox.receiverUrl}${r.path}`, { method: r.method, headers: r.type ? { 'content-type': r.type } : {}, body: r.body });
			expect(answer.status).toBe(200);
			expect(answer.body).toEqual({ ok: true, id: expect.stringMatching(/^received-\d+$/) });
		}
		const received = ctx.sandbox.control.received();
		expect(received.map((r) => `${r.method} ${r.path}`)).toEqual(sent.map((r) => `${r.method} ${r.path}`));
		expect(received[0]).toMatchObject({ id: 1, contentType: 'application/json', body: json, json: { text: 'Letter 100001 is held' }, size: json.length, sha256: sha256(json) });
		expect(received[1].json).toEqual({ status: 4 });
		expect(received[2]).toMatchObject({ size: pdf.length, sha256: sha256(pdf), body: `(${pdf.length} bytes of application/pdf)` });
		expect(received[2].json).toBeUndefined();
		expect(received[3]).toMatchObject({ size: 0, body: '' });
		expect(received[4].body).toBe('text=ol%C3%A1');
		// Not the service's traffic: the request log of its routes stays empty.
		expect(ctx.sandbox.control.requests()).toEqual([]);
	});

	it('filters by method and by path (exact, or a prefix ending at a /), in process and over HTTP', async () => {
		for (const path of ['/crm/api/orders/1', '/crm/api/orders/2', '/crm/api/deals/9/notes', '/crmx/other', '/chat/hooks/collection']) {
			await call(`${ctx.sandbox.receiverUrl}${path}`, { method: path.startsWith('/chat') ? 'POST' : 'PATCH', headers: { 'content-type': 'application/json' }, body: '{}' });
		}
		const paths = (filter: Parameters<typeof ctx.sandbox.control.received>[0]) => ctx.sandbox.control.received(filter).map((r) => r.path);
		expect(paths({ path: '/crm' })).toEqual(['/crm/api/orders/1', '/crm/api/orders/2', '/crm/api/deals/9/notes']);
		expect(paths({ path: '/crm/api/orders/' })).toEqual(['/crm/api/orders/1', '/crm/api/orders/2']);
		expect(paths({ path: '/chat/hooks/collection' })).toEqual(['/chat/hooks/collection']);
		expect(paths({ method: 'post' })).toEqual(['/chat/hooks/collection']);
		expect(paths((r) => r.path.endsWith('/notes'))).toEqual(['/crm/api/deals/9/notes']);
		const overHttp = await call(`${ctx.base}/_sandbox/received?path=/crm/api/orders`);
		expect(overHttp.body.map((r: { path: string }) => r.path)).toEqual(['/crm/api/orders/1', '/crm/api/orders/2']);
		expect((await call(`${ctx.base}/_sandbox/info`)).body.receiverUrl).toBe(ctx.sandbox.receiverUrl);
		expect(ctx.sandbox.receiverUrl).toBe(`${ctx.base}/_receiver`);
	});

	it('gives back on a GET the last file PUT at that path, byte for byte, and records only the PUTs', async () => {
		const pdf = await pdfWithPages(1);
		const newer = await pdfWithPages(2);
		const url = `${ctx.sandbox.receiverUrl}/crm/api/clientes/C-7/anexos/AR-100001.pdf`;
		const put = (body: Buffer) => fetch(url, { method: 'PUT', headers: { 'content-type': 'application/pdf' }, body: new Uint8Array(body) });
		expect((await put(pdf)).status).toBe(200);
		const first = await fetch(`${url}?download=1`);
		expect(first.headers.get('content-type')).toBe('application/pdf');
		expect(sha256(Buffer.from(await first.arrayBuffer()))).toBe(sha256(pdf));
		await put(newer);
		expect(sha256(Buffer.from(await (await fetch(url)).arrayBuffer()))).toBe(sha256(newer));
		expect(ctx.sandbox.control.received().map((r) => `${r.method} ${r.path}`)).toEqual([`PUT /crm/api/clientes/C-7/anexos/AR-100001.pdf`, `PUT /crm/api/clientes/C-7/anexos/AR-100001.pdf`]);
		// A path nothing was PUT at is an arrival like any other, answered 200 and recorded.
		expect((await call(`${ctx.sandbox.receiverUrl}/crm/api/clientes/C-7/anexos/other.pdf`)).body).toEqual({ ok: true, id: expect.stringMatching(/^received-\d+$/) });
		ctx.sandbox.control.clearReceived();
		expect((await call(url)).body).toEqual({ ok: true, id: 'received-1' });
	});

	it('forgets on clearReceived and on reset, numbering from 1 again', async () => {
		const post = () => call(`${ctx.sandbox.receiverUrl}/chat`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' });
		await post();
		await call(`${ctx.base}/_sandbox/clearReceived`, { method: 'POST' });
		expect(ctx.sandbox.control.received()).toEqual([]);
		await post();
		expect(ctx.sandbox.control.received()[0].id).toBe(1);
		ctx.sandbox.control.reset();
		expect(ctx.sandbox.control.received()).toEqual([]);
	});
});
