// The node's panel in the real editor: a workflow with one Postal Service node, opened the way a
// user opens it, and the parts of n8n's panel the cases read (marked by n8n's own data-test-id).
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

import { PACKAGE_NAME } from '../../../scripts/dev/n8n';
import type { E2eEnvironment } from './environment';

/** Generous: the machine running the suite may be busy, and lists go through n8n to the sandbox. */
export const SLOW = { timeout: 60_000 };

/**
 * Saves a workflow with one Postal Service node through the public API, opens it in the editor and
 * opens the node by a double click, as a user does; resolves with the node's panel.
 */
export async function openNodeWith(
	page: Page,
	env: E2eEnvironment,
	parameters: Record<string, unknown>,
	credential: { id: string; name: string; type: string },
): Promise<{ ndv: Locator; workflowId: string }> {
	const workflow = await env.client.api<{ id: string }>('POST', '/workflows', {
		name: `Editor walk ${parameters.resource}/${parameters.operation} ${Date.now()}`,
		nodes: [
			{
				id: 'f3c1a1e0-0000-4000-8000-000000000001',
				name: 'Postal Service',
				type: `${PACKAGE_NAME}.postalService`,
				typeVersion: 1,
				position: [0, 0],
				parameters,
				credentials: { [credential.type]: { id: credential.id, name: credential.name } },
			},
		],
		connections: {},
		settings: { executionOrder: 'v1' },
	});
	await page.goto(`${env.editorUrl}/workflow/${workflow.id}`);
	await page.locator('[data-test-id="canvas-node"]').first().dblclick(SLOW);
	const ndv = page.locator('[data-test-id="ndv"]');
	await ndv.waitFor(SLOW);
	return { ndv, workflowId: workflow.id };
}

/** Waits until an element's text (spaces squeezed) holds each of `texts`; fails naming those still missing. */
export async function expectTexts(locator: Locator, texts: string[]): Promise<void> {
	const missing = async () => {
		const shown = (await locator.innerText()).replace(/\s+/g, ' ');
		return texts.filter((text) => !shown.includes(text));
	};
	await expect.poll(missing, SLOW).toEqual([]);
}

/** A resource locator of the panel, by the node's parameter name. */
export const locatorOf = (ndv: Locator, parameter: string) => ndv.locator(`[data-test-id="resource-locator-${parameter}"]`);

/** Opens a locator's list and resolves with the texts of its items once the service's answer is in. */
export async function openList(locator: Locator): Promise<string[]> {
	await locator.locator('[data-test-id="rlc-input"]').click();
	await locator.locator('[data-test-id="rlc-item"], [data-test-id="rlc-error-container"]').first().waitFor(SLOW);
	return await listItems(locator);
}

export const listItems = async (locator: Locator) => (await locator.locator('[data-test-id="rlc-item"]').allInnerTexts()).map((t) => t.trim());

/**
 * The row of one parameter (label, input, issues), found by the locator or input inside it: the
 * innermost row holding it, since the mapper's fields are rows inside the mapper's own row.
 */
export const parameterRow = (page: Page, ndv: Locator, inner: string) =>
	ndv.locator('[data-test-id="parameter-item"], .parameter-item').filter({ has: page.locator(inner) }).last();

/** Hovers a parameter's issue icon and resolves with the text of the tooltip n8n shows for it. */
export async function issueTooltip(page: Page, issues: Locator): Promise<string> {
	// The icon itself: the tooltip opens on it, not on the whole box around it.
	await issues.locator('svg').first().hover(SLOW);
	const tooltip = page.locator('[data-test-id="tooltip-content"]').filter({ hasText: 'Issues' }).last();
	await tooltip.waitFor(SLOW);
	return (await tooltip.innerText()).replace(/\s+/g, ' ');
}

/** The label n8n shows above a parameter of the open panel (without its Fixed/Expression switch). */
export async function labelOf(page: Page, ndv: Locator, parameter: string): Promise<string> {
	const label = parameterRow(page, ndv, `[data-test-id="parameter-input-${parameter}"]`).locator('[data-test-id="input-label"]').first();
	return (await label.innerText()).split('\n')[0].trim();
}

/** What the panel shows in a parameter's input: the typed text, or the name of the chosen option. */
export const shownValue = (ndv: Locator, parameter: string) => ndv.locator(`[data-test-id="parameter-input-${parameter}"] input`).first().inputValue(SLOW);

/** Chooses an option of a parameter by the name the panel lists it under, and expects the input to show that name. */
export async function chooseOption(page: Page, ndv: Locator, parameter: string, option: string): Promise<void> {
	await ndv.locator(`[data-test-id="parameter-input-${parameter}"]`).click(SLOW);
	// Each item holds the option's name, then its description: the name is the element with exactly that text.
	await page.locator('.el-select-dropdown__item:visible').getByText(option, { exact: true }).first().click(SLOW);
	// The input shows the choice a render after the click, not at once.
	await expect.poll(() => shownValue(ndv, parameter), { ...SLOW, message: parameter }).toBe(option);
}

/**
 * In the node panel n8n has open (after "Add first step…" or a node's +), finds a node by its name
 * and picks one of its actions or triggers by the name the panel lists; resolves with the node's
 * panel, which n8n opens then.
 */
export async function addFromNodePanel(page: Page, node: string, action: string): Promise<Locator> {
	await page.locator('[data-test-id="node-creator-search-bar"] input, input[data-test-id="node-creator-search-bar"]').first().fill(node, SLOW);
	const creator = page.locator('[data-test-id="node-creator"]');
	await creator.getByText(node, { exact: true }).first().click(SLOW);
	await creator.getByText(action, { exact: true }).first().click(SLOW);
	const ndv = page.locator('[data-test-id="ndv"]');
	await ndv.waitFor(SLOW);
	return ndv;
}
