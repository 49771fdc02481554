// Examples started by the service's events through the Postal Service Trigger. Each event is made
// once the run of the one before has finished, as a letter's events come hours apart.
import { expect } from 'vitest';

import { dataTableRows, forTestEnvironment, insertDataTableRows, withTemplatesOf, type WorkflowFile } from '../../../scripts/dev/workflows';
import type { E2eEnvironment } from './environment';
import { runScheduled } from './exampleRuns';
import { example, finishedExecutions, importExample, pointedAtReceiver, postJson, receivedAt, receiverExample, sha256, TRIGGER } from './examples';
import { createLetterAtService, pdfOfSize } from './service';

/** The workflow without the nodes of a type (and what only they start), as a part of it to run alone. */
function without(workflow: WorkflowFile, type: string): WorkflowFile {
	const removed = new Set(workflow.nodes.filter((n) => n.type === type).map((n) => n.name));
	return {
		...workflow,
		nodes: workflow.nodes.filter((n) => !removed.has(n.name)),
		connections: Object.fromEntries(Object.entries(workflow.connections).filter(([from]) => !removed.has(from))),
	};
}
const withoutSchedules = (workflow: WorkflowFile) => without(workflow, 'n8n-nodes-base.scheduleTrigger');

/** Each tracking event at its own time, as the postal operator reports them (the trigger takes the same code and time for a repeat). */
const later = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
export const DELIVERED = { codigo: 'BDE', descricao: 'Objeto entregue ao destinatário', statusDelivery: 'delivered' };

export async function chatMessageWhenDelivered(env: E2eEnvironment): Promise<void> {
	// Its Send chat message nodes name the sandbox's templates, as a user picks theirs.
	const { control } = env.sandbox;
	const { step: event } = await importExample(env, withTemplatesOf(control, forTestEnvironment(example('chat-message-when-delivered.json'))));
	const [contacted, nobody, broke, failing] = await Promise.all(['Beatriz Costa', 'Caio Prado', 'Diana Reis', 'Elisa Melo'].map((name) => createLetterAtService(env, name)));
	const phone = '+5511912345678';
	await insertDataTableRows(env.client, 'postal_letter_contacts', [contacted, broke, failing].map((order_id, i) => ({ order_id, contact_name: ['Beatriz', 'Diana', 'Elisa'][i], contact_phone: phone })));
	const messagesTo = (orderId: string) => control.chatMessages().filter((m) => (m.variables as Record<string, string>).pedido === orderId);
	const row = async (orderId: string) => (await dataTableRows(env.client, 'postal_told_orders')).filter((r) => r.order_key === `homolog:${orderId}`);

	// Tracking news that is not a delivery tells nobody; the delivery tells the contact, once.
	await event(() => control.addTrackingEvent(contacted));
	expect(messagesTo(contacted)).toHaveLength(0);
	await event(() => control.addTrackingEvent(contacted, { ...DELIVERED, dtHrCriado: later(1) }));
	const [message] = messagesTo(contacted);
	const template = control.templates().find((t) => t.name === 'carta_entregue')!;
	expect(message).toMatchObject({ phone, template_id: template.id, variables: { nome: 'Beatriz', pedido: contacted } });
	expect(await row(contacted)).toEqual([expect.objectContaining({ status: 'sent', message_id: String(message.message_id) })]);
	// A later tracking event of the delivered letter still says delivered: it pays for no second message.
	await event(() => control.addTrackingEvent(contacted, { codigo: 'BDE', descricao: 'Comprovante de entrega digitalizado', statusDelivery: 'delivered', dtHrCriado: later(2) }));
	expect(messagesTo(contacted)).toHaveLength(1);

	// Each letter's tracking code first, each its own event (the first tracking event of a letter assigns it).
	for (const orderId of [nobody, broke, failing]) await event(() => control.addTrackingEvent(orderId));

	// A delivered letter without a contact tells nobody.
	await event(() => control.addTrackingEvent(nobody, { ...DELIVERED, dtHrCriado: later(1) }));
	expect(messagesTo(nobody)).toHaveLength(0);
	expect(await row(nobody)).toEqual([]);

	// Out of credits: the service keeps the message (status 2) and the row says held, for a reprocess.
	const balance = control.balance();
	control.setBalance(0);
	try {
		await event(() => control.addTrackingEvent(broke, { ...DELIVERED, dtHrCriado: later(1) }));
	} finally {
		control.setBalance(balance);
	}
	const [held] = messagesTo(broke);
	// The interface types a chat message's status as a string, 2 (insufficient credits) included.
	expect(held.status).toBe('2');
	expect(await row(broke)).toEqual([expect.objectContaining({ status: 'held', message_id: String(held.message_id) })]);

	// A send whose outcome is unclear (the service answers 500): the row says failed, and the next
	// event does not send again on its own.
	control.injectFault({ method: 'POST', path: '/api/chat/v1/post', kind: '500', count: 1 });
	await event(() => control.addTrackingEvent(failing, { ...DELIVERED, dtHrCriado: later(1) }));
	expect(await row(failing)).toEqual([expect.objectContaining({ status: 'failed' })]);
	const attempts = messagesTo(failing).length;
	await event(() => control.addTrackingEvent(failing, { ...DELIVERED, descricao: 'Entregue (segunda leitura)', dtHrCriado: later(2) }));
	expect(messagesTo(failing)).toHaveLength(attempts);
}

export async function returnReceiptToStorage(env: E2eEnvironment): Promise<void> {
	const { step: event } = await receiverExample(env, 'return-receipt-to-storage.json');
	// A paper AR comes back scanned (rr), an electronic one digitally (rr_electronic): one letter of each.
	const paper = await createLetterAtService(env, 'Carlos Mendes', env.sandbox, { ar_type: 'physical' });
	const digital = await createLetterAtService(env, 'Carla Mendes', env.sandbox, { ar_type: 'electronic' });
	const receipt = await pdfOfSize(200_000, 'AR digitalizado');
	await event(() => env.sandbox.control.addReturnReceipt(paper, { rrType: 'rr', pdf: receipt }));
	await event(() => env.sandbox.control.addReturnReceipt(digital, { rrType: 'rr_electronic', unreadable: true }));

	const stored = receivedAt(env, `/files/return-receipts/${paper}-rr.pdf`, 'PUT');
	expect(stored, JSON.stringify(receivedAt(env, '/').map((r) => `${r.method} ${r.path}`))).toHaveLength(1);
	expect(stored[0]).toMatchObject({ sha256: sha256(receipt), size: receipt.length });
	const links = (orderId: string) => receivedAt(env, `/crm/api/orders/${orderId}`, 'PATCH').map((r) => r.json);
	expect(links(paper)).toEqual([{ returnReceipt: expect.objectContaining({ url: `${env.sandbox.receiverUrl}/files/return-receipts/${paper}-rr.pdf`, type: 'rr' }) }]);
	expect(links(digital)).toEqual([{ returnReceipt: expect.objectContaining({ url: null, type: 'rr_electronic' }) }]);
	// The link written on the order gives the stored PDF back, as the file store it stands for does.
	const opened = await fetch(String((links(paper)[0]?.returnReceipt as { url: string }).url));
	expect(sha256(Buffer.from(await opened.arrayBuffer()))).toBe(sha256(receipt));
	expect(receivedAt(env, `/files/return-receipts/${digital}-rr_electronic.pdf`)).toEqual([]);
}

export async function returnedLetterToCollection(env: E2eEnvironment): Promise<void> {
	const { step: event } = await receiverExample(env, 'returned-letter-to-collection.json');
	const orderId = await createLetterAtService(env, 'Fábio Teixeira');
	const alerts = () => receivedAt(env, '/chat/hooks/collection', 'POST').filter((r) => String(r.json?.text).includes(`letter ${orderId} `));

	await event(() => env.sandbox.control.setOrderStatus(orderId, 4));
	expect(alerts()).toHaveLength(0);
	await event(() => env.sandbox.control.setOrderStatus(orderId, 6));
	expect(alerts()).toHaveLength(1);
	expect(String(alerts()[0].json?.text)).toMatch(/devolvida.*Fábio Teixeira, Avenida Paulista 1000, 01310-100 São Paulo\/SP/);
	// The same letter reported returned again (moved away and back): no second alert.
	await event(() => env.sandbox.control.setOrderStatus(orderId, 5));
	await event(() => env.sandbox.control.setOrderStatus(orderId, 6));
	expect(alerts()).toHaveLength(1);
	expect((await dataTableRows(env.client, 'postal_returned_letters')).filter((r) => r.order_id === orderId)).toEqual([expect.objectContaining({ status: 'alerted' })]);
}

export async function insufficientCredits(env: E2eEnvironment): Promise<void> {
	const workflow = pointedAtReceiver(env, forTestEnvironment(example('insufficient-credits-reprocess.json')));
	const { control } = env.sandbox;
	const alerts = () => receivedAt(env, '/chat/hooks/postal-alerts', 'POST').map((r) => String(r.json?.text));
	const balance = control.balance();
	let orderId: string;
	let messageId: number;
	control.setBalance(0);
	try {
		// The trigger's side (its schedule taken out): a letter created without credits is alerted once.
		const { id } = await importExample(env, withoutSchedules(workflow));
		orderId = await createLetterAtService(env, 'Gustavo Araújo');
		await finishedExecutions(env, id, 1);
		expect(control.order(orderId)!.status).toBe(2);
		expect(alerts().filter((text) => text.includes(`Letter ${orderId} is held`))).toHaveLength(1);
		// A chat message kept for lack of credits, as chat-message-when-delivered records it.
		const authorization = `Basic ${Buffer.from(`${env.sandbox.email}:${env.token}`).toString('base64')}`;
		const sent = (await postJson(`${env.sandbox.baseUrl}/api/chat/v1/post`, { phone: '+5511912345678', template_id: 101, variables: { nome: 'Gustavo' } }, { authorization })).json?.data as { message_id: number; status: unknown };
		expect(sent.status).toBe('2');
		messageId = sent.message_id;
		await insertDataTableRows(env.client, 'postal_told_orders', [{ order_key: `homolog:chat-${messageId}`, status: 'held', message_id: String(messageId), error: '' }]);
		await env.client.api('POST', `/workflows/${id}/deactivate`);
	} finally {
		control.setBalance(balance);
	}

	// Credits back: the schedule's side reprocesses the message and reads the held letter again.
	await runScheduled(env, { ...without(workflow, TRIGGER), name: `${workflow.name} (schedule)` });
	expect(control.chatMessages().find((m) => m.message_id === messageId)?.status).toBe('queued');
	expect((await dataTableRows(env.client, 'postal_told_orders')).filter((r) => r.message_id === String(messageId))).toEqual([expect.objectContaining({ status: 'reprocessed' })]);
	// The service's interface does not say it sends a held letter after a top-up (the sandbox does not): reported.
	expect(control.order(orderId)!.status).toBe(2);
	expect(alerts().filter((text) => text.includes(`Letter ${orderId} is still held`)).length).toBeGreaterThan(0);
	expect((await dataTableRows(env.client, 'postal_held_letters')).filter((r) => r.order_id === orderId)).toEqual([expect.objectContaining({ status: 'still held, reported' })]);
}

export async function nightlyReconciliation(env: E2eEnvironment): Promise<void> {
	const workflow = pointedAtReceiver(env, forTestEnvironment(example('nightly-reconciliation.json')));
	const { control } = env.sandbox;
	// By day: the trigger keeps each letter's last known state.
	const { id, step: event } = await importExample(env, withoutSchedules(workflow));
	let orderId = '';
	await event(async () => (orderId = await createLetterAtService(env, 'Heloísa Campos')));
	const known = async () => (await dataTableRows(env.client, 'postal_orders')).filter((r) => r.order_id === orderId);
	await expect.poll(known).toEqual([expect.objectContaining({ status: 0 })]);
	// The endpoint goes away (n8n down past the retries, a paused endpoint): the events that follow never arrive.
	await env.client.api('POST', `/workflows/${id}/deactivate`);
	for (const endpoint of control.webhooks().filter((w) => w.name === workflow.name)) control.removeWebhook(endpoint.id);
	control.setOrderStatus(orderId, 4);
	control.addTrackingEvent(orderId, { ...DELIVERED, dtHrCriado: later(1) });

	// At night: Get letter finds what was missed, records it and reports it once.
	await runScheduled(env, { ...without(workflow, TRIGGER), name: `${workflow.name} (night)` });
	const reports = receivedAt(env, `/crm/api/orders/${orderId}`, 'PATCH').map((r) => r.json);
	expect(reports.length).toBeGreaterThan(0);
	for (const report of reports) expect(report).toMatchObject({ status: 4, statusDelivery: 'delivered', before: { status: 0 }, foundBy: 'nightly reconciliation' });
	expect(await known()).toEqual([expect.objectContaining({ status: 4, status_delivery: 'delivered' })]);
}
