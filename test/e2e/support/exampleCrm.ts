// The CRM examples: a deal entering a stage, and the round trip of a client record (issue 38's flow),
// each called by the CRM's webhook and then fed the letter's events through the Postal Service Trigger.
import { expect } from 'vitest';

import { clientRecord, dataTableRows } from '../../../scripts/dev/workflows';
import type { E2eEnvironment } from './environment';
import { DELIVERED } from './exampleEvents';
import { creates, postJson, receivedAt, receiverExample, refusedWithoutCredential, sampleLetterUrl, sha256, type ImportedExample } from './examples';
import { pdfOfSize } from './service';

/** A CRM example imported, and a post as the CRM makes it, whose run is waited for. */
async function crmExample(env: E2eEnvironment, file: string) {
	const entry = await receiverExample(env, file);
	const crmPosts = (body: unknown) =>
		entry.step(async () => {
			const answer = await postJson(entry.url, body, entry.headers);
			expect(answer.status, answer.text).toBe(200);
		});
	return { ...entry, crmPosts };
}

/** The letter's events as the service makes them (tracking code, delivery, return receipt), each run's success waited for; its tracking code. */
async function letterEvents(env: E2eEnvironment, { step }: ImportedExample, orderId: string, receipt: Buffer) {
	const { control } = env.sandbox;
	await step(() => control.addTrackingEvent(orderId));
	await step(() => control.addTrackingEvent(orderId, DELIVERED));
	await step(() => control.addReturnReceipt(orderId, { rrType: 'rr', pdf: receipt }));
	return String(control.order(orderId)!.tracking);
}

export async function crmDealToLetter(env: E2eEnvironment): Promise<void> {
	const entry = await crmExample(env, 'crm-deal-to-letter.json');
	const { crmPosts } = entry;
	const dealId = `D-${Date.now()}`;
	const contact = { name: 'Helena Rocha', street: 'Rua da Bahia', number: '1148', complement: '', zip: '30160-011', city: 'Belo Horizonte', state: 'MG' };
	const deal = (stage: string, previousStage: string) => crmPosts({ dealId, stage, previousStage, documentUrl: sampleLetterUrl(env), contact });
	const letters = () => env.sandbox.control.orders().filter((o) => o.tag === `deal-${dealId}`);

	// Its Basic Auth entry refuses a call without the CRM's user and password as the round trip's does (proven there).
	await deal('qualified', 'new');
	expect(letters()).toHaveLength(0);
	// The deal enters contract_sent: one letter.
	await deal('contract_sent', 'qualified');
	expect(letters()).toHaveLength(1);
	// An edit of the deal while it is in contract_sent, and the CRM calling twice for the same change: nothing more.
	await deal('contract_sent', 'contract_sent');
	await deal('contract_sent', 'qualified');
	expect(letters()).toHaveLength(1);
	const [order] = letters();
	expect(order).toMatchObject({ shipType: 3, name: 'Helena Rocha' });
	const orderId = String(order.id);
	expect((await dataTableRows(env.client, 'postal_deal_letters')).filter((r) => r.deal_id === dealId)).toEqual([expect.objectContaining({ status: 'sent', order_id: orderId })]);

	const tracking = await letterEvents(env, entry, orderId, await pdfOfSize(0, 'AR'));
	// The letter sent, its tracking code assigned (the service posts it), delivered, its return receipt.
	expect(receivedAt(env, `/crm/api/deals/${dealId}/notes`).map((r) => String(r.json?.content))).toEqual([
		`Registered letter with return receipt sent: order ${orderId}`,
		`Letter ${orderId} (${tracking}): tracking code assigned`,
		`Letter ${orderId} (${tracking}): Objeto entregue ao destinatário [delivered]`,
		`Return receipt (AR) received for order ${orderId}`,
	]);
}

/**
 * The round trip a law office comes for: a client record posted by the CRM (its Portuguese field
 * names) sends one registered letter with AR tagged with the record, the letter's tracking comes back
 * as notes on the record, and the AR's PDF is attached to the record and given back by the link its note names.
 */
export async function crmClientToReturnReceipt(env: E2eEnvironment): Promise<void> {
	const entry = await crmExample(env, 'crm-client-to-return-receipt.json');
	const { crmPosts } = entry;
	const clienteId = `C-${Date.now()}`;
	const record = `/crm/api/clientes/${clienteId}`;
	const ficha = clientRecord(sampleLetterUrl(env), clienteId);
	const lettersOf = (client: string) => env.sandbox.control.orders().filter((o) => o.tag === `cliente-${client}`);
	const addressesOf = (client: string) =>
		creates(env, `cliente-${client}`).map((r) => [r.fields.name, r.fields.addr1, r.fields.street_number, r.fields.addr2, r.fields.zip, r.fields.city, r.fields.state]);
	const address = ['Marina Albuquerque', 'Rua da Bahia', '1148', 'Sala 3 - Centro', '30160011', 'Belo Horizonte', 'MG'];

	// Without the CRM's user and password, or with a wrong one: refused, nothing runs.
	await refusedWithoutCredential(env, entry, () => ({ method: 'POST', body: JSON.stringify(ficha) }));

	// The CRM calls twice for the same record and document: one letter, with the record's address.
	await crmPosts(ficha);
	await crmPosts(ficha);
	expect(lettersOf(clienteId)).toHaveLength(1);
	const [order] = lettersOf(clienteId);
	expect(order).toMatchObject({ shipType: 3, name: 'Marina Albuquerque' });
	expect(addressesOf(clienteId)).toEqual([address]);
	// A CRM that names the fields otherwise (the other names Client fields reads): the same letter for its record.
	const otherId = `${clienteId}-b`;
	const { nome, numero, complemento, bairro, cep } = ficha;
	await crmPosts({ id: otherId, nome, endereco: ficha.logradouro, numero, complemento, bairro, municipio: ficha.cidade, estado: ficha.uf, cep, pdf_url: ficha.documento_url });
	expect(addressesOf(otherId)).toEqual([address]);
	const orderId = String(order.id);
	expect((await dataTableRows(env.client, 'postal_client_letters')).filter((r) => r.cliente_id === clienteId)).toEqual([expect.objectContaining({ status: 'sent', order_id: orderId })]);

	const receipt = await pdfOfSize(150_000, 'AR assinado');
	const tracking = await letterEvents(env, entry, orderId, receipt);
	// On the record: the letter sent, its tracking code, its delivery, and its AR with the link to it.
	const link = `${env.sandbox.receiverUrl}${record}/anexos/AR-${orderId}.pdf`;
	expect(receivedAt(env, `${record}/notas`, 'POST').map((r) => String(r.json?.texto))).toEqual([
		`Carta registrada com AR enviada: pedido ${orderId}`,
		`Carta ${orderId} (${tracking}): código de rastreio atribuído`,
		`Carta ${orderId} (${tracking}): Objeto entregue ao destinatário [delivered]`,
		`AR recebido da carta ${orderId} (${tracking}), anexado: ${link}`,
	]);
	expect(receivedAt(env, `${record}/anexos/`, 'PUT').map((r) => [r.path, r.sha256])).toEqual([[`${record}/anexos/AR-${orderId}.pdf`, sha256(receipt)]]);
	// The link the record holds gives the AR's PDF back, byte for byte.
	const opened = await fetch(link);
	expect(opened.status).toBe(200);
	expect(sha256(Buffer.from(await opened.arrayBuffer()))).toBe(sha256(receipt));
}
