// The editor in a real browser: the node panel finds the package's nodes and opens one; the
// node's lists, variables mapper and id checks are used the way a user uses them.
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';

import { option as sendLetter } from '../../../nodes/PostalService/actions/order/create.operation';
import { upsertCredential } from '../../../scripts/dev/workflows';
import { inBrowser, publishScreenshots, screenshot } from '../support/browser';
import { expectTexts, issueTooltip, listItems, locatorOf, openList, openNodeWith, parameterRow, SLOW } from '../support/editor';
import { CREDENTIAL_NAMES, type E2eEnvironment } from '../support/environment';

export function editorCases(env: () => E2eEnvironment) {
	describe('the editor in a real browser', () => {
		const workflows: string[] = [];
		afterAll(async () => {
			for (const id of workflows) await env().client.api('DELETE', `/workflows/${id}`).catch(() => undefined);
		});
		/** The pictures the docs show, taken by the walk under way. */
		let taken: string[] = [];
		const shot = async (page: Page, name: string) => {
			await screenshot(page, name);
			taken.push(name);
		};
		/** A walk in a browser of its own; once it passes, the docs' pictures are the ones it took. */
		const walk = (name: string, body: (page: Page) => Promise<void>) =>
			it(name, () =>
				inBrowser(env().editorUrl, name, async ({ page }) => {
					taken = [];
					await body(page);
					publishScreenshots(taken);
				}),
			);
		const credential = (type: keyof typeof CREDENTIAL_NAMES) => env().credentials.find((c) => c.type === type)!;
		const open = async (page: Page, parameters: Record<string, unknown>, type: keyof typeof CREDENTIAL_NAMES | { id: string; name: string; type: string }) => {
			const { ndv, workflowId } = await openNodeWith(page, env(), parameters, typeof type === 'string' ? credential(type) : type);
			workflows.push(workflowId);
			return ndv;
		};

		walk('finds the node in the node panel by its name and opens Send letter with the stored credential', async (page) => {
			await page.goto(`${env().editorUrl}/workflow/new`);
			await page.locator('[data-test-id="canvas-plus-button"], [data-test-id="node-creator-plus-button"]').first().click();
			await page.locator('[data-test-id="node-creator-search-bar"] input, input[data-test-id="node-creator-search-bar"]').first().fill('Postal Service');
			const item = page.locator('[data-test-id="node-creator-item-name"]', { hasText: /^Postal Service$/ }).first();
			await item.waitFor();
			await shot(page, 'node-panel-search.png');
			await item.click();
			const actions = page.locator('[data-test-id="node-creator"]');
			// On an empty workflow the panel lists the trigger's events first; the actions start folded.
			await actions.getByText(/^On order created$/).waitFor();
			await actions.getByText(/^Actions \(\d+\)$/).click();
			const action = actions.getByText(sendLetter.action, { exact: true }).first();
			await action.waitFor();
			await shot(page, 'node-panel-actions.png');
			await action.click();
			const ndv = page.locator('[data-test-id="ndv"]');
			await ndv.locator('[data-test-id="parameter-input-resource"]').waitFor();
			// The stored credential is picked by itself: it is the only one of its type.
			await expect
				.poll(() => ndv.locator('input').evaluateAll((inputs, name) => inputs.some((i) => (i as unknown as { value: string }).value === name), CREDENTIAL_NAMES.postalServiceApi))
				.toBe(true);
			await shot(page, 'node-opened.png');
		});

		walk('Chat Message > Send: sender list, template list filtered as typed with approved first, variables as required fields; an expression template keeps them', async (page) => {
			const { control } = env().sandbox;
			// Synced after the seeded ones, so the service lists it after templates that cannot be sent.
			const added =
				control.templates().find((t) => t.name === 'entrega_confirmada') ??
				control.addTemplate({ senderId: 2, name: 'entrega_confirmada', variableNames: ['nome', 'pedido', 'data_entrega'] });
			const ndv = await open(page, { resource: 'chatMessage', operation: 'send' }, 'postalServiceChatApi');

			// The senders, as the service lists them.
			const senderLocator = locatorOf(ndv, 'senderId');
			const senders = control.senders();
			expect(await openList(senderLocator)).toEqual(senders.map((s) => `${s.name} · ${s.phone}`));
			await shot(page, 'editor-sender-list.png');
			await senderLocator.locator('[data-test-id="rlc-search"]').fill('loja');
			await expect.poll(() => listItems(senderLocator), SLOW).toEqual(['Loja Exemplo · +5511988887777']);
			await senderLocator.locator('[data-test-id="rlc-item"]').first().click();
			await expect.poll(() => senderLocator.locator('[data-test-id="rlc-input"]').inputValue(), SLOW).toBe('Loja Exemplo · +5511988887777');

			// The chosen sender's templates: approved first, the others with the reason they cannot be sent.
			const why: Record<string, string> = {
				pending: 'pending: not approved yet',
				rejected: 'rejected: cannot be sent',
				paused: 'paused: cannot be sent until resumed',
				disabled: 'disabled: cannot be sent',
			};
			const label = (t: { display_name: string; status: string }) => (t.status === 'approved' ? t.display_name : `${t.display_name} (${why[t.status]})`);
			const ofShop = control.templates().filter((t) => t.sender_id === 2);
			expect(ofShop.findIndex((t) => t.status !== 'approved')).toBeLessThan(ofShop.indexOf(ofShop.find((t) => t.id === added.id)!));
			const templateLocator = locatorOf(ndv, 'templateId');
			expect(await openList(templateLocator)).toEqual([
				...ofShop.filter((t) => t.status === 'approved').map(label),
				...ofShop.filter((t) => t.status !== 'approved').map(label),
			]);
			await templateLocator.locator('[data-test-id="rlc-search"]').fill('entrega');
			await expect.poll(() => listItems(templateLocator), SLOW).toEqual(['Entrega confirmada', 'Aviso entrega (pending: not approved yet)']);
			await shot(page, 'editor-template-list.png');
			await templateLocator.locator('[data-test-id="rlc-item"]', { hasText: /^Entrega confirmada$/ }).click();

			// Its variables, in the template's order, each a required field of the mapper.
			const mapper = ndv.locator('[data-test-id="resource-mapper-container"]');
			const fieldsShown = () => mapper.locator('[data-test-id^="parameter-input-"]:not([data-test-id="parameter-input-field"]):not([data-test-id="parameter-input-hint"])').evaluateAll((els) => els.map((e) => e.getAttribute('data-test-id')!.replace('parameter-input-', '')));
			await expect.poll(fieldsShown, SLOW).toEqual(added.variable_names);
			for (const name of added.variable_names) {
				const row = parameterRow(page, mapper, `[data-test-id="parameter-input-${name}"]`);
				expect(await issueTooltip(page, row.locator('[data-test-id="parameter-issues"]'))).toContain(`Variable "${name}" is required`);
				// Required fields cannot be removed from the mapper.
				expect(await mapper.locator(`[data-test-id="remove-field-button-${name}"]`).count()).toBe(0);
			}
			await mapper.locator('[data-test-id="parameter-input-nome"] input, [data-test-id="parameter-input-nome"] textarea').first().fill('Ana Pereira');
			await expect.poll(() => parameterRow(page, mapper, '[data-test-id="parameter-input-nome"]').locator('[data-test-id="parameter-issues"]').count(), SLOW).toBe(0);
			await ndv.locator('[data-test-id="parameter-input-phone"] input').first().fill('+5511987654321');
			await mapper.scrollIntoViewIfNeeded();
			await shot(page, 'editor-template-variables.png');

			// The template turned into an expression the editor cannot resolve (no input yet): the
			// variables already loaded stay, and are still mapped by name.
			const templateRow = parameterRow(page, ndv, '[data-test-id="resource-locator-templateId"]');
			await templateRow.hover();
			await templateRow.locator('[data-test-id="radio-button-expression"]').first().click();
			const expression = templateRow.locator('[data-test-id="inline-expression-editor-input"]');
			await expression.click(SLOW);
			await page.keyboard.press('ControlOrMeta+a');
			await page.keyboard.type('{{ $json.templateId ');
			await expect.poll(() => expression.innerText(), SLOW).toBe('{{ $json.templateId }}');
			// Out of the expression editor (a Tab would be typed into it).
			await ndv.getByText('Parameters', { exact: true }).first().click();
			await expect.poll(fieldsShown, SLOW).toEqual(added.variable_names);
			await mapper.locator('[data-test-id="parameter-input-pedido"] input, [data-test-id="parameter-input-pedido"] textarea').first().fill('100001');
			await expect.poll(() => mapper.locator('[data-test-id="parameter-input-nome"] input, [data-test-id="parameter-input-nome"] textarea').first().inputValue(), SLOW).toBe('Ana Pereira');
		});

		walk('a template saved as an expression: the mapper says why it has no fields and offers n8n\'s Map Automatically', async (page) => {
			const ndv = await open(
				page,
				{
					resource: 'chatMessage',
					operation: 'send',
					senderId: { __rl: true, mode: 'id', value: '2' },
					templateId: { __rl: true, mode: 'id', value: '={{ $json.templateId }}' },
				},
				'postalServiceChatApi',
			);
			const mapper = ndv.locator('[data-test-id="resource-mapper-container"]');
			const notice = mapper.locator('[data-test-id="empty-fields-notice"]');
			await expect.poll(async () => (await notice.innerText()).trim(), SLOW).toBe('Choose the template from the list to map its variables');
			await expect.poll(() => mapper.innerText(), SLOW).toContain('This template has no variables, or it could not be read: choose the template from the list to map its variables');
			// n8n's mapper has no field to add by name when the method returned none.
			expect(await mapper.locator('[data-test-id^="parameter-input-"], [data-test-id="add-fields-select"]').count()).toBe(0);
			await shot(page, 'editor-template-expression.png');
			await mapper.locator('[data-test-id="mapping-mode-select"]').click();
			const modes = page.locator('.el-select-dropdown__item').filter({ visible: true });
			await expect.poll(() => modes.allInnerTexts(), SLOW).toEqual([
				'Map Each Column Manually\nSet the value for each variable',
				'Map Automatically\nLook for incoming data that matches the variables in Postal Service',
			]);
			await modes.filter({ hasText: 'Map Automatically' }).click();
			await expect.poll(() => mapper.innerText(), SLOW).toContain('make sure the incoming data fields are named the same as the variables');
		});

		walk('Order > Get and Registered E-Mail > Get: a wrong id is flagged in the editor before any run', async (page) => {
			const { control } = env().sandbox;
			const reads = () => control.requests({ path: '/api/v2/get/' }).length;
			const readsBefore = reads();
			for (const { resource, wrong, right, message, picture } of [
				{
					resource: 'order',
					wrong: 'E123456',
					right: '100001',
					message: 'A letter ID is made of digits (like 123456); a registered e-mail ID (E123456) belongs to the Registered E-Mail resource',
					picture: 'editor-order-id-format.png',
				},
				{ resource: 'registeredEmail', wrong: '123456', right: 'E5001', message: 'A registered e-mail ID is E followed by digits (like E123456)' },
			]) {
				const ndv = await open(page, { resource, operation: 'get' }, 'postalServiceApi');
				const orderId = locatorOf(ndv, 'orderId');
				const input = orderId.locator('[data-test-id="rlc-input"]');
				await input.fill(wrong);
				await input.blur();
				const issues = orderId.locator('[data-test-id="parameter-issues"]');
				expect(await issueTooltip(page, issues)).toContain(message);
				if (picture) await shot(page, picture);
				await input.fill(right);
				await input.blur();
				await expect.poll(() => issues.count(), SLOW).toBe(0);
			}
			expect(reads()).toBe(readsBefore);
		});

		walk("a list that fails shows the service's message in the editor, without the token", async (page) => {
			const wrongToken = `wrong-${Date.now().toString(36)}`;
			const bad = await upsertCredential(env().client, {
				name: 'Postal Service chat account (wrong token)',
				type: 'postalServiceChatApi',
				data: { baseUrl: env().sandbox.baseUrl, email: env().sandbox.email, securityToken: wrongToken },
			});
			try {
				const ndv = await open(page, { resource: 'chatMessage', operation: 'send' }, { ...bad, type: 'postalServiceChatApi' });
				for (const [parameter, serviceMessage, route] of [
					['senderId', 'Unauthorized - invalid credentials', 'GET /api/chat/v1/senders/get'],
					['templateId', 'Não autorizado — credenciais inválidas', 'GET /api/chat/v1/templates/get'],
				]) {
					const locator = locatorOf(ndv, parameter);
					expect(await openList(locator)).toEqual([]);
					const error = locator.locator('[data-test-id="rlc-error-container"]');
					await expectTexts(error, ['Could not load list', '401 - The service did not accept the credentials.', `Service message: ${serviceMessage}`, `Route: ${route}`]);
					expect(await error.innerText()).not.toContain(wrongToken);
					if (parameter === 'templateId') await shot(page, 'editor-list-error.png');
					await page.keyboard.press('Escape');
				}
			} finally {
				await env().client.rest('DELETE', `/credentials/${bad.id}`).catch(() => undefined);
			}
		});
	});
}
