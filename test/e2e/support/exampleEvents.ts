// Examples started by the service's events through the Postal Service Trigger.
import { expect } from 'vitest';

import { forTestEnvironment, readExamples, waitForWebhook } from '../../../scripts/workflows';
import { listExecutions, nodeOutput, type E2eEnvironment } from './environment';
import {
	example,
	finishedExecutions,
	importTriggerExample,
	pointedAt,
	productionUrlOf,
	removeImported,
	sampleLetterUrl,
	settled,
	sha256,
	TRIGGER,
	type StandIn,
} from './examples';
import { createLetterAtService, pdfOfSize } from './service';

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
