// The example workflows of examples/, imported through the public API exactly as the files are,
// started the way users start them (a webhook call, a form, a schedule, the service's deliveries),
// never by the CLI. Other systems (a CRM, a file store, a team chat) are a local HTTP stand-in.
import { createHash, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { expect } from 'vitest';

import { SAMPLE_LETTER_PATH } from '../../../sandbox/sample';
import { activateWorkflow, createDataTables, createWorkflow, forTestEnvironment, readExamples, waitForWebhook, type WorkflowFile } from '../../../scripts/workflows';
import { binaryContent, getExecution, listExecutions, nodeOutput, waitFor, type E2eEnvironment, type Execution } from './environment';
import { createLetterAtService, pdfOfSize } from './service';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const TRIGGER = 'n8n-nodes-postal-service.postalServiceTrigger';

export function example(fileName: string): WorkflowFile {
	const found = readExamples().find((e) => e.file === fileName);
	if (!found) throw new Error(`examples/${fileName} is missing`);
	return found.workflow;
}

const imported: string[] = [];

async function importAndActivate(env: E2eEnvironment, workflow: WorkflowFile) {
	// A read first: n8n may have closed the client's idle connection, which a read finds out safely.
	await env.client.api('GET', '/workflows?limit=1');
	await createDataTables(env.client, workflow);
	const { id } = await createWorkflow(env.client, workflow, env.credentials);
	imported.push(id);
	await activateWorkflow(env.client, id);
	return id;
}

/** Removes what these cases imported, so that their webhooks and schedules stop. */
export async function removeImported(env: E2eEnvironment): Promise<void> {
	for (const id of imported.splice(0)) {
		// Deactivated first: n8n keeps an active workflow's webhooks registered until then.
		await env.client.api('POST', `/workflows/${id}/deactivate`).catch(() => undefined);
		await env.client.api('DELETE', `/workflows/${id}`).catch(() => undefined);
	}
}

function productionUrlOf(env: E2eEnvironment, workflow: WorkflowFile, type: string, path: string) {
	const node = workflow.nodes.find((n) => n.type === type);
	if (!node) throw new Error(`"${workflow.name}" has no ${type} node`);
	// n8n's own Webhook node takes its path as the full path; other webhook nodes get the node's id first.
	return type === 'n8n-nodes-base.webhook' ? `${env.webhookUrl}/webhook/${path}` : `${env.webhookUrl}/webhook/${node.webhookId}/${path}`;
}

/** Imports a trigger example set to the test environment and registers its endpoint at the sandbox. */
async function importTriggerExample(env: E2eEnvironment, workflow: WorkflowFile): Promise<string> {
	const id = await importAndActivate(env, workflow);
	const trigger = workflow.nodes.find((n) => n.type === TRIGGER)!;
	const url = productionUrlOf(env, workflow, TRIGGER, 'webhook');
	await waitForWebhook(url);
	env.sandbox.control.registerWebhook({ url, events: trigger.parameters.events as string[], name: workflow.name });
	return id;
}

async function finishedExecutions(env: E2eEnvironment, workflowId: string, count: number): Promise<Execution[]> {
	const list = await waitFor(
		async () => {
			const all = await listExecutions(env.client, { workflowId });
			return all.length >= count && all.every((e) => e.status !== 'running' && e.status !== 'new') ? all : undefined;
		},
		`${count} finished executions of workflow ${workflowId}`,
		60_000,
	);
	return await Promise.all(list.map((e) => getExecution(env.client, e.id)));
}

const settled = (env: E2eEnvironment) =>
	env.sandbox.control.waitForDeliveries((all) => all.every((d) => d.state !== 'pending' && d.state !== 'retrying'), 30_000);

export const sampleLetterUrl = (env: E2eEnvironment) => `${env.sandbox.baseUrl}${SAMPLE_LETTER_PATH}`;

/** A CRM, a file store and a team chat on 127.0.0.1: records every request and answers 200. */
export interface StandIn {
	url: string;
	requests: Array<{ method: string; path: string; contentType: string; body: Buffer; json?: Record<string, unknown> }>;
	stop(): Promise<void>;
}

export async function startStandIn(): Promise<StandIn> {
	const requests: StandIn['requests'] = [];
	const server: Server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => {
			const body = Buffer.concat(chunks);
			const contentType = String(req.headers['content-type'] ?? '');
			let json: Record<string, unknown> | undefined;
			if (contentType.includes('json')) json = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
			requests.push({ method: req.method ?? '', path: req.url ?? '', contentType, body, json });
			res.writeHead(200, { 'content-type': 'application/json' });
			res.end(JSON.stringify({ ok: true, id: randomUUID() }));
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	return { url, requests, stop: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** The example's placeholder addresses of other systems, pointed at the stand-in (as a user puts theirs). */
function pointedAt(workflow: WorkflowFile, standIn: StandIn): WorkflowFile {
	const text = JSON.stringify(workflow).replace(/https:\/\/(crm|files|chat)\.example\.com/g, `${standIn.url}/$1`);
	return JSON.parse(text) as WorkflowFile;
}

export async function sendRegisteredLetter(env: E2eEnvironment): Promise<void> {
	const workflow = example('send-registered-letter-from-pdf.json');
	const id = await importAndActivate(env, workflow);
	const url = productionUrlOf(env, workflow, 'n8n-nodes-base.webhook', 'registered-letter');
	await waitForWebhook(url);
	const pdf = await pdfOfSize(0, 'Notificação extrajudicial');
	const fields = {
		name: 'Ana Pereira',
		street: 'Rua Augusta',
		number: '500',
		complement: 'Apto 12',
		zip: '01305-000',
		city: 'São Paulo',
		state: 'SP',
		reference: `order-${Date.now()}`,
	};
	const post = async (change: Partial<typeof fields> = {}) => {
		const form = new FormData();
		for (const [key, value] of Object.entries({ ...fields, ...change })) form.set(key, value);
		form.set('data', new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }), 'notice.pdf');
		// n8n may close the connection instead of answering when the run fails.
		try {
			const response = await fetch(url, { method: 'POST', body: form });
			return { status: response.status, text: await response.text() };
		} catch (error) {
			return { status: 0, text: (error as Error).message };
		}
	};
	const tagged = () => env.sandbox.control.orders().filter((o) => o.tag === fields.reference);

	// A request the service refuses (a postal code of the wrong length) sends nothing...
	const refused = await post({ zip: '0130-500' });
	expect(refused.status, refused.text).not.toBe(200);
	const [failed] = await finishedExecutions(env, id, 1);
	expect(failed.status).toBe('error');
	expect(failed.data?.resultData.error?.message ?? '').toMatch(/Postal Code|8 digits/);
	expect(tagged()).toHaveLength(0);

	// ...and the corrected request, with the same reference, is sent: not answered "already sent".
	const answer = await post();
	expect(answer.status, answer.text).toBe(200);
	const executions = await finishedExecutions(env, id, 2);
	const execution = executions.find((e) => e.status === 'success')!;
	expect(execution, JSON.stringify(executions.map((e) => e.status))).toBeDefined();
	const [created] = nodeOutput(execution, 'Send letter');
	const orderId = String(created.json.id);
	expect(orderId).toMatch(/^\d+$/);
	expect(env.sandbox.control.order(orderId)).toMatchObject({ shipType: 3, name: 'Ana Pereira', tag: fields.reference });
	const [download] = nodeOutput(execution, 'Download letter file');
	const binary = download.binary?.data;
	expect(binary?.mimeType).toBe('application/pdf');
	expect(sha256(await binaryContent(env, binary!))).toBe(sha256(pdf));
	expect(answer.text).toContain(orderId);

	// A client that sends the same request again (its answer was lost) does not send a second letter.
	const again = await post();
	expect(JSON.parse(again.text)).toMatchObject({ alreadySent: true, reference: fields.reference, orderId });
	await finishedExecutions(env, id, 3);
	expect(tagged()).toHaveLength(1);
}

/** Every example with a Postal Service trigger, as shipped, drops the sandbox's test-environment events. */
export async function productionEventsOnly(env: E2eEnvironment): Promise<void> {
	const examples = readExamples().filter(({ workflow }) => workflow.nodes.some((n) => n.type === TRIGGER));
	expect(examples.length).toBeGreaterThanOrEqual(3);
	const { control } = env.sandbox;
	const ids: string[] = [];
	for (const { file, workflow } of examples) {
		const trigger = workflow.nodes.find((n) => n.type === TRIGGER)!;
		expect(trigger.parameters.environment, file).toBe('production');
		ids.push(await importTriggerExample(env, workflow));
	}
	const orderId = await createLetterAtService(env, 'Davi Lima');
	control.addTrackingEvent(orderId, { codigo: 'BDE', descricao: 'Objeto entregue ao destinatário', statusDelivery: 'delivered' });
	control.addReturnReceipt(orderId, { rrType: 'rr', pdf: await pdfOfSize(0, 'AR') });
	const all = await settled(env);
	// Each endpoint took its events, answered 200, and started nothing.
	const delivered = all.filter((d) => d.payload?.data && (d.payload.data as { id?: string }).id === orderId);
	expect(delivered.length).toBeGreaterThanOrEqual(examples.length);
	expect(delivered.every((d) => d.state === 'delivered')).toBe(true);
	for (const id of ids) expect(await listExecutions(env.client, { workflowId: id })).toHaveLength(0);
	await removeImported(env);
	for (const endpoint of control.webhooks()) control.removeWebhook(endpoint.id);
}

export async function chatMessageWhenDelivered(env: E2eEnvironment): Promise<void> {
	const workflow = forTestEnvironment(example('chat-message-when-delivered.json'));
	const id = await importTriggerExample(env, workflow);
	const orderId = await createLetterAtService(env, 'Beatriz Costa');
	const control = env.sandbox.control;
	const sentBefore = control.chatMessages().length;
	// Each event once the previous run has finished, as events of one letter come hours apart.
	let runs = 0;
	const event = async (input?: Parameters<typeof control.addTrackingEvent>[1]) => {
		control.addTrackingEvent(orderId, input);
		await finishedExecutions(env, id, ++runs);
	};
	await event();
	// Each event at its own time, as the postal operator reports them: the trigger takes a tracking
	// event with the same code and time as a repeat of one it already ran.
	const later = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
	// The first delivered event: the service fails the message, so the order is not remembered...
	control.injectFault({ method: 'POST', path: '/api/chat/v1/post', kind: '500', count: 1 });
	await event({ codigo: 'BDE', descricao: 'Objeto entregue ao destinatário', statusDelivery: 'delivered', dtHrCriado: later(1) });
	// ...and the next one tells the contact.
	await event({ codigo: 'BDE', descricao: 'Objeto entregue ao destinatário', statusDelivery: 'delivered', dtHrCriado: later(2) });
	// A later tracking event of the delivered letter still says delivered: it must not pay for a second message.
	await event({ codigo: 'BDE', descricao: 'Comprovante de entrega digitalizado', dtHrCriado: later(3) });

	const executions = await finishedExecutions(env, id, 4);
	expect(executions.map((e) => e.status).sort()).toEqual(['error', 'success', 'success', 'success']);
	const sent = executions.filter((e) => e.status === 'success' && e.data?.resultData.runData['Send chat message']);
	expect(sent).toHaveLength(1);
	const [message] = nodeOutput(sent[0], 'Send chat message');
	expect(message.json).toMatchObject({ status: 'processing' });
	const messages = control.chatMessages().slice(sentBefore);
	expect(messages).toHaveLength(1);
	expect(messages[0]).toMatchObject({ phone: '+5521999990000', template_id: 101 });
}

export async function returnReceiptToStorage(env: E2eEnvironment, standIn: StandIn): Promise<void> {
	const workflow = pointedAt(forTestEnvironment(example('return-receipt-to-storage.json')), standIn);
	const id = await importTriggerExample(env, workflow);
	const orderId = await createLetterAtService(env, 'Carlos Mendes');
	const receipt = await pdfOfSize(200_000, 'AR digitalizado');
	env.sandbox.control.addReturnReceipt(orderId, { rrType: 'rr', pdf: receipt });
	await finishedExecutions(env, id, 1);
	env.sandbox.control.addReturnReceipt(orderId, { rrType: 'rr_electronic', unreadable: true });
	const executions = await finishedExecutions(env, id, 2);
	for (const e of executions) expect(e.status, JSON.stringify(e.data?.resultData.error)).toBe('success');

	const stored = standIn.requests.find((r) => r.method === 'PUT' && r.path === `/files/return-receipts/${orderId}-rr.pdf`);
	expect(stored, JSON.stringify(standIn.requests.map((r) => `${r.method} ${r.path}`))).toBeDefined();
	expect(sha256(stored!.body)).toBe(sha256(receipt));
	const links = standIn.requests.filter((r) => r.method === 'PATCH' && r.path === `/crm/api/orders/${orderId}`).map((r) => r.json);
	expect(links).toEqual([
		{ returnReceipt: expect.objectContaining({ url: `${standIn.url}/files/return-receipts/${orderId}-rr.pdf`, type: 'rr' }) },
		{ returnReceipt: expect.objectContaining({ url: null, type: 'rr_electronic' }) },
	]);
}

export async function mailMerge(env: E2eEnvironment): Promise<void> {
	const workflow = example('mail-merge-from-csv.json');
	const id = await importAndActivate(env, workflow);
	const url = productionUrlOf(env, workflow, 'n8n-nodes-base.webhook', 'mail-merge');
	await waitForWebhook(url);
	const pdf = sampleLetterUrl(env);
	const header = 'name,street,number,complement,zip,city,state,pdf_url';
	const rows = [
		`Ana Pereira,Rua Augusta,500,Apto 12,01305-000,São Paulo,SP,${pdf}`,
		`Bruno Dias,Avenida Atlântica,1702,,22021-001,Rio de Janeiro,RJ,${pdf}`,
	];
	const post = async (csv: string) => {
		const form = new FormData();
		form.set('data', new Blob([csv], { type: 'text/csv' }), 'recipients.csv');
		const response = await fetch(url, { method: 'POST', body: form });
		return { status: response.status, text: await response.text() };
	};
	const creates = () => env.sandbox.control.requests({ method: 'POST', path: '/api/v2/post' }).filter((r) => (r.fields.test ?? '0') === '0').length;

	// One bad row stops the run before any letter is sent.
	const before = creates();
	const bad = await post([header, rows[0], rows[1].replace('22021-001', '2202-001')].join('\n'));
	expect(bad.status, bad.text).not.toBe(200);
	await finishedExecutions(env, id, 1);
	expect(creates()).toBe(before);

	const answer = await post([header, ...rows].join('\n'));
	expect(answer.status, answer.text).toBe(200);
	const written = answer.text.trim().split('\n');
	expect(written[0]).toContain('order_id');
	const executions = await finishedExecutions(env, id, 2);
	const execution = executions.find((e) => e.status === 'success')!;
	const sent = nodeOutput(execution, 'Send letter').map((i) => String(i.json.id));
	expect(sent).toHaveLength(2);
	for (const [index, orderId] of sent.entries()) {
		expect(env.sandbox.control.order(orderId)).toMatchObject({ tag: `mail-merge-row-${index + 2}`, name: ['Ana Pereira', 'Bruno Dias'][index] });
		expect(written[index + 1]).toContain(orderId);
	}
}

export async function crmDealToLetter(env: E2eEnvironment, standIn: StandIn): Promise<void> {
	const workflow = pointedAt(forTestEnvironment(example('crm-deal-to-letter.json')), standIn);
	const id = await importTriggerExample(env, workflow);
	const url = productionUrlOf(env, workflow, 'n8n-nodes-base.webhook', 'deal-stage-changed');
	await waitForWebhook(url);
	const dealId = `D-${Date.now()}`;
	const deal = (stage: string) =>
		fetch(url, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({
				dealId,
				stage,
				documentUrl: sampleLetterUrl(env),
				contact: { name: 'Helena Rocha', street: 'Rua da Bahia', number: '1148', complement: '', zip: '30160-011', city: 'Belo Horizonte', state: 'MG' },
			}),
		}).then((r) => r.text());
	await deal('qualified');
	await deal('contract_sent');
	await finishedExecutions(env, id, 2);
	const [order] = env.sandbox.control.orders().filter((o) => o.tag === `deal-${dealId}`);
	expect(order).toMatchObject({ shipType: 3, name: 'Helena Rocha' });
	const orderId = String(order.id);

	// Each event once the run of the one before has finished, as a letter's events come hours apart:
	// runs on several workers at once may otherwise add their notes in either order.
	env.sandbox.control.addTrackingEvent(orderId);
	await finishedExecutions(env, id, 3);
	env.sandbox.control.addTrackingEvent(orderId, { codigo: 'BDE', descricao: 'Objeto entregue ao destinatário', statusDelivery: 'delivered' });
	await finishedExecutions(env, id, 4);
	env.sandbox.control.addReturnReceipt(orderId, { rrType: 'rr', pdf: await pdfOfSize(0, 'AR') });
	const executions = await finishedExecutions(env, id, 5);
	for (const e of executions) expect(e.status, JSON.stringify(e.data?.resultData.error)).toBe('success');
	const notes = standIn.requests.filter((r) => r.path === `/crm/api/deals/${dealId}/notes`).map((r) => String(r.json?.content));
	// The letter sent, its tracking code assigned (the service posts it), delivered, its return receipt.
	const tracking = String(env.sandbox.control.order(orderId)!.tracking);
	expect(notes).toEqual([
		`Registered letter with return receipt sent: order ${orderId}`,
		`Letter ${orderId} (${tracking}): tracking code assigned`,
		`Letter ${orderId} (${tracking}): Objeto entregue ao destinatário [delivered]`,
		`Return receipt (AR) received for order ${orderId}`,
	]);
}

export async function balanceAlert(env: E2eEnvironment, standIn: StandIn): Promise<void> {
	const shipped = pointedAt(example('balance-alert.json'), standIn);
	// The schedule shortened from every morning to every few seconds, so the run comes now.
	const workflow = {
		...shipped,
		nodes: shipped.nodes.map((n) =>
			n.type === 'n8n-nodes-base.scheduleTrigger' ? { ...n, parameters: { rule: { interval: [{ field: 'seconds', secondsInterval: 2 }] } } } : n,
		),
	};
	const { control } = env.sandbox;
	const balance = control.balance();
	control.setBalance(20);
	try {
		const id = await importAndActivate(env, workflow);
		await finishedExecutions(env, id, 1);
		await env.client.api('POST', `/workflows/${id}/deactivate`);
	} finally {
		control.setBalance(balance);
	}
	const [alert] = standIn.requests.filter((r) => r.path === '/chat/hooks/postal-alerts');
	expect(alert?.json?.text).toContain('R$ 20 left');
}

export async function formSendsLetter(env: E2eEnvironment): Promise<void> {
	const workflow = example('form-send-letter.json');
	const id = await importAndActivate(env, workflow);
	const trigger = workflow.nodes.find((n) => n.type === 'n8n-nodes-base.formTrigger')!;
	const url = `${env.webhookUrl}/form/${trigger.webhookId}`;
	await waitForWebhook(url);
	const pdf = await pdfOfSize(0, 'Carta pelo formulário');
	const values = ['Igor Nunes', 'Rua XV de Novembro', '300', 'Sala 4', '80020-310', 'Curitiba', 'PR'];
	const form = new FormData();
	values.forEach((value, i) => form.set(`field-${i}`, value));
	form.set('field-7', new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }), 'carta.pdf');
	const response = await fetch(url, { method: 'POST', body: form });
	expect(response.status, await response.text()).toBe(200);
	const [execution] = await finishedExecutions(env, id, 1);
	expect(execution.status, JSON.stringify(execution.data?.resultData.error)).toBe('success');
	const [sent] = nodeOutput(execution, 'Send letter');
	const order = env.sandbox.control.order(String(sent.json.id));
	expect(order).toMatchObject({ shipType: 2, name: 'Igor Nunes', tag: 'form', zip: '80020310' });
	const stored = env.sandbox.control.requests({ method: 'POST', path: '/api/v2/post' }).at(-1)!;
	expect(stored.files.map((f) => f.sha256)).toEqual([sha256(pdf)]);
}

/** The AI agent example as shipped: a chat only for signed-in users of the editor. */
export function aiAgentAsShipped(): void {
	const workflow = example('ai-agent-registered-letter.json');
	const chat = workflow.nodes.find((n) => n.type === '@n8n/n8n-nodes-langchain.chatTrigger')!;
	expect(chat.parameters.public).toBe(false);
	const send = workflow.nodes.find((n) => n.name === 'Send letter')!;
	expect(send.parameters).toMatchObject({ resource: 'order', operation: 'create' });
}
