/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
// What docs/first-registered-letter.md names (labels, buttons, values, screenshots) and the steps
// the walkthrough case repeats in the editor and the sandbox's panel.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';

import type { INodeProperties } from 'n8n-workflow';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

import { PostalServiceApi } from '../../../credentials/PostalServiceApi.credentials';
import { PostalServiceChatApi } from '../../../credentials/PostalServiceChatApi.credentials';
import { PostalServiceWebhookApi } from '../../../credentials/PostalServiceWebhookApi.credentials';
import { option as downloadFile } from '../../../nodes/PostalService/actions/order/downloadFile.operation';
import { properties as letterProperties } from '../../../nodes/PostalService/actions/shared/letterOrder.description';
import { AR_TYPES, FILE_TYPES, SHIP_TYPES } from '../../../nodes/PostalService/contract/lists';
import { WEBHOOK_EVENTS } from '../../../nodes/PostalServiceTrigger/webhookLists';
import { SAMPLE_LETTER_PATH } from '../../../sandbox/sample';
import { repoRoot } from '../../../scripts/dev/n8n';
import { waitForWebhook } from '../../../scripts/dev/workflows';
import { addFromNodePanel, chooseOption, labelOf, SLOW } from './editor';
import type { E2eEnvironment } from './environment';

export const PAGE = path.join(repoRoot, 'docs', 'first-registered-letter.md');
export const SHOTS = {
	credentials: 'walkthrough-credentials.png',
	price: 'walkthrough-get-price.png',
	send: 'walkthrough-send.png',
	panel: 'walkthrough-sandbox-panel.png',
	trigger: 'walkthrough-trigger.png',
	receiptPanel: 'walkthrough-return-receipt-panel.png',
	receipt: 'walkthrough-return-receipt.png',
	download: 'walkthrough-download-return-receipt.png',
	install: 'walkthrough-install.png',
};

export const nameOf = <T extends { value: unknown; name: string }>(list: readonly T[], value: T['value']) => list.find((entry) => entry.value === value)!.name;
export const RR_CREATED = nameOf(WEBHOOK_EVENTS, 'rr.created');

/** What the page tells the user to click, choose or read, as n8n 2.41.1 and the sandbox's panel name it; the page writes each in bold. */
export const UI = {
	createWorkflow: 'Create workflow',
	firstStep: 'Add first step…',
	manualTrigger: 'Trigger manually',
	node: 'Postal Service',
	getPrice: 'Get letter price',
	executeStep: 'Execute step',
	operation: 'Operation',
	send: 'Send',
	sendLetter: 'Send letter',
	tag: 'Tag',
	onTracking: 'On tracking updated',
	events: 'Events',
	trackingUpdated: nameOf(WEBHOOK_EVENTS, 'tracking.updated'),
	environment: 'Environment',
	homolog: 'Test Environment (Homolog)',
	webhookUrls: 'Webhook URLs',
	testUrl: 'Test URL',
	productionUrl: 'Production URL',
	listening: 'Listening for test event',
	publish: 'Publish',
	gotIt: 'Got it',
	assignCode: 'Assign tracking code',
	addEvent: 'Add tracking event',
	delivered: 'Objeto entregue ao destinatário (delivered)',
	endpointEvent: 'Tracking Updated (tracking.updated)',
	register: 'Register',
	remove: 'Remove',
	// n8n's node panel lists a trigger's events as "On <event name>".
	onReturnReceipt: `On ${RR_CREATED.toLowerCase()}`,
	returnReceiptCreated: RR_CREATED,
	endpointReceipt: `${RR_CREATED} (rr.created)`,
	addReceipt: 'Add return receipt',
	download: 'Download',
	downloadLetterFile: downloadFile.action,
	letterId: 'Letter ID',
	fileType: 'File Type',
	returnReceipt: nameOf(FILE_TYPES, 'rr'),
	createCredential: 'Create new credential',
	import: 'Import',
	fromFile: 'From file',
	fromUrl: 'From URL',
	settings: 'Settings',
	communityNodes: 'Community nodes',
	installCommunityNode: 'Install a community node',
	packageName: 'npm Package Name',
	risks: 'I understand the risks of installing unverified code from a public source.',
	install: 'Install',
};

/** The letter of the page's table: label → node parameter, and the value as the panel shows it (an option, or typed). */
export const LETTER: Array<{ label: string; parameter: string; value: string; option?: true }> = [
	{ label: 'Ship Type', parameter: 'shipType', value: nameOf(SHIP_TYPES, 3), option: true },
	{ label: 'Recipient Name', parameter: 'recipientName', value: 'Ana Pereira' },
	{ label: 'Recipient Street', parameter: 'recipientAddr1', value: 'Rua Augusta' },
	{ label: 'Recipient Number', parameter: 'recipientStreetNumber', value: '500' },
	{ label: 'Recipient Complement', parameter: 'recipientAddr2', value: 'Apto 12' },
	{ label: 'Recipient Postal Code', parameter: 'recipientZip', value: '01305-000' },
	{ label: 'Recipient City', parameter: 'recipientCity', value: 'São Paulo' },
	{ label: 'Recipient State', parameter: 'recipientState', value: 'SP' },
	{ label: 'PDF Source', parameter: 'pdfSource', value: 'Link', option: true },
];
export const PDF_URL = { label: 'PDF URL', parameter: 'pdfUrl' };
/** Fields the page says are already filled in. */
export const PREFILLED = [
	{ label: 'Recipient Country', parameter: 'recipientCountry', value: 'Brasil' },
	{ label: 'Return Receipt Type', parameter: 'returnReceiptType', value: nameOf(AR_TYPES, 'physical') },
];
/** What the receipt of a physical AR is called in the sandbox's panel, as the page quotes it. */
export const PANEL_RECEIPT = 'Paper (scanned) (rr)';
export const TAG = 'first-letter';
export const CREDENTIALS = [
	{ name: 'Postal Service account', type: new PostalServiceApi().displayName },
	{ name: 'Postal Service chat account', type: new PostalServiceChatApi().displayName },
	{ name: 'Postal Service webhook secret', type: new PostalServiceWebhookApi().displayName },
];
export const EXAMPLE = 'return-receipt-to-storage.json';

export const workflowIdOf = (page: Page) => /\/workflow\/([^/?#]+)/.exec(new URL(page.url()).pathname)?.[1];
export const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
export const buttonText = async (locator: Locator) => (await locator.first().innerText(SLOW)).trim();

/** A new workflow in a new tab whose first step is one of the trigger's events, on the test environment and listening on its Test URL. */
export async function listeningTrigger(context: BrowserContext, e: E2eEnvironment, action: string, event: string) {
	const editor = await context.newPage();
	editor.setDefaultNavigationTimeout(120_000);
	editor.setDefaultTimeout(SLOW.timeout);
	await editor.goto(`${e.editorUrl}/home/workflows`);
	await editor.getByText(UI.createWorkflow, { exact: true }).first().click();
	await editor.locator('[data-test-id="canvas-add-button"]').click();
	const trigger = await addFromNodePanel(editor, UI.node, action);
	await expect.poll(() => labelOf(editor, trigger, 'events'), SLOW).toBe(UI.events);
	const events = await trigger.locator('[data-test-id="parameter-input-events"]').innerText();
	expect(WEBHOOK_EVENTS.filter(({ name }) => events.includes(name)).map(({ name }) => name)).toEqual([event]);
	await expect.poll(() => labelOf(editor, trigger, 'environment'), SLOW).toBe(UI.environment);
	await chooseOption(editor, trigger, 'environment', UI.homolog);
	await expect.poll(() => trigger.locator('[data-test-id="node-credentials-select"] input').first().inputValue(), SLOW).toBe(CREDENTIALS[2].name);
	await trigger.getByText(UI.webhookUrls, { exact: true }).click();
	await expect.poll(() => buttonText(trigger.locator('[data-test-id="radio-button-production"]')), SLOW).toBe(UI.productionUrl);
	const testTab = trigger.locator('[data-test-id="radio-button-test"]');
	await expect.poll(() => buttonText(testTab), SLOW).toBe(UI.testUrl);
	await testTab.click();
	const testUrl = (await trigger.getByText(/\/webhook-test\//).first().innerText()).trim();
	expect(testUrl.startsWith(`${e.webhookUrl}/webhook-test/`)).toBe(true);
	await trigger.locator('[data-test-id="node-execute-button"]').first().click();
	await trigger.getByText(UI.listening, { exact: true }).first().waitFor();
	await waitForWebhook(testUrl, SLOW.timeout);
	return { editor, trigger, testUrl };
}

/** Registers an address (a Test or Production URL) with the panel's form for one event, the others unticked; resolves with the endpoint. */
export async function registerEndpoint(panel: Page, e: E2eEnvironment, url: string, event: string, label: string) {
	const register = panel.locator('#register');
	await register.getByLabel('URL', { exact: true }).fill(url);
	await register.getByLabel('Name', { exact: true }).fill('My n8n');
	for (const box of await register.locator('input[name="events"]').all()) await box.setChecked((await box.getAttribute('value')) === event);
	const ticked = register.locator('label').filter({ has: panel.locator('input[name="events"]:checked') });
	await expect.poll(async () => (await ticked.allInnerTexts()).map((t) => t.trim())).toEqual([label]);
	await register.getByRole('button', { name: UI.register, exact: true }).click();
	await expect.poll(() => e.sandbox.control.webhooks().filter((w) => w.url === url).length, SLOW).toBe(1);
	const endpoint = e.sandbox.control.webhooks().find((w) => w.url === url)!;
	expect(endpoint.events).toEqual([event]);
	return endpoint;
}

/** Chooses one of the output panel's views (Schema, Table, JSON, Binary). */
export const showAs = (output: Locator, mode: 'JSON' | 'Binary') => output.locator('[data-test-id="ndv-run-data-display-mode"]').getByText(mode, { exact: true }).click();

/** The files of an output panel under Binary (name and type as shown), and the SHA-256 of the first one as its Download button gives it. */
export async function binaryOutput(page: Page, output: Locator) {
	await showAs(output, 'Binary');
	const cards = output.locator('[data-test-id^="ndv-binary-data_"]');
	await cards.first().waitFor();
	const card = cards.first();
	const [download] = await Promise.all([page.waitForEvent('download'), card.getByRole('button', { name: UI.download, exact: true }).click()]);
	const bytes = readFileSync((await download.path())!);
	return { count: await cards.count(), text: await card.innerText(), sha256: sha256(bytes) };
}

/** The page names what the walkthrough case clicks and fills, by the same names. */
export function expectPageToNameWhatTheRunDoes() {
	const page = readFileSync(PAGE, 'utf8');
	for (const { label, value, option } of LETTER) expect(page, label).toContain(`| ${label} | ${option ? `*${value}*` : `\`${value}\``} |`);
	expect(page).toContain(`| ${PDF_URL.label} |`);
	for (const [key, word] of Object.entries(UI)) expect(page, key).toContain(`**${word}**`);
	for (const { name, type } of CREDENTIALS) expect(page).toContain(`| *${name}* | **${type}** |`);
	for (const { label, value } of PREFILLED) expect(page).toContain(`*${label}* already says *${value}*`);
	expect(page).toContain(`*${PANEL_RECEIPT}*`);
	expect(page).toContain(`(../examples/${EXAMPLE})`);
	// The names of the track without a clone, from the credentials and the node as they ship.
	for (const credential of [new PostalServiceApi(), new PostalServiceWebhookApi()]) {
		expect(page).toContain(`*${credential.displayName}*`);
		for (const { displayName } of credential.properties) expect(page).toContain(`**${displayName}**`);
	}
	const pdfSource = letterProperties.find((p) => p.name === 'pdfSource')!;
	expect(page).toContain(`*${pdfSource.options!.find((o) => 'value' in o && o.value === 'binary')!.name}*`);
	const additional = letterProperties.find((p) => p.name === 'additionalFields')!;
	const maxPrice = additional.options!.find((o) => o.name === 'maxPrice') as INodeProperties;
	expect(page).toContain(`*${additional.displayName}*, *${maxPrice.displayName}*`);
	expect(page).toContain(SAMPLE_LETTER_PATH);
	// The two addresses of npm run dev's banner (test/docs/quotes.test.ts holds the banner to them), and what it says of the examples.
	for (const line of ['Sandbox panel', 'Sample PDF']) expect(page).toContain(`**${line}**`);
	expect(readFileSync(path.join(repoRoot, 'scripts', 'dev', 'dev.ts'), 'utf8')).toContain('("Conflicting Webhook Path")');
	expect(page).toContain('("Conflicting Webhook Path")');
	expect(page).toContain(`\`${TAG}\``);
	for (const shot of Object.values(SHOTS)) expect(page).toContain(`(images/${shot})`);
}
