// The editor in a real browser: the node panel finds the package's nodes and opens one.
import { describe, expect, it } from 'vitest';

import { DEFAULT_OWNER } from '../../../scripts/n8n';
import { openBrowser, screenshot, searchNodePanel, signInThroughEditor } from '../support/browser';
import { editorJson, type E2eEnvironment } from '../support/environment';
import { nodeType } from './package';

/** The label the node panel shows for "create an order", read from the node's description. */
async function createOrderAction(env: E2eEnvironment): Promise<string> {
	const nodes = await editorJson<
		Array<{ name: string; properties: Array<{ name: string; displayOptions?: { show?: Record<string, unknown[]> }; options?: Array<{ value: string; action?: string }> }> }>
	>(env, '/types/nodes.json');
	const node = nodes.find((n) => n.name === nodeType('postalService'))!;
	const operation = node.properties.find((p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes('order'));
	const action = operation?.options?.find((o) => o.value === 'create')?.action;
	expect(action).toBeDefined();
	return action!;
}

export function editorCases(env: () => E2eEnvironment) {
	describe('the editor in a real browser', () => {
		it('logs in, finds the node in the node panel and opens it', async () => {
			const browser = await openBrowser();
			try {
				const { page } = browser;
				await signInThroughEditor(page, env().editorUrl, DEFAULT_OWNER);
				await searchNodePanel(page, env().editorUrl, 'Postal Service');
				const item = page.locator('[data-test-id="node-creator-item-name"]', { hasText: /^Postal Service$/ }).first();
				await item.waitFor();
				await screenshot(page, 'node-panel-search.png');
				await item.click();
				const actions = page.locator('[data-test-id="node-creator"]');
				// On an empty workflow the panel lists the trigger's events first; the actions start folded.
				await actions.getByText(/^On order created$/).waitFor();
				await actions.getByText(/^Actions \(\d+\)$/).click();
				const action = actions.getByText(await createOrderAction(env()), { exact: true }).first();
				await action.waitFor();
				await screenshot(page, 'node-panel-actions.png');
				await action.click();
				const ndv = page.locator('[data-test-id="ndv"]');
				await ndv.waitFor();
				await ndv.locator('[data-test-id="parameter-input-resource"]').waitFor();
				// The stored credential is picked by itself: it is the only one of its type.
				await expect
					.poll(() =>
						ndv.locator('input').evaluateAll((inputs) => inputs.some((i) => (i as unknown as { value: string }).value === 'Postal Service account')),
					)
					.toBe(true);
				await screenshot(page, 'node-opened.png');
			} catch (error) {
				await screenshot(browser.page, 'failure.png').catch(() => undefined);
				throw error;
			} finally {
				await browser.close();
			}
		});
	});
}
