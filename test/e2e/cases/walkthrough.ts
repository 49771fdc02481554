// docs/first-registered-letter.md, walked in the real editor and the sandbox's panel as a user walks
// it: every label, button and value the page names is found by that name, the letter is priced and
// sent from the node's panel, the trigger listens while the panel sends the one delivery the page
// describes, the return receipt arrives as a file and downloads again, and the page's screenshots
// are taken on the way (written into docs/images/ when every step worked).
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import { SAMPLE_LETTER_PATH } from '../../../sandbox/sample';
import { PACKAGE_NAME, packageVersion } from '../../../scripts/dev/n8n';
import { inBrowser, publishScreenshots, screenshot } from '../support/browser';
import { addFromNodePanel, chooseOption, expectTexts, labelOf, parameterRow, shownValue, SLOW } from '../support/editor';
import { listExecutions, type E2eEnvironment } from '../support/environment';
import {
	binaryOutput,
	buttonText,
	CREDENTIALS,
	expectPageToNameWhatTheRunDoes,
	LETTER,
	listeningTrigger,
	PANEL_RECEIPT,
	PDF_URL,
	PREFILLED,
	registerEndpoint,
	sha256,
	SHOTS,
	showAs,
	TAG,
	UI,
	workflowIdOf,
} from '../support/walkthroughPage';

export function walkthroughCases(env: () => E2eEnvironment) {
	describe('the walkthrough "Send your first registered letter", in the real editor', () => {
		it('names what this run clicks and fills, by the same names', () => {
			expectPageToNameWhatTheRunDoes();
		});

		it('prices and sends a letter with return receipt from the node; the trigger shows its tracking event, then its return receipt as a file, which downloads again; published, the next receipt runs it', async () => {
			const e = env();
			const { control } = e.sandbox;
			// The tabs that hold a workflow this run made, to delete it afterwards.
			const workflows: Page[] = [];
			const endpoints: number[] = [];
			await inBrowser(e.editorUrl, 'walkthrough', async ({ context, page }) => {
				try {
					// Without a clone: Settings > Community nodes > Install a community node (not installed
					// from here: the package of this run is the packed one n8n already loaded).
					const settings = page.locator('[data-test-id="main-sidebar-settings"]').getByLabel(UI.settings, { exact: true });
					const communityNodes = page.getByText(UI.communityNodes, { exact: true }).first();
					// A click landing while the menu still opens is lost: click again until the page is there.
					for (let attempt = 1; !/\/settings\/community-nodes/.test(page.url()); attempt++) {
						if (attempt > 3) throw new Error(`${UI.settings} > ${UI.communityNodes} did not open the page in 3 clicks`);
						if (!(await communityNodes.isVisible())) await settings.click();
						await communityNodes.click();
						await page.waitForURL(/\/settings\/community-nodes/, { timeout: 15_000 }).catch(() => undefined);
					}
					await page.getByText(UI.installCommunityNode, { exact: true }).click();
					const install = page.locator('[role="dialog"]').filter({ has: page.locator('[data-test-id="install-community-package-button"]') });
					await install.getByText(UI.packageName, { exact: true }).waitFor();
					await install.locator('input[data-test-id="package-name-input"], [data-test-id="package-name-input"] input').first().fill(`${PACKAGE_NAME}@${packageVersion()}`);
					const installButton = install.locator('[data-test-id="install-community-package-button"]');
					await expect.poll(() => buttonText(installButton), SLOW).toBe(UI.install);
					expect(await installButton.isEnabled()).toBe(false);
					await install.getByText(UI.risks, { exact: true }).click();
					await expect.poll(() => installButton.isEnabled(), SLOW).toBe(true);
					await screenshot(page, SHOTS.install);
					await page.keyboard.press('Escape');

					// 2. The credentials npm run dev made, each listed with its type.
					await page.goto(`${e.editorUrl}/home/credentials`);
					await expectTexts(page.locator('main, body').first(), CREDENTIALS.map(({ name, type }) => `${name} ${type} |`));
					await screenshot(page, SHOTS.credentials);

					// 3. A workflow: a manual trigger, then Postal Service > Get letter price, filled in as the table says.
					await page.goto(`${e.editorUrl}/home/workflows`);
					await page.getByText(UI.createWorkflow, { exact: true }).first().click();
					const addFirst = page.locator('[data-test-id="canvas-add-button"]');
					await expect.poll(() => buttonText(addFirst), SLOW).toBe(UI.firstStep);
					await addFirst.click();
					await page.locator('[data-test-id="node-creator"]').getByText(UI.manualTrigger, { exact: true }).click();
					workflows.push(page);
					await page.locator('[data-test-id="canvas-handle-plus"]').first().click();
					const ndv = await addFromNodePanel(page, UI.node, UI.getPrice);
					const credential = ndv.locator('[data-test-id="node-credentials-select"]');
					await expect.poll(() => credential.locator('input').first().inputValue(), SLOW).toBe(CREDENTIALS[0].name);
					// The list offers a new credential too (the track without a clone); a second click closes it.
					await credential.click();
					await page.getByText(UI.createCredential, { exact: true }).waitFor();
					await credential.click();
					await page.getByText(UI.createCredential, { exact: true }).waitFor({ state: 'hidden' });
					const pdfUrl = `${e.sandbox.baseUrl}${SAMPLE_LETTER_PATH}`;
					for (const { label, parameter, value, option } of LETTER) {
						await expect.poll(() => labelOf(page, ndv, parameter), { ...SLOW, message: parameter }).toBe(label);
						if (option) await chooseOption(page, ndv, parameter, value);
						else await ndv.locator(`[data-test-id="parameter-input-${parameter}"] input`).fill(value);
					}
					for (const { label, parameter, value } of PREFILLED) {
						await expect.poll(() => labelOf(page, ndv, parameter), SLOW).toBe(label);
						await expect.poll(() => shownValue(ndv, parameter), SLOW).toBe(value);
					}
					await expect.poll(() => labelOf(page, ndv, PDF_URL.parameter), SLOW).toBe(PDF_URL.label);
					await ndv.locator(`[data-test-id="parameter-input-${PDF_URL.parameter}"] input`).fill(pdfUrl);
					const execute = ndv.locator('[data-test-id="node-execute-button"]');
					await expect.poll(() => buttonText(execute), SLOW).toBe(UI.executeStep);
					// The service's checks of this letter (test=1), whatever else the suite's workflows send.
					const quotes = () =>
						control.requests({ method: 'POST', path: '/api/v2/post' }).filter((r) => r.fields.test === '1' && r.fields.name === LETTER[1].value && r.fields.pdfFile === pdfUrl).length;
					const quotesBefore = quotes();
					await execute.first().click();
					const output = ndv.locator('[data-test-id="output-panel"]');
					await expect.poll(() => output.innerText(), SLOW).toMatch(/value[\s\S]*\d+\.\d+/);
					expect(quotes()).toBe(quotesBefore + 1);
					expect(control.orders().filter((o) => o.tag === TAG)).toHaveLength(0);
					await screenshot(page, SHOTS.price);

					// 4. The same node, Operation Send: n8n names it Send letter and keeps the fields.
					await expect.poll(() => labelOf(page, ndv, 'operation'), SLOW).toBe(UI.operation);
					await chooseOption(page, ndv, 'operation', UI.send);
					await expect.poll(() => ndv.locator('[data-test-id="node-title-container"]').innerText(), SLOW).toBe(UI.sendLetter);
					for (const { parameter, value } of LETTER) await expect.poll(() => shownValue(ndv, parameter), { ...SLOW, message: parameter }).toBe(value);
					await expect.poll(() => labelOf(page, ndv, 'tag'), SLOW).toBe(UI.tag);
					await ndv.locator('[data-test-id="parameter-input-tag"] input').fill(TAG);
					await execute.first().click();
					await expect.poll(() => control.orders().filter((o) => o.tag === TAG).length, SLOW).toBe(1);
					const letter = control.orders().find((o) => o.tag === TAG)!;
					const orderId = String(letter.id);
					expect(letter).toMatchObject({ shipType: 3, ar_type: 'physical', return_receipt: { type: 'rr' } });
					await expect.poll(() => output.innerText(), SLOW).toContain(orderId);
					await screenshot(page, SHOTS.send);

					// 5. The sandbox's panel gives the letter its tracking code before anything listens.
					const panel = await context.newPage();
					panel.setDefaultTimeout(SLOW.timeout);
					await panel.goto(e.sandbox.panelUrl);
					const row = panel.locator(`tr[data-order="${orderId}"]`);
					await row.getByRole('button', { name: UI.assignCode, exact: true }).click();
					await row.getByRole('button', { name: UI.addEvent, exact: true }).waitFor();
					const code = control.order(orderId)!.tracking as string;
					expect(code).toMatch(/^JT\d+BR$/);

					// The trigger, in a workflow of its own, on the test environment, listening.
					const tracking = await listeningTrigger(context, e, UI.onTracking, UI.trackingUpdated);
					workflows.push(tracking.editor);
					await expect.poll(() => buttonText(tracking.editor.locator('[data-test-id="workflow-open-publish-modal-button"]')), SLOW).toBe(UI.publish);

					// The panel: the Test URL as an endpoint for tracking.updated, then the delivered event.
					const endpoint = await registerEndpoint(panel, e, tracking.testUrl, 'tracking.updated', UI.endpointEvent);
					endpoints.push(endpoint.id);
					await row.locator('select[name="event"]').selectOption({ label: UI.delivered });
					await row.getByRole('button', { name: UI.addEvent, exact: true }).click();
					await control.waitForDeliveries((all) => all.some((d) => d.webhookId === endpoint.id && d.state !== 'pending'), SLOW.timeout);

					// Exactly one delivery reached the Test URL: the delivered event.
					const sent = control.deliveries({ webhookId: endpoint.id });
					expect(sent).toHaveLength(1);
					expect(sent[0]).toMatchObject({ event: 'tracking.updated', state: 'delivered', test: false });
					expect(sent[0].payload).toMatchObject({ event_detail_type: 'new_tracking_record', environment: 'homolog', data: { id: orderId, tracking_code: code, status_delivery: 'delivered' } });
					await panel.locator(`#deliveries tr[data-delivery="${sent[0].deliveryId}"] .state`).getByText('Delivered').waitFor();
					await screenshot(panel, SHOTS.panel);

					// The trigger's one item: that event, in the JSON view.
					const item = tracking.trigger.locator('[data-test-id="output-panel"]');
					await item.getByText('JSON', { exact: true }).first().click();
					await expectTexts(item, ['new_tracking_record', '1 item', '"tracking.updated"', '"homolog"', `"${code}"`, '"Objeto entregue ao destinatário"', '"delivered"']);
					await screenshot(tracking.editor, SHOTS.trigger);

					// 6. The return receipt: a trigger for it, listening, and its endpoint.
					const receipt = await listeningTrigger(context, e, UI.onReturnReceipt, UI.returnReceiptCreated);
					workflows.push(receipt.editor);
					const receiptEndpoint = await registerEndpoint(panel, e, receipt.testUrl, 'rr.created', UI.endpointReceipt);
					endpoints.push(receiptEndpoint.id);
					const receiptForm = row.locator('form').filter({ has: panel.getByRole('button', { name: UI.addReceipt, exact: true }) });
					await expect.poll(() => receiptForm.innerText(), SLOW).toContain(PANEL_RECEIPT);
					await receiptForm.getByRole('button', { name: UI.addReceipt, exact: true }).click();
					await control.waitForDeliveries((all) => all.some((d) => d.webhookId === receiptEndpoint.id && d.state !== 'pending'), SLOW.timeout);
					const receipts = control.deliveries({ webhookId: receiptEndpoint.id });
					expect(receipts).toHaveLength(1);
					expect(receipts[0]).toMatchObject({ event: 'rr.created', state: 'delivered', test: false });
					const file = (receipts[0].payload as { data: { file: { name: string; base64: string } } }).data.file;
					expect(receipts[0].payload).toMatchObject({ environment: 'homolog', data: { id: orderId, rr_type: 'rr', tracking_code: code, file: { name: `${orderId}-rr-1.pdf` } } });
					const receiptSha = sha256(Buffer.from(file.base64, 'base64'));
					await panel.locator(`#deliveries tr[data-delivery="${receipts[0].deliveryId}"] .state`).getByText('Delivered').waitFor();
					await row.locator('.files').getByText(/\brr\b/).waitFor();
					// From the orders down to the deliveries: the letter's files, its endpoints and the receipt's delivery.
					await panel.locator('h2', { hasText: 'Orders' }).evaluate((heading) => heading.scrollIntoView());
					await screenshot(panel, SHOTS.receiptPanel);

					// The trigger's one item: the event under JSON, its PDF under Binary, the receipt's very bytes.
					const receiptItem = receipt.trigger.locator('[data-test-id="output-panel"]');
					await expect.poll(() => receiptItem.innerText(), SLOW).toContain('1 item');
					await showAs(receiptItem, 'JSON');
					await expectTexts(receiptItem, ['"rr.created"', '"homolog"', `"${orderId}"`, '"rr_type": "rr"', `"${code}"`, '"fileUnreadable": false']);
					expect(await receiptItem.innerText()).not.toContain(file.base64.slice(0, 40));
					const inTrigger = await binaryOutput(receipt.editor, receiptItem);
					expect(inTrigger.count).toBe(1);
					for (const text of [file.name, 'application/pdf']) expect(inTrigger.text).toContain(text);
					expect(inTrigger.sha256).toBe(receiptSha);
					await screenshot(receipt.editor, SHOTS.receipt);

					// Letter > Download letter file after the trigger: the same receipt, downloaded from the service.
					await receipt.trigger.locator('[data-test-id="ndv-close-button"]').click();
					await receipt.editor.locator('[data-test-id="canvas-handle-plus"]').first().click();
					const download = await addFromNodePanel(receipt.editor, UI.node, UI.downloadLetterFile);
					await expect.poll(() => download.locator('[data-test-id="node-credentials-select"] input').first().inputValue(), SLOW).toBe(CREDENTIALS[0].name);
					const letterId = download.locator('[data-test-id="resource-locator-orderId"]');
					const letterIdLabel = parameterRow(receipt.editor, download, '[data-test-id="resource-locator-orderId"]').locator('[data-test-id="input-label"]').first();
					await expect.poll(async () => (await letterIdLabel.innerText()).split('\n')[0].trim(), SLOW).toBe(UI.letterId);
					await letterId.locator('[data-test-id="rlc-input"]').fill(orderId);
					await expect.poll(() => labelOf(receipt.editor, download, 'fileType'), SLOW).toBe(UI.fileType);
					await chooseOption(receipt.editor, download, 'fileType', UI.returnReceipt);
					const downloads = () => control.requests({ method: 'GET' }).filter((r) => new RegExp(`^/api/v2/download/[^/]+/${orderId}/rr$`).test(r.path)).length;
					const downloadsBefore = downloads();
					await download.locator('[data-test-id="node-execute-button"]').first().click();
					const downloaded = download.locator('[data-test-id="output-panel"]');
					await expect.poll(() => downloads(), SLOW).toBe(downloadsBefore + 1);
					await expect.poll(() => downloaded.innerText(), SLOW).toMatch(/1 item/);
					const again = await binaryOutput(receipt.editor, downloaded);
					expect(again.count).toBe(1);
					expect(again.text).toContain('application/pdf');
					expect(again.sha256).toBe(receiptSha);
					await screenshot(receipt.editor, SHOTS.download);

					// Once it works: Publish (and Publish in its dialog), the Production URL as an endpoint, the Test URLs' endpoints removed.
					await download.locator('[data-test-id="ndv-close-button"]').click();
					const receiptWorkflow = workflowIdOf(receipt.editor)!;
					await receipt.editor.locator('[data-test-id="workflow-open-publish-modal-button"]').click();
					const publishDialog = receipt.editor.locator('[role="dialog"]').filter({ has: receipt.editor.getByRole('button', { name: UI.publish, exact: true }) });
					await publishDialog.getByRole('button', { name: UI.publish, exact: true }).click();
					await expect.poll(async () => (await e.client.api<{ active: boolean }>('GET', `/workflows/${receiptWorkflow}`)).active, SLOW).toBe(true);
					await receipt.editor.getByRole('button', { name: UI.gotIt, exact: true }).click();
					await receipt.editor.locator('[data-test-id="canvas-node"][data-node-type$=".postalServiceTrigger"]').dblclick();
					const published = receipt.editor.locator('[data-test-id="ndv"]');
					await published.getByText(UI.webhookUrls, { exact: true }).click();
					await published.locator('[data-test-id="radio-button-production"]').click();
					const productionUrl = (await published.getByText(/\/webhook\//).first().innerText()).trim();
					expect(productionUrl.startsWith(`${e.webhookUrl}/webhook/`)).toBe(true);
					const production = await registerEndpoint(panel, e, productionUrl, 'rr.created', UI.endpointReceipt);
					endpoints.push(production.id);
					for (const { id, url } of [endpoint, receiptEndpoint]) {
						expect(url).toContain('/webhook-test/');
						await panel.locator('#webhooks tr', { hasText: url }).getByRole('button', { name: UI.remove, exact: true }).click();
						await expect.poll(() => control.webhooks().some((w) => w.id === id), SLOW).toBe(false);
						endpoints.splice(endpoints.indexOf(id), 1);
					}
					// The next receipt of the letter runs the published workflow, listed under Executions.
					await receiptForm.getByRole('button', { name: UI.addReceipt, exact: true }).click();
					await control.waitForDeliveries((all) => all.some((d) => d.webhookId === production.id && d.state !== 'pending'), SLOW.timeout);
					expect(control.deliveries({ webhookId: production.id })).toMatchObject([{ event: 'rr.created', state: 'delivered' }]);
					await expect.poll(async () => (await listExecutions(e.client, { workflowId: receiptWorkflow })).filter((x) => x.mode === 'webhook' && x.status === 'success').length, SLOW).toBe(1);

					// Next: how a workflow's menu imports an example.
					await published.locator('[data-test-id="ndv-close-button"]').click();
					await receipt.editor.locator('[data-test-id="workflow-menu"]').first().click();
					await receipt.editor.getByText(UI.import, { exact: true }).hover();
					for (const from of [UI.fromFile, UI.fromUrl]) await receipt.editor.getByText(from, { exact: true }).waitFor();

					// Every step worked: the page's pictures are these.
					publishScreenshots(Object.values(SHOTS));
				} finally {
					for (const id of endpoints) control.removeWebhook(id);
					for (const id of workflows.map(workflowIdOf).filter((id) => id && id !== 'new')) {
						await e.client.api('POST', `/workflows/${id}/deactivate`).catch(() => undefined);
						await e.client.api('DELETE', `/workflows/${id}`).catch(() => undefined);
					}
				}
			});
		}, 900_000);
	});
}
