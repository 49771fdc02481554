// The CRM examples: a deal entering a stage, and the round trip of a client record (issue 38's flow),
// each called by the CRM's webhook and then fed the letter's events through the Postal Service Trigger.
import { expect } from 'vitest';

import { clientRecord, dataTableRows, entryHeaders, forTestEnvironment, waitForWebhook } from '../../../scripts/dev/workflows';
import { listExecutions, type E2eEnvironment } from './environment';
import { DELIVERED } from './exampleEvents';
import { call } from './exampleRequests';
import { entryCredential, example, finishedExecutions, importTriggerExample, pointedAtReceiver, productionUrlOf, receivedAt, sampleLetterUrl, sha256 } from './examples';
import { pdfOfSize } from './service';

export async function crmDealToLetter(env: E2eEnvironment): Promise<void> {
	const workflow = pointedAtReceiver(env, forTestEnvironment(example('crm-deal-to-letter.json')));
	const id = await importTriggerExample(env, workflow);
	const url = productionUrlOf(env, workflow, 'n8n-nodes-base.webhook', 'deal-stage-changed');
	await waitForWebhook(url);
	const dealId = `D-${Date.now()}`;
	const payload = (stage: string, previousStage: string) =>
		JSON.stringify({
			dealId,
			stage,
			previousStage,
			documentUrl: sampleLetterUrl(env),
			contact: { name: 'Helena Rocha', street: 'Rua da Bahia', number: '1148', complement: '', zip: '30160-011', city: 'Belo Horizonte', state: 'MG' },
		});
	const credential = entryCredential('Postal Service examples: CRM webhook');
	let runs = 0;
	const deal = async (stage: string, previousStage: string) => {
		const answer = await call(url, { method: 'POST', headers: { 'content-type': 'application/json', ...entryHeaders(credential) }, body: payload(stage, previousStage) });
		expect(answer.status, answer.text).toBe(200);
		await finishedExecutions(env, id, ++runs);
	};
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

	const event = async (act: () => unknown) => {
		await act();
		await finishedExecutions(env, id, ++runs);
	};
	await event(() => env.sandbox.control.addTrackingEvent(orderId));
	await event(() => env.sandbox.control.addTrackingEvent(orderId, DELIVERED));
	await event(async () => env.sandbox.control.addReturnReceipt(orderId, { rrType: 'rr', pdf: await pdfOfSize(0, 'AR') }));
	const executions = await finishedExecutions(env, id, runs);
	for (const e of executions) expect(e.status, JSON.stringify(e.data?.resultData.error)).toBe('success');
	const notes = receivedAt(env, `/crm/api/deals/${dealId}/notes`).map((r) => String(r.json?.content));
	// The letter sent, its tracking code assigned (the service posts it), delivered, its return receipt.
	const tracking = String(env.sandbox.control.order(orderId)!.tracking);
	expect(notes).toEqual([
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
	const workflow = pointedAtReceiver(env, forTestEnvironment(example('crm-client-to-return-receipt.json')));
	const id = await importTriggerExample(env, workflow);
	const url = productionUrlOf(env, workflow, 'n8n-nodes-base.webhook', 'cliente-carta-registrada');
	await waitForWebhook(url);
	const clienteId = `C-${Date.now()}`;
	const record = `/crm/api/clientes/${clienteId}`;
	const ficha = clientRecord(sampleLetterUrl(env), clienteId);
	const credential = entryCredential('Postal Service examples: CRM webhook');
	let runs = 0;
	const crmCalls = async (posted: Record<string, string> = ficha) => {
		const answer = await call(url, { method: 'POST', headers: { 'content-type': 'application/json', ...entryHeaders(credential) }, body: JSON.stringify(posted) });
		expect(answer.status, answer.text).toBe(200);
		await finishedExecutions(env, id, ++runs);
	};
	const lettersOf = (client: string) => env.sandbox.control.orders().filter((o) => o.tag === `cliente-${client}`);
	const addressesOf = (client: string) =>
		env.sandbox.control
			.requests({ method: 'POST', path: '/api/v2/post' })
			.filter((r) => r.fields.tag === `cliente-${client}` && (r.fields.test ?? '0') === '0')
			.map((r) => [r.fields.name, r.fields.addr1, r.fields.street_number, r.fields.addr2, r.fields.zip, r.fields.city, r.fields.state]);
	const address = ['Marina Albuquerque', 'Rua da Bahia', '1148', 'Sala 3 - Centro', '30160011', 'Belo Horizonte', 'MG'];

	// Without the CRM's user and password: refused, nothing runs.
	const anonymous = await call(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ficha) });
	expect(anonymous.status).toBe(401);
	expect(await listExecutions(env.client, { workflowId: id })).toHaveLength(0);

	// The CRM calls twice for the same record and document: one letter, with the record's address.
	await crmCalls();
	await crmCalls();
	expect(lettersOf(clienteId)).toHaveLength(1);
	const [order] = lettersOf(clienteId);
	expect(order).toMatchObject({ shipType: 3, name: 'Marina Albuquerque' });
	expect(addressesOf(clienteId)).toEqual([address]);
	// A CRM that names the fields otherwise (the other names Client fields reads): the same letter for its record.
	const otherId = `${clienteId}-b`;
	const { nome, numero, complemento, bairro, cep } = ficha;
	await crmCalls({ id: otherId, nome, endereco: ficha.logradouro, numero, complemento, bairro, municipio: ficha.cidade, estado: ficha.uf, cep, pdf_url: ficha.documento_url });
	expect(addressesOf(otherId)).toEqual([address]);
	const orderId = String(order.id);
	expect((await dataTableRows(env.client, 'postal_client_letters')).filter((r) => r.cliente_id === clienteId)).toEqual([expect.objectContaining({ status: 'sent', order_id: orderId })]);

	const event = async (act: () => unknown) => {
		await act();
		await finishedExecutions(env, id, ++runs);
	};
	const receipt = await pdfOfSize(150_000, 'AR assinado');
	await event(() => env.sandbox.control.addTrackingEvent(orderId));
	await event(() => env.sandbox.control.addTrackingEvent(orderId, DELIVERED));
	await event(() => env.sandbox.control.addReturnReceipt(orderId, { rrType: 'rr', pdf: receipt }));
	for (const e of await finishedExecutions(env, id, runs)) expect(e.status, JSON.stringify(e.data?.resultData.error)).toBe('success');

	// On the record: the letter sent, its tracking code, its delivery, and its AR with the link to it.
	const link = `${env.sandbox.receiverUrl}${record}/anexos/AR-${orderId}.pdf`;
	const tracking = String(env.sandbox.control.order(orderId)!.tracking);
	const notes = receivedAt(env, `${record}/notas`, 'POST').map((r) => String(r.json?.texto));
	expect(notes).toEqual([
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
