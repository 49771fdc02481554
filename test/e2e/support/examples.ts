// The example workflows of examples/, imported through the public API exactly as the files are,
// started the way users start them (a webhook call, the service's deliveries), never by the CLI.
import { createHash } from 'node:crypto';

import { expect } from 'vitest';

import { activateWorkflow, createWorkflow, readExamples, type WorkflowFile } from '../../../scripts/workflows';
import { waitForWebhook } from '../../../scripts/workflows';
import { binaryContent, getExecution, listExecutions, nodeOutput, waitFor, type E2eEnvironment, type Execution } from './environment';
import { createLetterAtService, pdfOfSize } from './service';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

function example(fileName: string): WorkflowFile {
	const found = readExamples().find((e) => e.file === fileName);
	if (!found) throw new Error(`examples/${fileName} is missing`);
	return found.workflow;
}

async function importAndActivate(env: E2eEnvironment, workflow: WorkflowFile) {
	const { id } = await createWorkflow(env.client, workflow, env.credentials);
	await activateWorkflow(env.client, id);
	return id;
}

function productionUrlOf(env: E2eEnvironment, workflow: WorkflowFile, type: string, path: string) {
	const node = workflow.nodes.find((n) => n.type === type);
	if (!node) throw new Error(`"${workflow.name}" has no ${type} node`);
	// n8n's own Webhook node takes its path as the full path; other webhook nodes get the node's id first.
	return type === 'n8n-nodes-base.webhook' ? `${env.webhookUrl}/webhook/${path}` : `${env.webhookUrl}/webhook/${node.webhookId}/${path}`;
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
		reference: 'order-4711',
	};
	const post = async () => {
		const form = new FormData();
		for (const [key, value] of Object.entries(fields)) form.set(key, value);
		form.set('data', new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }), 'notice.pdf');
		const response = await fetch(url, { method: 'POST', body: form });
		const text = await response.text();
		expect(response.status, text).toBe(200);
		return text;
	};
	const answer = await post();

	const [execution] = await finishedExecutions(env, id, 1);
	expect(execution.status, JSON.stringify(execution.data?.resultData.error)).toBe('success');
	const [created] = nodeOutput(execution, 'Send registered letter');
	const orderId = String(created.json.id);
	expect(orderId).toMatch(/^\d+$/);
	const stored = env.sandbox.control.order(orderId);
	expect(stored).toMatchObject({ shipType: 3, name: 'Ana Pereira', tag: 'order-4711' });
	const [download] = nodeOutput(execution, 'Download the stored PDF');
	const binary = download.binary?.data;
	expect(binary?.mimeType).toBe('application/pdf');
	expect(sha256(await binaryContent(env, binary!))).toBe(sha256(pdf));
	expect(answer).toContain(orderId);

	// A client that sends the same request again (its answer was lost) does not send a second letter.
	const again = JSON.parse(await post()) as Record<string, unknown>;
	expect(again).toMatchObject({ alreadySent: true, reference: 'order-4711' });
	await finishedExecutions(env, id, 2);
	expect(env.sandbox.control.orders().filter((o) => o.tag === 'order-4711')).toHaveLength(1);
}

export async function keepReturnReceipt(env: E2eEnvironment): Promise<void> {
	const workflow = example('keep-return-receipt.json');
	const id = await importAndActivate(env, workflow);
	const url = productionUrlOf(env, workflow, 'n8n-nodes-postal-service.postalServiceTrigger', 'webhook');
	await waitForWebhook(url);
	env.sandbox.control.registerWebhook({ url, events: ['rr.created'], name: workflow.name });
	const orderId = await createLetterAtService(env, 'Carlos Mendes');
	const receipt = await pdfOfSize(200_000, 'AR digitalizado');
	env.sandbox.control.addReturnReceipt(orderId, { rrType: 'rr', pdf: receipt });

	const [execution] = await finishedExecutions(env, id, 1);
	expect(execution.status).toBe('success');
	const [marked] = nodeOutput(execution, 'Mark the order');
	expect(marked.json).toMatchObject({ orderId, receiptType: 'rr', receiptReadable: true, orderStatus: 'return receipt received' });
	const binary = marked.binary?.data;
	expect(binary?.mimeType).toBe('application/pdf');
	expect(sha256(await binaryContent(env, binary!))).toBe(sha256(receipt));
}

export async function chatMessageWhenDelivered(env: E2eEnvironment): Promise<void> {
	const workflow = example('chat-message-when-delivered.json');
	const id = await importAndActivate(env, workflow);
	const url = productionUrlOf(env, workflow, 'n8n-nodes-postal-service.postalServiceTrigger', 'webhook');
	await waitForWebhook(url);
	env.sandbox.control.registerWebhook({ url, events: ['order.status_updated', 'tracking.updated'], name: workflow.name });
	const orderId = await createLetterAtService(env, 'Beatriz Costa');
	const sentBefore = env.sandbox.control.chatMessages().length;
	const control = env.sandbox.control;
	const settle = () =>
		control.waitForDeliveries((all) => all.every((d) => d.state !== 'pending' && d.state !== 'retrying'), 30_000);
	control.setOrderStatus(orderId, 4);
	await settle();
	control.addTrackingEvent(orderId);
	await settle();
	control.addTrackingEvent(orderId, { codigo: 'BDE', descricao: 'Objeto entregue ao destinatário', statusDelivery: 'delivered' });
	await settle();
	// A later tracking event of the delivered letter still says delivered: it must not pay for a second message.
	control.addTrackingEvent(orderId, { codigo: 'BDE', descricao: 'Comprovante de entrega digitalizado' });
	await settle();

	const executions = await finishedExecutions(env, id, 4);
	for (const execution of executions) expect(execution.status, JSON.stringify(execution.data?.resultData.error)).toBe('success');
	const sent = executions.filter((e) => e.data?.resultData.runData['Send delivery message']);
	expect(sent).toHaveLength(1);
	const [message] = nodeOutput(sent[0], 'Send delivery message');
	expect(message.json).toMatchObject({ status: 'processing' });
	const messages = control.chatMessages().slice(sentBefore);
	expect(messages).toHaveLength(1);
	expect(messages[0]).toMatchObject({ phone: '+5521999990000', template_id: 101 });
}

