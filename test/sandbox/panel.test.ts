/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
import { existsSync } from 'node:fs';

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { CHROMIUM, openBrowser } from '../e2e/support/browser';
import { call, newLetter, TOKEN, useSandbox } from './support';

const ctx = useSandbox();

describe('Sandbox panel over HTTP', () => {
	it('is an English page with named statuses and event kinds, no prompt() dialogs', async () => {
		const page = await call(`${ctx.base}/`);
		expect(page.headers.get('content-type')).toMatch(/text\/html/);
		expect(page.body).toContain('<html lang="en">');
		expect(page.body).toContain('Send a sample letter');
		expect(page.body).toContain('"meaning":"Posted"');
		expect(page.body).toContain('"name":"Order Status Updated"');
		expect(page.body).not.toMatch(/prompt\(|alert\(|Pedidos|Entregas|mover status/);
		for (const action of ['setOrderStatus', 'addTrackingEvent', 'addReturnReceipt', 'resendDelivery']) expect(page.body).toContain(action);
		expect((await fetch(`${ctx.base}/_sandbox/logo.svg`)).headers.get('content-type')).toBe('image/svg+xml');
	});

	it('"Send a sample letter" creates a registered letter through the create route, with a generated PDF', async () => {
		const answer = await call(`${ctx.base}/_sandbox/sendSampleLetter`, { method: 'POST' });
		expect(answer.status).toBe(200);
		expect(answer.body).toMatchObject({ kind: 'letter', shipType: 3, status: 0, numPages: 1, tag: 'sample-letter' });
		const [created] = ctx.sandbox.control.requests({ method: 'POST', path: '/api/v2/post' });
		expect(created).toMatchObject({ status: 200, fields: { userSecurityToken: TOKEN, shipType: '3' }, files: [{ field: 'pdfFile', mimeType: 'application/pdf' }] });
	});
});

describe.skipIf(!existsSync(CHROMIUM))('Sandbox panel in a browser', () => {
	let browser: Awaited<ReturnType<typeof openBrowser>>;
	let page: Page;
	const dialogs: string[] = [];
	// The Chromium the end-to-end suite drives, set up as it sets it up.
	beforeAll(async () => {
		browser = await openBrowser();
		page = browser.page;
		page.on('dialog', (dialog) => {
			dialogs.push(dialog.message());
			void dialog.dismiss();
		});
	});
	afterAll(async () => {
		await browser?.close();
	});

	// Tracking, an endpoint registered from the form, its deliveries and a return receipt added from the page are
	// test/e2e/cases/walkthrough.ts's, in the same browser against a real n8n.
	it('shows what the receiver took, newest first', async () => {
		await page.goto(`${ctx.base}/`);
		await call(`${ctx.sandbox.receiverUrl}/chat/hooks/collection`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text: 'Returned to sender (devolvida): letter 100001' }) });
		const row = page.locator('tr[data-received]').first();
		await expect.poll(() => row.textContent(), { timeout: 10_000 }).toContain('POST /chat/hooks/collection');
		expect(await row.textContent()).toContain('Returned to sender (devolvida): letter 100001');
		expect(await page.locator('#receiver-url').textContent()).toBe(ctx.sandbox.receiverUrl);
		await page.getByRole('button', { name: 'Clear what was received' }).click();
		await expect.poll(() => page.locator('#received').textContent()).toBe('Nothing received yet.');
	});

	it("shows a CRM record with its notes and attachments, and an attachment's link gives the file back", async () => {
		await page.goto(`${ctx.base}/`);
		const record = `${ctx.sandbox.receiverUrl}/crm/api/clientes/C-7`;
		const pdf = Buffer.from('%PDF-1.4 AR assinado');
		const note = (texto: string) => call(`${record}/notas`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ texto }) });
		await note('Carta registrada com AR enviada: pedido 100001');
		await call(`${record}/anexos/AR-100001.pdf`, { method: 'PUT', headers: { 'content-type': 'application/pdf' }, body: pdf });
		await note(`AR recebido da carta 100001, anexado: ${record}/anexos/AR-100001.pdf`);
		const row = page.locator('tr[data-record="/crm/api/clientes/C-7"]');
		await expect.poll(() => row.locator('ul.notes li').count(), { timeout: 10_000 }).toBe(2);
		expect(await row.locator('ul.notes').textContent()).toContain('Carta registrada com AR enviada: pedido 100001');
		const links = [await row.locator('ul.files a').getAttribute('href'), await row.locator('ul.notes a').getAttribute('href')];
		expect(links).toEqual([`${record}/anexos/AR-100001.pdf`, `${record}/anexos/AR-100001.pdf`]);
		const opened = await page.request.get(links[0]!);
		expect(opened.headers()['content-type']).toBe('application/pdf');
		expect(Buffer.from(await opened.body()).equals(pdf)).toBe(true);
	});

	it('moves a letter, and offers a return receipt only where the service makes one, of the kind ar_type asks, and says why not elsewhere', async () => {
		const registered = await newLetter(ctx.base, { shipType: '2' });
		const electronic = await newLetter(ctx.base, { shipType: '3', ar_type: 'electronic' });
		await page.goto(`${ctx.base}/`);
		const without = page.locator(`tr[data-order="${registered}"]`);
		await expect.poll(() => without.locator('td').nth(1).textContent()).toBe('Registered Letter (2)');
		expect(await without.getByRole('button', { name: 'Add return receipt' }).isDisabled()).toBe(true);
		expect(await without.textContent()).toContain('No return receipt: Registered Letter (2) has no AR (only shipType 3, 7, 10)');
		expect(await without.locator('form.no-receipt').getAttribute('title')).toMatch(/never sends rr\.created/);
		await without.getByLabel('New status').selectOption({ label: 'Posted (4)' });
		await without.getByRole('button', { name: 'Move' }).click();
		await expect.poll(() => without.locator('td.status').textContent()).toBe('Posted (4)');
		expect(await page.locator('#message').textContent()).toBe('Status changed (order.status_updated sent)');

		const row = page.locator(`tr[data-order="${electronic}"]`);
		expect(await row.textContent()).toContain('Electronic (rr_electronic), as ar_type electronic asks');
		await row.getByRole('button', { name: 'Add return receipt' }).click();
		await expect.poll(() => row.locator('td.files').textContent()).toContain('rr_electronic');
		expect(ctx.sandbox.control.order(registered)).toMatchObject({ rr_count: 0 });
		expect(dialogs).toEqual([]);
	});
});
