/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
// docs/first-registered-letter.md, performed in the real editor: the values the page gives, the steps
// it describes (run Get letter price, run Send letter, listen with the trigger and move the letter in
// the sandbox), and the screenshots it shows, written into docs/images/ when every step worked.
import { copyFileSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { SAMPLE_LETTER_PATH } from '../../../sandbox/sample';
import { DEFAULT_OWNER, PACKAGE_NAME, repoRoot } from '../../../scripts/n8n';
import { waitForWebhook } from '../../../scripts/workflows';
import { artifactsDir, openBrowser, screenshot, signInThroughEditor } from '../support/browser';
import { SLOW } from '../support/editor';
import type { E2eEnvironment } from '../support/environment';

const PAGE = path.join(repoRoot, 'docs', 'first-registered-letter.md');
const SHOTS = ['walkthrough-credentials.png', 'walkthrough-get-price.png', 'walkthrough-send.png', 'walkthrough-trigger.png'];

/** The letter of the page's table, field label → node parameter and value. */
const LETTER: Array<[label: string, parameter: string, value: string | number, shown?: string]> = [
	['Ship Type', 'shipType', 2, '2: Registered Letter'],
	['Recipient Name', 'recipientName', 'Ana Pereira'],
	['Recipient Street', 'recipientAddr1', 'Rua Augusta'],
	['Recipient Number', 'recipientStreetNumber', '500'],
	['Recipient Complement', 'recipientAddr2', 'Apto 12'],
	['Recipient Postal Code', 'recipientZip', '01305-000'],
	['Recipient City', 'recipientCity', 'São Paulo'],
	['Recipient State', 'recipientState', 'SP'],
	['PDF Source', 'pdfSource', 'url', 'URL'],
];
const TAG = 'first-letter';

export function walkthroughCases(env: () => E2eEnvironment) {
	describe('the walkthrough "Send your first registered letter", in the real editor', () => {
		it('gives the values and names this run uses', () => {
			const page = readFileSync(PAGE, 'utf8');
			for (const [label, , value, shown] of LETTER) expect(page, label).toContain(`| ${label} | ${shown ?? value} |`);
			expect(page).toContain(SAMPLE_LETTER_PATH);
			expect(page).toContain(`\`${TAG}\``);
			for (const name of ['Get letter price', 'Send letter', 'Test Environment (Homolog)', 'Tracking Updated']) expect(page).toContain(name);
			for (const shot of SHOTS) expect(page).toContain(`(images/${shot})`);
		});

		it('prices and sends the letter, and the trigger shows its tracking event', async () => {
			const e = env();
			const { control } = e.sandbox;
			const account = e.credentials.find((c) => c.type === 'postalServiceApi')!;
			const secret = e.credentials.find((c) => c.type === 'postalServiceWebhookApi')!;
			const letter = Object.fromEntries(LETTER.map(([, parameter, value]) => [parameter, value]));
			const pdfUrl = `${e.sandbox.baseUrl}${SAMPLE_LETTER_PATH}`;
			const postal = (name: string, operation: string, x: number, extra: Record<string, unknown> = {}) => ({
				id: `00000000-0000-4000-8000-00000000000${x}`,
				name,
				type: `${PACKAGE_NAME}.postalService`,
				typeVersion: 1,
				position: [x * 240, 0],
				parameters: { resource: 'order', operation, ...letter, recipientCountry: 'Brasil', pdfUrl, ...extra },
				credentials: { postalServiceApi: { id: account.id, name: account.name } },
			});
			const created: string[] = [];
			const browser = await openBrowser();
			const { page } = browser;
			// The editor's first load can take long on a busy machine.
			page.setDefaultNavigationTimeout(120_000);
			try {
				await signInThroughEditor(page, e.editorUrl, DEFAULT_OWNER);

				// 2. The credentials npm run dev made.
				await page.goto(`${e.editorUrl}/home/credentials`);
				for (const name of ['Postal Service account', 'Postal Service chat account', 'Postal Service webhook secret']) {
					await page.getByText(name, { exact: true }).first().waitFor(SLOW);
				}
				await screenshot(page, SHOTS[0]);

				// 3 and 4. A workflow with Get letter price and Send letter, each run as a step.
				const workflow = await e.client.api<{ id: string }>('POST', '/workflows', {
					name: `My first registered letter ${Date.now()}`,
					nodes: [
						{ id: '00000000-0000-4000-8000-000000000000', name: "When clicking 'Execute workflow'", type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
						postal('Get letter price', 'getPrice', 1),
						postal('Send letter', 'create', 2, { tag: TAG }),
					],
					connections: {
						"When clicking 'Execute workflow'": { main: [[{ node: 'Get letter price', type: 'main', index: 0 }]] },
						'Get letter price': { main: [[{ node: 'Send letter', type: 'main', index: 0 }]] },
					},
					settings: { executionOrder: 'v1' },
				});
				created.push(workflow.id);
				await page.goto(`${e.editorUrl}/workflow/${workflow.id}`);
				const runStep = async (name: string) => {
					await page.locator('[data-test-id="canvas-node"]', { hasText: name }).first().dblclick(SLOW);
					const ndv = page.locator('[data-test-id="ndv"]');
					await ndv.waitFor(SLOW);
					await ndv.locator('[data-test-id="node-execute-button"]').first().click(SLOW);
					return ndv.locator('[data-test-id="output-panel"]');
				};
				const quotes = () => control.requests({ method: 'POST', path: '/api/v2/post' }).filter((r) => r.fields.test === '1').length;
				const quotesBefore = quotes();
				const priced = await runStep('Get letter price');
				await expect.poll(quotes, SLOW).toBeGreaterThan(quotesBefore);
				await expect.poll(() => priced.innerText(), SLOW).toMatch(/value[\s\S]*\d+\.\d+/);
				expect(control.orders().filter((o) => o.tag === TAG)).toHaveLength(0);
				await screenshot(page, SHOTS[1]);
				await page.locator('[data-test-id="ndv-close-button"], [data-test-id="back-to-canvas"]').first().click(SLOW);

				// The whole workflow, as the page says: the price again, then the letter.
				await page.locator('[data-test-id="execute-workflow-button"]').first().click(SLOW);
				const order = await expect
					.poll(() => control.orders().filter((o) => o.tag === TAG).length, SLOW)
					.toBe(1)
					.then(() => control.orders().find((o) => o.tag === TAG)!);
				const orderId = String(order.id);
				await page.locator('[data-test-id="canvas-node"]', { hasText: 'Send letter' }).first().dblclick(SLOW);
				const sent = page.locator('[data-test-id="ndv"] [data-test-id="output-panel"]');
				await expect.poll(() => sent.innerText(), SLOW).toContain(orderId);
				await screenshot(page, SHOTS[2]);

				// 5. The trigger, on the test environment, listening for a test event.
				const webhookId = '5f0c2b7e-1d3a-4e8b-9c6f-2a4d6e8f0b13';
				const triggerWorkflow = await e.client.api<{ id: string }>('POST', '/workflows', {
					name: `Follow my letters ${Date.now()}`,
					nodes: [
						{
							id: '00000000-0000-4000-8000-000000000009',
							name: 'Postal Service Trigger',
							type: `${PACKAGE_NAME}.postalServiceTrigger`,
							typeVersion: 1,
							position: [0, 0],
							parameters: { events: ['tracking.updated'], environment: 'homolog', options: {} },
							credentials: { postalServiceWebhookApi: { id: secret.id, name: secret.name } },
							webhookId,
						},
					],
					connections: {},
					settings: { executionOrder: 'v1' },
				});
				created.push(triggerWorkflow.id);
				await page.goto(`${e.editorUrl}/workflow/${triggerWorkflow.id}`);
				await page.locator('[data-test-id="execute-workflow-button"]').first().click(SLOW);
				const testUrl = `${e.webhookUrl}/webhook-test/${webhookId}/webhook`;
				await waitForWebhook(testUrl, 60_000);
				const endpoint = control.registerWebhook({ url: testUrl, events: ['tracking.updated'], name: 'walkthrough' });
				try {
					control.addTrackingEvent(orderId, { codigo: 'BDE', descricao: 'Objeto entregue ao destinatário', statusDelivery: 'delivered' });
					await control.waitForDeliveries((all) => all.some((d) => d.webhookId === endpoint.id && d.state === 'delivered'), 60_000);
				} finally {
					control.removeWebhook(endpoint.id);
				}
				await page.locator('[data-test-id="canvas-node"]', { hasText: 'Postal Service Trigger' }).first().dblclick(SLOW);
				const output = page.locator('[data-test-id="ndv"] [data-test-id="output-panel"]');
				// The JSON view shows the whole event, the letter's delivery status in it.
				await output.getByText('JSON', { exact: true }).first().click(SLOW);
				await expect.poll(() => output.innerText(), SLOW).toContain('delivered');
				await screenshot(page, SHOTS[3]);

				// Every step worked: the page's pictures are these.
				for (const shot of SHOTS) copyFileSync(path.join(artifactsDir, shot), path.join(repoRoot, 'docs', 'images', shot));
			} catch (error) {
				await screenshot(page, 'failure-walkthrough.png').catch(() => undefined);
				throw error;
			} finally {
				await browser.close();
				for (const id of created) await e.client.api('DELETE', `/workflows/${id}`).catch(() => undefined);
			}
		});
	});
}
