/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
// The editor in a real browser: Debian's Chromium driven by playwright-core (no browser download).
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { chromium, type BrowserContext, type Page } from 'playwright-core';

import type { Owner } from '../../../scripts/dev/n8n';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const artifactsDir = path.resolve(__dirname, '..', 'artifacts');

export async function openBrowser(): Promise<{ context: BrowserContext; page: Page; close: () => Promise<void> }> {
	if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM} (apt-get install -y chromium)`);
	mkdirSync(artifactsDir, { recursive: true });
	const profile = mkdtempSync(path.join(tmpdir(), 'postal-e2e-chromium-'));
	const context = await chromium.launchPersistentContext(profile, {
		executablePath: CHROMIUM,
		headless: true,
		viewport: { width: 1440, height: 900 },
		args: [
			'--headless',
			'--no-sandbox',
			'--disable-gpu',
			'--disable-background-networking',
			'--disable-component-update',
			'--disable-sync',
			'--no-first-run',
		],
	});
	const page = context.pages()[0] ?? (await context.newPage());
	return {
		context,
		page,
		async close() {
			await context.close();
			rmSync(profile, { recursive: true, force: true });
		},
	};
}

export async function signInThroughEditor(page: Page, baseUrl: string, owner: Owner): Promise<void> {
	await page.goto(`${baseUrl}/signin`);
	await page.locator('#emailOrLdapLoginId').fill(owner.email);
	await page.locator('#password').fill(owner.password);
	await page.locator('[data-test-id="form-submit-button"]').click();
	await page.waitForURL((url) => !url.pathname.startsWith('/signin'), { timeout: 30_000 });
}

/** Opens the node panel on a new workflow and searches for a node by its display name. */
export async function searchNodePanel(page: Page, baseUrl: string, query: string): Promise<void> {
	await page.goto(`${baseUrl}/workflow/new`);
	await page.locator('[data-test-id="canvas-plus-button"], [data-test-id="node-creator-plus-button"]').first().click();
	const search = page.locator('[data-test-id="node-creator-search-bar"] input, input[data-test-id="node-creator-search-bar"]').first();
	await search.waitFor();
	await search.fill(query);
}

export const screenshot = (page: Page, name: string) => page.screenshot({ path: path.join(artifactsDir, name) });
