/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { call, chatAuth, controlOverHttp, EMAIL, newLetter, pdfWithPages, TOKEN, useSandbox, useWebhookRigs } from './support';

const ctx = useSandbox();

const control = controlOverHttp(ctx);
const { setup } = useWebhookRigs();

describe('Sandbox › control API in process', () => {
	// The request log's fields and file digests are test/node/order-create.test.ts's, its filters and order test/node/batching.test.ts's.
	it('reset() goes back to the seeded state', async () => {
		await newLetter(ctx.base);
		ctx.sandbox.control.registerWebhook({ url: 'http://127.0.0.1:9/' });
		ctx.sandbox.control.reset();
		expect(ctx.sandbox.control.orders()).toEqual([]);
		expect(ctx.sandbox.control.webhooks()).toEqual([]);
		expect(ctx.sandbox.control.balance()).toBe(1000);
		expect(ctx.sandbox.control.templates()).toHaveLength(6);
		expect(ctx.sandbox.control.senders()).toHaveLength(2);
	});

	// An unknown event is test/trigger/contract.test.ts's.
	const refusals: Array<[string, (control: typeof ctx.sandbox.control, id: string) => unknown, RegExp]> = [
		['an unknown order', (c) => c.setOrderStatus('nope', 1), /no order/],
		['an unknown status', (c, id) => c.setOrderStatus(id, 99), /does not exist/],
		['a status_delivery off the list, with a status that exists', (c, id) => c.setOrderStatus(id, 1, { statusDelivery: 'lost' }), /statusDelivery/],
		['an unknown fault kind', (c) => c.injectFault({ path: '/', kind: 'boom' as never }), /kind/],
	];
	it.each(refusals)('refuses %s and changes nothing', async (_label, refused, words) => {
		const id = await newLetter(ctx.base);
		ctx.sandbox.control.registerWebhook({ url: 'http://127.0.0.1:9/', events: ['order.status_updated'] });
		const before = ctx.sandbox.control.orders();
		expect(() => refused(ctx.sandbox.control, id)).toThrow(words);
		expect(ctx.sandbox.control.orders()).toEqual(before);
		expect(ctx.sandbox.control.deliveries()).toEqual([]);
	});
});

describe('Sandbox › control API over HTTP (/_sandbox/...)', () => {
	it('moves an order, adds tracking and a return receipt, reads it back', async () => {
		const id = await newLetter(ctx.base, { shipType: '3' });
		expect((await control('setOrderStatus', { id, status: 1 })).body).toMatchObject({ id, status: 1 });
		expect((await control('addTrackingEvent', { id })).body.tracking).toMatch(/BR$/);
		expect((await control('addTrackingEvent', { id, codigo: 'BDE', descricao: 'Entregue', statusDelivery: 'delivered' })).body).toMatchObject({ status_delivery: 'delivered' });
		const rr = await control('addReturnReceipt', { id, pdfBase64: (await pdfWithPages(1)).toString('base64') });
		expect(rr.body).toMatchObject({ rr_count: 1, rr_available: true });
		expect((await call(`${ctx.base}/_sandbox/order?id=${id}`)).body).toMatchObject({ id, kind: 'letter' });
	});

	it('registers a webhook, lists endpoints and deliveries, waits for them', async () => {
		const endpoint = (await control('registerWebhook', { url: 'http://127.0.0.1:9/', events: ['webhook.test'], secret: null })).body;
		expect(endpoint).toMatchObject({ id: 1, secret: null, events: ['webhook.test'] });
		await control('sendTestEvent', { id: endpoint.id });
		const waited = await control('waitForDeliveries', { count: 1, state: 'failed', timeoutMs: 3000 });
		expect(waited.body[0]).toMatchObject({ event: 'webhook.test', state: 'failed' });
		expect((await call(`${ctx.base}/_sandbox/deliveries?event=webhook.test`)).body).toHaveLength(1);
		expect((await control('pauseWebhook', { id: endpoint.id })).body.paused).toBe(true);
	});

	it('takes { args: [...] } for any method, and answers 400 { error } when refused', async () => {
		expect((await control('setBalance', { args: [42] })).body).toBe(42);
		expect((await control('topUp', { amount: 8 })).body).toBe(50);
		expect((await call(`${ctx.base}/_sandbox/balance`)).body).toBe(50);
		const refused = await control('setOrderStatus', { id: 'nope', status: 1 });
		expect(refused.status).toBe(400);
		expect(refused.body.error).toMatch(/no order/);
		expect((await control('nothing')).status).toBe(404);
	});

	it('adds an approved template to a sender, listed after the seeded ones', async () => {
		const added = (await control('addTemplate', { senderId: 2, name: 'entrega_confirmada', variableNames: ['nome', 'pedido'] })).body;
		expect(added).toMatchObject({ id: 107, sender_id: 2, sender_name: 'Loja Exemplo', status: 'approved', body_text: '{{1}} {{2}}' });
		const listed = await call(`${ctx.base}/api/chat/v1/templates/get`, { headers: chatAuth });
		expect(listed.body.data.at(-1)).toMatchObject({ id: 107, variable_names: ['nome', 'pedido'] });
	});

	it('creates registered e-mail orders and switches maintenance', async () => {
		const order = (await control('createEmailOrder', { email: 'ana@example.com', subject: 'Oi' })).body;
		expect(order.id).toMatch(/^E\d+$/);
		await control('setMaintenance', { on: true });
		expect((await call(`${ctx.base}/api/v2/get/${TOKEN}/${order.id}`)).status).toBe(503);
		expect((await call(`${ctx.base}/_sandbox/info`)).body).toMatchObject({ maintenance: true, email: EMAIL, environment: 'homolog' });
		await control('setMaintenance', { on: false });
	});
});

describe('Sandbox › state file', () => {
	it('keeps orders, balance and webhooks between runs', async () => {
		const dir = mkdtempSync(path.join(tmpdir(), 'sandbox-state-'));
		const stateFile = path.join(dir, 'state.json');
		try {
			const first = await setup({ stateFile });
			const id = await newLetter(first.baseUrl);
			first.control.registerWebhook({ url: 'http://127.0.0.1:9/', events: ['rr.created'] });
			const balance = first.control.balance();
			await first.stop();
			const second = await setup({ stateFile });
			expect(second.control.order(id)).toMatchObject({ id, pdf_available: true });
			expect(second.control.balance()).toBe(balance);
			expect(second.control.webhooks()).toHaveLength(1);
			expect(await newLetter(second.baseUrl)).toBe(String(Number(id) + 1));
			// Stopped before its folder goes: a sandbox writes its state file once more as it stops.
			await second.stop();
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});
});

describe('Sandbox › command line', () => {
	it('starts with --port 0, prints base URL, token, e-mail, secret and panel, and answers once its banner is out', async () => {
		const tsx = path.resolve(__dirname, '../../node_modules/tsx/dist/cli.mjs');
		const cli = path.resolve(__dirname, '../../sandbox/cli.ts');
		const child = spawn(process.execPath, [tsx, cli, '--port', '0', '--token', 'T', '--email', 'E', '--webhook-secret', 'S', '--environment', 'production'], {
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		try {
			const banner = await new Promise<string>((resolve, reject) => {
				let out = '';
				child.stdout.on('data', (chunk: Buffer) => {
					out += chunk.toString();
					if (/panel\s+http/.test(out)) resolve(out);
				});
				child.on('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
				setTimeout(() => reject(new Error(`no banner: ${out}`)), 10_000).unref();
			});
			const base = /base URL\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(banner)![1];
			expect(banner).toMatch(/token\s+T\n/);
			expect(banner).toMatch(/e-mail\s+E\n/);
			expect(banner).toMatch(/webhook secret\s+S\n/);
			expect(banner).toMatch(/environment\s+production/);
			const balance = await call(`${base}/api/v2/balance/T`);
			expect(balance.status).toBe(200);
		} finally {
			child.kill('SIGTERM');
		}
	});
});
