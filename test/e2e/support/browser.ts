/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
// The editor in a real browser: Debian's Chromium driven by playwright-core (no browser download).
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { chromium, type BrowserContext, type Page } from 'playwright-core';

import { DEFAULT_OWNER, repoRoot } from '../../../scripts/dev/n8n';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const artifactsDir = path.resolve(__dirname, '..', 'artifacts');

export const screenshot = (page: Page, name: string) => page.screenshot({ path: path.join(artifactsDir, name) });

/** Copies screenshots this run took into docs/images/, under the same names: the pictures the docs show. */
export function publishScreenshots(names: string[]): void {
	for (const name of names) copyFileSync(path.join(artifactsDir, name), path.join(repoRoot, 'docs', 'images', name));
}

/** Debian's Chromium, headless, in a fresh profile that `close` removes. */
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
	const close = async () => {
		await context.close();
		rmSync(profile, { recursive: true, force: true });
	};
	return { context, page, close };
}

/**
 * Opens Chromium, signs the owner in to the editor and runs `body`; on failure keeps a picture of
 * every open tab (`failure-<label>-<tab>.png`); closes the browser either way.
 */
export async function inBrowser<T>(editorUrl: string, label: string, body: (browser: { context: BrowserContext; page: Page }) => Promise<T>): Promise<T> {
	const { context, page, close } = await openBrowser();
	// The editor's first load can take long on a busy machine.
	page.setDefaultNavigationTimeout(120_000);
	page.setDefaultTimeout(60_000);
	try {
		await page.goto(`${editorUrl}/signin`);
		await page.locator('#emailOrLdapLoginId').fill(DEFAULT_OWNER.email);
		await page.locator('#password').fill(DEFAULT_OWNER.password);
		await page.locator('[data-test-id="form-submit-button"]').click();
		await page.waitForURL((url) => !url.pathname.startsWith('/signin'), { timeout: 30_000 });
		return await body({ context, page });
	} catch (error) {
		const name = label.slice(0, 40).replace(/\W+/g, '-');
		for (const [tab, open] of context.pages().entries()) await screenshot(open, `failure-${name}-${tab}.png`).catch(() => undefined);
		throw error;
	} finally {
		await close();
	}
}
