// The package in a real n8n server, installed the way users install it, against the sandbox.
import { createHash, createHmac, randomUUID } from 'node:crypto';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { DEFAULT_OWNER, PACKAGE_NAME } from '../../scripts/n8n';
import { activateWorkflow, createWorkflow, readExamples, waitForWebhook, type WorkflowFile } from '../../scripts/workflows';
import { openBrowser, screenshot, searchNodePanel, signInThroughEditor } from './support/browser';
import {
	binaryContent,
	getExecution,
	listExecutions,
	nodeOutput,
	startEnvironment,
	waitFor,
	type E2eEnvironment,
	type Execution,
} from './support/environment';
import { startHttpServer } from '../harness/httpServer';
import { chatMessageWhenDelivered, keepReturnReceipt, sendRegisteredLetter } from './support/examples';
import { saoPauloDateTime } from '../../sandbox/util';
import { createLetterAtService, pdfOfSize } from './support/service';

let env: E2eEnvironment;

beforeAll(async () => {
	env = await startEnvironment();
});

afterAll(async () => {
	console.log(`[e2e] timings: ${JSON.stringify(env?.timings ?? {})}`);
	await env?.stop();
});

const nodeType = (name: string) => `${PACKAGE_NAME}.${name}`;

async function editorJson<T>(route: string): Promise<T> {
	const response = await fetch(`${env.client.baseUrl}${route}`, { headers: { cookie: env.client.cookie } });
	expect(response.status, route).toBe(200);
	return (await response.json()) as T;
}

describe('n8n loads the package', () => {
	it('lists both nodes, the tool variant of the action node and the three credentials', async () => {
		const nodes = await editorJson<Array<{ name: string; usableAsTool?: boolean; group: string[] }>>('/types/nodes.json');
		const names = nodes.map((n) => n.name);
		expect(names).toEqual(
			expect.arrayContaining([nodeType('postalService'), nodeType('postalServiceTool'), nodeType('postalServiceTrigger')]),
		);
		expect(nodes.find((n) => n.name === nodeType('postalServiceTrigger'))?.group).toContain('trigger');
		const credentials = await editorJson<Array<{ name: string }>>('/types/credentials.json');
		expect(credentials.map((c) => c.name)).toEqual(
			expect.arrayContaining(['postalServiceApi', 'postalServiceChatApi', 'postalServiceWebhookApi']),
		);
	});

	it('serves the node icons as SVG', async () => {
		const nodes = await editorJson<Array<{ name: string; iconUrl?: { light: string; dark: string } }>>('/types/nodes.json');
		const iconUrl = nodes.find((n) => n.name === nodeType('postalService'))?.iconUrl;
		expect(iconUrl).toBeDefined();
		const bodies: string[] = [];
		for (const url of [iconUrl!.light, iconUrl!.dark]) {
			const response = await fetch(`${env.client.baseUrl}/${url}`);
			expect(response.status, url).toBe(200);
			expect(response.headers.get('content-type')).toMatch(/image\/svg\+xml/);
			const body = await response.text();
			expect(body).toMatch(/<svg[\s>]/);
			bodies.push(body);
		}
		expect(bodies[0]).not.toBe(bodies[1]);
	});
});

describe("each credential's Test in n8n", () => {
	async function testCredential(type: string, data: Record<string, unknown>) {
		const stored = env.credentials.find((c) => c.type === type)!;
		return await env.client.rest<{ status: string; message: string }>('POST', '/credentials/test', {
			credentials: { id: stored.id, name: stored.name, type, data },
		});
	}

	it('passes for the account credential and fails with a wrong token', async () => {
		const good = await testCredential('postalServiceApi', { baseUrl: env.sandbox.baseUrl, securityToken: env.token });
		expect(good.status, good.message).toBe('OK');
		const bad = await testCredential('postalServiceApi', { baseUrl: env.sandbox.baseUrl, securityToken: 'wrong-token' });
		expect(bad.status).toBe('Error');
		expect(bad.message).not.toContain('wrong-token');
	});

	it('passes for the chat credential and fails with a wrong token', async () => {
		const base = { baseUrl: env.sandbox.baseUrl, email: env.sandbox.email };
		const good = await testCredential('postalServiceChatApi', { ...base, securityToken: env.token });
		expect(good.status, good.message).toBe('OK');
		const bad = await testCredential('postalServiceChatApi', { ...base, securityToken: 'wrong-token' });
		expect(bad.status).toBe('Error');
	});

	it('fails for both service credentials on a base URL that answers 200 with a web page, or redirects', async () => {
		const elsewhere = await startHttpServer((_req, res) => {
			res.setHeader('content-type', 'application/json');
			res.end('{"status":200,"status_message":"ok","data":{}}');
		});
		const page = await startHttpServer((req, res) => {
			if (req.url.startsWith('/moved')) {
				res.statusCode = 307;
				res.setHeader('location', `${elsewhere.url}${req.url}`);
				res.end();
				return;
			}
			res.setHeader('content-type', 'text/html');
			res.end('<!doctype html><title>Sign in</title>');
		});
		try {
			for (const baseUrl of [page.url, `${page.url}/moved`]) {
				const account = await testCredential('postalServiceApi', { baseUrl, securityToken: env.token });
				expect(account.status, account.message).toBe('Error');
				const chat = await testCredential('postalServiceChatApi', { baseUrl, email: env.sandbox.email, securityToken: env.token });
				expect(chat.status, chat.message).toBe('Error');
			}
			expect(elsewhere.requests).toHaveLength(0);
		} finally {
			await page.close();
			await elsewhere.close();
		}
	});

	it('passes for the webhook secret and fails for a secret that could never match', async () => {
		const good = await testCredential('postalServiceWebhookApi', { secret: env.sandbox.webhookSecret });
		expect(good.status, good.message).toBe('OK');
		const bad = await testCredential('postalServiceWebhookApi', { secret: ` ${env.sandbox.webhookSecret}\n` });
		expect(bad.status).toBe('Error');
	});
});

/** The label the node panel shows for "create an order", read from the node's description. */
async function createOrderAction(): Promise<string> {
	const nodes = await editorJson<Array<{ name: string; properties: Array<{ name: string; displayOptions?: { show?: Record<string, unknown[]> }; options?: Array<{ value: string; action?: string }> }> }>>('/types/nodes.json');
	const node = nodes.find((n) => n.name === nodeType('postalService'))!;
	const operation = node.properties.find((p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes('order'));
	const action = operation?.options?.find((o) => o.value === 'create')?.action;
	expect(action).toBeDefined();
	return action!;
}

describe('the editor in a real browser', () => {
	it('logs in, finds the node in the node panel and opens it', async () => {
		const browser = await openBrowser();
		try {
			const { page } = browser;
			await signInThroughEditor(page, env.n8n.baseUrl, DEFAULT_OWNER);
			await searchNodePanel(page, env.n8n.baseUrl, 'Postal Service');
			const item = page.locator('[data-test-id="node-creator-item-name"]', { hasText: /^Postal Service$/ }).first();
			await item.waitFor();
			await screenshot(page, 'node-panel-search.png');
			await item.click();
			const actions = page.locator('[data-test-id="node-creator"]');
			// On an empty workflow the panel lists the trigger's events first; the actions start folded.
			await actions.getByText(/^On order created$/).waitFor();
			await actions.getByText(/^Actions \(\d+\)$/).click();
			const action = actions.getByText(await createOrderAction(), { exact: true }).first();
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

describe('the trigger in an active workflow', () => {
	const webhookId = randomUUID();
	let workflowId: string;
	let url: string;
	let endpointId: number;

	const triggerWorkflow: WorkflowFile = {
		name: 'e2e: every postal event',
		nodes: [
			{
				id: randomUUID(),
				name: 'Postal Service Trigger',
				type: nodeType('postalServiceTrigger'),
				typeVersion: 1,
				position: [0, 0],
				webhookId,
				parameters: {
					events: ['order.created', 'order.status_updated', 'tracking.updated', 'rr.created', 'webhook.test'],
					environment: 'both',
				},
				credentials: { postalServiceWebhookApi: { id: '0', name: 'secret' } },
			},
		],
		connections: {},
	};

	const executions = async () => (await listExecutions(env.client, { workflowId })).filter((e) => e.mode === 'webhook');

	async function waitForExecutionCount(count: number) {
		return await waitFor(
			async () => {
				const list = await executions();
				return list.length === count && list.every((e) => e.finished || e.status === 'success') ? list : undefined;
			},
			`${count} executions of the trigger workflow`,
			60_000,
		);
	}

	/** The number of executions once the ones under way are saved (stable for a second). */
	async function settledCount() {
		let last = -1;
		for (;;) {
			const list = await executions();
			if (list.length === last && list.every((e) => e.finished || e.status === 'success' || e.status === 'error')) return last;
			last = list.length;
			await new Promise((resolve) => setTimeout(resolve, 1_000));
		}
	}

	/** Waits a moment longer and checks that nothing more started. */
	async function expectNoNewExecution(count: number) {
		await new Promise((resolve) => setTimeout(resolve, 2_000));
		const list = await executions();
		if (list.length !== count) {
			// What the trigger remembers, to tell a lost write from a missing check.
			const stored = await env.client.api<{ staticData?: unknown }>('GET', `/workflows/${workflowId}`);
			const answers = ours().map((d) => [d.deliveryId, d.event, d.attempts.map((a) => a.responseBody.slice(0, 80))]);
			expect.fail(`${list.length} executions, expected ${count}; static data ${JSON.stringify(stored.staticData)}; deliveries ${JSON.stringify(answers)}`);
		}
	}

	beforeAll(async () => {
		const created = await createWorkflow(env.client, triggerWorkflow, env.credentials);
		workflowId = created.id;
		await activateWorkflow(env.client, workflowId);
		url = `${env.n8n.baseUrl}/webhook/${webhookId}/webhook`;
		await waitForWebhook(url);
		endpointId = env.sandbox.control.registerWebhook({ url, events: ['*'], name: 'n8n e2e' }).id;
	});

	let receiptPdf: Buffer;

	const ours = () => env.sandbox.control.deliveries().filter((d) => d.webhookId === endpointId);
	const settled = (d: { state: string }) => d.state !== 'pending' && d.state !== 'retrying';

	/** Does something that makes the service send events, and waits until it has delivered them. */
	async function fire(action: () => unknown) {
		const before = ours().length;
		await action();
		await env.sandbox.control.waitForDeliveries((all) => {
			const mine = all.filter((d) => d.webhookId === endpointId);
			return mine.length > before && mine.every(settled);
		}, 60_000);
	}

	it('receives a signed delivery of every event kind at its production URL, one execution each', async () => {
		const control = env.sandbox.control;
		let orderId = '';
		await fire(async () => (orderId = await createLetterAtService(env, 'Maria Souza')));
		await fire(() => control.createEmailOrder({ email: 'recipient@postal-service.test', subject: 'Notificação' }));
		await fire(() => control.setOrderStatus(orderId, 1));
		await fire(() => control.addTrackingEvent(orderId));
		await fire(() => control.addTrackingEvent(orderId));
		await fire(() => control.setOrderStatus(orderId, 4, { statusDelivery: 'delivered' }));
		receiptPdf = await pdfOfSize(10 * 1024 * 1024, 'return receipt');
		await fire(() => control.addReturnReceipt(orderId, { rrType: 'rr', pdf: receiptPdf }));
		await fire(() => control.sendTestEvent(endpointId));

		const deliveries = ours();
		for (const delivery of deliveries) {
			expect(delivery.state, `${delivery.event} ${JSON.stringify(delivery.attempts.at(-1))}`).toBe('delivered');
			expect(delivery.attempts).toHaveLength(1);
		}
		const kinds = new Set(deliveries.map((d) => d.event));
		expect([...kinds].sort()).toEqual(['order.created', 'order.status_updated', 'rr.created', 'tracking.updated', 'webhook.test']);

		const list = await waitForExecutionCount(deliveries.length);
		const seen: string[] = [];
		for (const summary of list) {
			const execution = await getExecution(env.client, summary.id);
			const items = nodeOutput(execution, 'Postal Service Trigger');
			expect(items).toHaveLength(1);
			seen.push(String(items[0].json.event));
		}
		expect(seen.sort()).toEqual(deliveries.map((d) => d.event).sort());
	});

	it('hands a 10 MB return receipt to the workflow as binary data', async () => {
		const list = await executions();
		let receipt: Execution | undefined;
		for (const summary of list) {
			const execution = await getExecution(env.client, summary.id);
			if (nodeOutput(execution, 'Postal Service Trigger')[0].json.event === 'rr.created') receipt = execution;
		}
		expect(receipt).toBeDefined();
		const [item] = nodeOutput(receipt!, 'Postal Service Trigger');
		const binary = item.binary?.data;
		expect(binary?.mimeType).toBe('application/pdf');
		const bytes = await binaryContent(env.client, binary!);
		expect(bytes.length).toBe(receiptPdf.length);
		expect(createHash('sha256').update(bytes).digest('hex')).toBe(createHash('sha256').update(receiptPdf).digest('hex'));
		// The document travels as binary data, not as base64 inside the item.
		expect(JSON.stringify(item.json).length).toBeLessThan(100_000);
	});

	it('refuses a forged delivery without starting the workflow', async () => {
		const count = await settledCount();
		const now = saoPauloDateTime();
		const body = JSON.stringify({
			event: 'order.status_updated',
			environment: 'production',
			timestamp: now,
			webhook_id: endpointId,
			delivery_id: 999_999,
			data: { id: '1', type: 'letter', status: { old: 0, new: 5 } },
		});
		const forgedSignature = `sha256=${createHmac('sha256', 'not-the-secret').update(body).digest('hex')}`;
		const response = await fetch(url, {
			method: 'POST',
			headers: {
				'content-type': 'application/json',
				'x-webhook-event': 'order.status_updated',
				'x-webhook-delivery': '999999',
				'x-webhook-timestamp': now,
				'x-webhook-environment': 'production',
				'x-webhook-signature': forgedSignature,
			},
			body,
		});
		expect(response.status).toBe(401);
		await expectNoNewExecution(count);
	});

	it('starts nothing for a duplicate delivery', async () => {
		const count = await settledCount();
		const [first] = ours().filter((d) => d.event === 'order.status_updated');
		const resent = await env.sandbox.control.resendDelivery(first.deliveryId);
		expect(resent.attempts.at(-1)?.status).toBe(200);
		await expectNoNewExecution(count);
	});

	it('starts nothing for duplicates of deliveries that first arrived at the same time', async () => {
		const control = env.sandbox.control;
		let orderId = '';
		await fire(async () => (orderId = await createLetterAtService(env, 'João Lima')));
		const before = ours().length;
		const count = await settledCount();
		// The service sends events of different orders in parallel.
		control.setOrderStatus(orderId, 1);
		control.addTrackingEvent(orderId);
		control.sendTestEvent(endpointId);
		await control.waitForDeliveries((all) => {
			const mine = all.filter((d) => d.webhookId === endpointId);
			return mine.length >= before + 3 && mine.every(settled);
		}, 60_000);
		await waitForExecutionCount(count + 3);
		for (const delivery of ours().slice(before - 1)) {
			const resent = await control.resendDelivery(delivery.deliveryId);
			expect(resent.attempts.at(-1)?.status).toBe(200);
		}
		await expectNoNewExecution(count + 3);
	});

	it('still starts nothing for a duplicate after n8n restarts', async () => {
		const count = await settledCount();
		env.timings.n8nRestartSeconds = await env.n8n.restart();
		await waitForWebhook(url);
		const [first] = ours().filter((d) => d.event === 'tracking.updated');
		const resent = await env.sandbox.control.resendDelivery(first.deliveryId);
		expect(resent.attempts.at(-1)?.status).toBe(200);
		await expectNoNewExecution(count);
		// And a new event still comes through after the restart.
		env.sandbox.control.sendTestEvent(endpointId);
		await waitForExecutionCount(count + 1);
	});
});

describe('the example workflows, imported as they are', () => {
	it('use only parameters the nodes declare', async () => {
		const types = await editorJson<Array<{ name: string; version: number | number[]; properties: Array<{ name: string }> }>>('/types/nodes.json');
		const examples = readExamples();
		expect(examples.length).toBeGreaterThanOrEqual(3);
		for (const { file, workflow } of examples) {
			for (const node of workflow.nodes.filter((n) => n.type.startsWith(`${PACKAGE_NAME}.`))) {
				const type = types.find((t) => t.name === node.type);
				expect(type, `${file}: ${node.type}`).toBeDefined();
				expect([type!.version].flat(), `${file}: ${node.name} version`).toContain(node.typeVersion);
				const declared = new Set(type!.properties.map((p) => p.name));
				for (const parameter of Object.keys(node.parameters)) {
					expect(declared.has(parameter), `${file}: "${node.name}" has parameter "${parameter}" that ${node.type} does not declare`).toBe(true);
				}
			}
		}
	});

	it('sends a registered letter with return receipt from a PDF posted to its webhook', async () => {
		await sendRegisteredLetter(env);
	});

	it('keeps the return receipt and marks the order when rr.created arrives', async () => {
		await keepReturnReceipt(env);
	});

	it('sends a chat template message to the saved contact when the letter is delivered', async () => {
		await chatMessageWhenDelivered(env);
	});
});

describe('secrets', () => {
	it('the account token appears in no execution of the run, data included', async () => {
		const all = await listExecutions(env.client, { includeData: true });
		expect(all.length).toBeGreaterThan(5);
		for (const execution of all) {
			const text = JSON.stringify(execution);
			expect(text.includes(env.token), `execution ${execution.id} holds the token`).toBe(false);
			expect(text.includes(encodeURIComponent(env.token))).toBe(false);
		}
	});
});
