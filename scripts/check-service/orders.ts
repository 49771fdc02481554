import { ASSUMED } from '../../nodes/PostalService/contract/assumptions';
import { SHIP_TYPES } from '../../nodes/PostalService/contract/lists';
import { textPdf } from '../../sandbox/pdf';
import { SAMPLE_RECIPIENT } from '../../sandbox/recipient';
import type { Answer, Client } from './client';
import type { Findings } from './findings';

const PDF_SHIP_TYPES = [1, 2, 3, 5, 6, 7];
/** An id no account has: long, and not a visual id the service hands out. */
export const UNKNOWN_ID = '999999999999';

const RECIPIENT = { ...SAMPLE_RECIPIENT, name: 'Ana Souza' };
const SENDER = { name_sender: 'Loja Exemplo', addr1_sender: 'Rua do Ouvidor', street_number_sender: '50', zip_sender: '20040-030', city_sender: 'Rio de Janeiro' };

/** POST /api/v2/post with test=1: validated and priced, nothing created, nothing spent. */
function price(client: Client, shipType: number, extra: Record<string, string> = {}): Promise<Answer> {
	const form = new FormData();
	const fields: Record<string, string> = { userSecurityToken: client.target.token, test: '1', shipType: String(shipType), ...RECIPIENT };
	if (shipType === 4) Object.assign(fields, { telegram_msg: 'Mensagem de teste do check-service.', telegram_post_dated: '0', telegram_sender_copy: '0', telegram_delivery_confirmation: '0' });
	if (shipType >= 8) fields.ecarta_msg = 'Mensagem de teste do check-service.';
	if (shipType === 6 || shipType === 7) fields.virtualbox = '1';
	Object.assign(fields, extra);
	for (const [name, value] of Object.entries(fields)) form.append(name, value);
	if (PDF_SHIP_TYPES.includes(shipType)) {
		const pdf = textPdf('check-service', ['A generated one-page document, priced with test=1 and never sent.']);
		form.append('pdfFile', new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }), 'check-service.pdf');
	}
	return client.send('POST', '/api/v2/post', { form });
}

const priced = (a: Answer) => a.status === 200 && typeof a.body?.data?.value === 'number';

export async function checkPrices(client: Client, findings: Findings): Promise<void> {
	for (const { value, name } of SHIP_TYPES) {
		const answer = await price(client, value);
		findings.statement(`Get Price, shipType ${value} (${name}): data {value}`, priced(answer), client.show(answer));
	}
	const virtualbox = await price(client, 6, { virtualbox: 'true' });
	findings.statement('Get Price: virtualbox accepts `true`', priced(virtualbox), client.show(virtualbox));
	const duplex = await price(client, 1, { duplex_printing: 'false' });
	findings.statement('Get Price: duplex_printing accepts `false`', priced(duplex), client.show(duplex));

	// A sender without country whose state does not match its postal code: refused only if it is checked as Brazilian.
	const control = await price(client, 1, { ...SENDER, state_sender: 'RJ' });
	const mismatch = await price(client, 1, { ...SENDER, state_sender: 'SP' });
	if (!priced(control)) {
		findings.assumption('senderWithoutCountryIsBrazilian', 'cannot tell', `a sender in Rio de Janeiro without country was not priced: ${client.show(control)}`);
	} else if (mismatch.status >= 400 && mismatch.status < 500) {
		findings.assumption('senderWithoutCountryIsBrazilian', 'holds', `state SP with postal code 20040-030 refused: ${client.show(mismatch)}`);
	} else {
		findings.assumption('senderWithoutCountryIsBrazilian', 'differs', `state SP with postal code 20040-030 and no country was not checked: ${client.show(mismatch)}`);
	}
}

const refused = (a: Answer) => a.status >= 400 && a.status < 500 && a.body?.data === null && typeof a.body?.status_message === 'string';
const sameRefusal = (a: Answer, b: Answer, idA: string, idB: string) =>
	a.status === b.status && String(a.body?.status_message).split(idA).join('#') === String(b.body?.status_message).split(idB).join('#');

/** Read, download and cancel of an order that does not exist, under a letter id and an `E…` id. */
export async function checkUnknownOrder(client: Client, findings: Findings): Promise<void> {
	const emailId = `E${UNKNOWN_ID}`;
	const routes: Array<[string, string, string]> = [
		['read', 'GET', '/api/v2/get/{token}/{id}'],
		['download', 'GET', '/api/v2/download/{token}/{id}/pdf'],
		['cancel', 'DELETE', '/api/v2/delete/{token}/{id}'],
	];
	const differences: string[] = [];
	const evidence: string[] = [];
	let comparable = true;
	for (const [what, method, path] of routes) {
		const letter = await client.send(method, path.replace('{id}', UNKNOWN_ID));
		findings.statement(`${what} of an unknown order: 4xx, envelope A`, refused(letter), client.show(letter));
		const email = await client.send(method, path.replace('{id}', emailId));
		if (!refused(letter)) comparable = false;
		else if (!sameRefusal(letter, email, UNKNOWN_ID, emailId)) differences.push(`${what}: ${client.show(email)}`);
		else evidence.push(`${what}: ${email.status} ${String(email.body?.status_message)}`);
	}
	if (differences.length > 0) {
		findings.assumption('emailOnLetterRoutes', 'differs', `an unknown E… id is answered otherwise than an unknown letter id; ${differences[0]}${differences.length > 1 ? ` (${differences.length - 1} more routes alike)` : ''}`);
	} else if (!comparable) {
		findings.assumption('emailOnLetterRoutes', 'cannot tell', 'an unknown letter id was not refused as the interface says');
	} else {
		findings.assumption('emailOnLetterRoutes', 'holds', `an unknown E… id gets the letter routes' own refusal (${evidence.join('; ')})`);
	}

	const auth = { securityToken: client.target.token };
	const withId = await client.send('GET', '/api/receipts/v1/get', { headers: auth, query: { [ASSUMED.receiptOrderIdParam]: UNKNOWN_ID } });
	const without = await client.send('GET', '/api/receipts/v1/get', { headers: auth });
	findings.statement('receipt: header securityToken authenticates', withId.status !== 401 && withId.status !== 403, client.show(withId));
	if (JSON.stringify(withId) === JSON.stringify(without)) {
		findings.assumption('receiptOrderIdParam', 'differs', `the same answer with and without ${ASSUMED.receiptOrderIdParam}: ${client.show(withId)}`);
	} else {
		findings.assumption('receiptOrderIdParam', 'holds', `with ${ASSUMED.receiptOrderIdParam}: ${client.show(withId)}; without: ${client.show(without)}`);
	}

	const favorite = await client.send('PUT', '/api/v2/favorites', { query: { userSecurityToken: client.target.token }, json: { id: Number(UNKNOWN_ID) } });
	findings.statement('favorites, unknown id: envelope C, success false', favorite.body?.success === false && typeof favorite.body?.message === 'string', client.show(favorite));
	findings.assumption('favoriteFields', 'cannot tell', 'needs a change to a saved contact, which this check does not make; try Saved Contact > Update on a test contact');
	for (const key of ['cancelForceParam', 'cancelReasonParam'] as const) {
		findings.assumption(key, 'cannot tell', 'needs an order this check may cancel; try Order > Cancel on a test-environment order');
	}
}

/** Read-only questions about an order the account already has (`--order`). */
export async function checkKnownOrder(client: Client, findings: Findings, orderId: string | undefined): Promise<void> {
	if (!orderId) {
		const why = 'give --order=<id> of an existing order (one with a return receipt) to check it';
		findings.assumption('receiptFileFields', 'cannot tell', why);
		findings.assumption('downloadFileNameParam', 'cannot tell', why);
		return;
	}
	const id = encodeURIComponent(orderId);
	const receipt = await client.send('GET', '/api/receipts/v1/get', { headers: { securityToken: client.target.token }, query: { [ASSUMED.receiptOrderIdParam]: orderId } });
	const data = receipt.body?.data;
	if (receipt.status !== 200 || !data || typeof data !== 'object') {
		findings.assumption('receiptFileFields', 'cannot tell', `the receipt was not read: ${client.show(receipt)}`);
	} else {
		const found = ASSUMED.receiptFileFields.base64.some((name) => typeof data[name] === 'string');
		findings.assumption('receiptFileFields', found ? 'holds' : 'differs', `data keys: ${Object.keys(data).join(', ')}`);
	}

	const order = await client.send('GET', `/api/v2/get/{token}/${id}`);
	const files: Array<{ name: string; type: string }> = Array.isArray(order.body?.data?.files) ? order.body.data.files : [];
	const rr = files.find((f) => f.type === 'rr' || f.type === 'rr_electronic');
	if (!rr) {
		findings.assumption('downloadFileNameParam', 'cannot tell', `order ${orderId} has no return receipt (${client.show(order)})`);
		return;
	}
	const path = `/api/v2/download/{token}/${id}/${rr.type}`;
	const named = await client.send('GET', path, { query: { [ASSUMED.downloadFileNameParam]: rr.name } });
	const missing = await client.send('GET', path, { query: { [ASSUMED.downloadFileNameParam]: 'no-such-file-check-service.pdf' } });
	if (named.status !== 200) {
		findings.assumption('downloadFileNameParam', 'cannot tell', `the return receipt was not downloaded: ${client.show(named)}`);
	} else if (missing.status === 200) {
		findings.assumption('downloadFileNameParam', 'differs', `a file name that does not exist was ignored: ${client.show(missing)}`);
	} else {
		findings.assumption('downloadFileNameParam', 'holds', `a file name that does not exist is refused: ${client.show(missing)}`);
	}
}
