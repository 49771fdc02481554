/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
// Examples started otherwise than by a webhook call or an event: a form, a schedule; and the Google
// Sheets mail merge, whose Sheets nodes stand in for a spreadsheet here. The AI agent's are in exampleAgent.ts.
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { expect } from 'vitest';

import { startSandbox } from '../../../sandbox';
import { dataTableRows, examplesDir, upsertCredential, type StoredCredential, type WorkflowFile, type WorkflowNode } from '../../../scripts/dev/workflows';
import { listExecutions, type E2eEnvironment } from './environment';
import { parseCsv } from './exampleRequests';
import {
	call,
	creates,
	example,
	finishedExecutions,
	importAndActivate,
	hasDataTables,
	importExample,
	pointedAtReceiver,
	receivedAt,
	refusedWithoutCredential,
	sampleLetterUrl,
	sha256,
	succeeded,
} from './examples';
import { pdfOfSize } from './service';

/** A copy whose schedules fire every 10 seconds, so that a run comes now. */
const soon = (workflow: WorkflowFile): WorkflowFile => ({
	...workflow,
	nodes: workflow.nodes.map((n) =>
		n.type === 'n8n-nodes-base.scheduleTrigger' ? { ...n, parameters: { rule: { interval: [{ field: 'seconds', secondsInterval: 10 }] } } } : n,
	),
});

/**
 * Imports a scheduled example, lets its schedule run it, stops the schedule and waits for every run
 * it started to end. A second run may have started before the stop: the cases assert what holds
 * whatever the number of runs (each example is idempotent), never how many there were.
 */
export async function runScheduled(env: E2eEnvironment, workflow: WorkflowFile, credentials = env.credentials) {
	const id = await importAndActivate(env, soon(workflow), credentials);
	await finishedExecutions(env, id, 1);
	await env.client.api('POST', `/workflows/${id}/deactivate`);
	return { id, executions: await succeeded(env, id, (await listExecutions(env.client, { workflowId: id })).length) };
}

export async function balanceAlert(env: E2eEnvironment): Promise<void> {
	const workflow = pointedAtReceiver(env, example('balance-alert.json'));
	const { control } = env.sandbox;
	// The team chat is shared with other examples' alerts: this case reads the ones that came during its runs.
	const alerts = () => receivedAt(env, '/chat/hooks/postal-alerts', 'POST').map((r) => String(r.json?.text));
	const balance = control.balance();
	const before = alerts().length;
	control.setBalance(20);
	try {
		await runScheduled(env, workflow);
	} finally {
		control.setBalance(balance);
	}
	const low = alerts().slice(before);
	expect(low.length).toBeGreaterThan(0);
	for (const text of low) expect(text).toBe('Postal Service credits are low: R$ 20 left. Top up in the account panel before the next letters fail.');

	// A service whose balance answer names the field otherwise: the alert says so instead of staying silent.
	const renamed = await startSandbox({ port: 0, token: env.token, quiet: true, renamedAssumptions: ['balanceFields'], balance: 500 });
	let account: StoredCredential | undefined;
	try {
		account = await upsertCredential(env.client, { name: 'Postal Service account (balance named otherwise)', type: 'postalServiceApi', data: { baseUrl: renamed.baseUrl, securityToken: env.token } });
		const seen = alerts().length;
		await runScheduled(env, { ...workflow, name: `${workflow.name} (balance named otherwise)` }, [account, ...env.credentials.filter((c) => c.type !== 'postalServiceApi')]);
		const unreadable = alerts().slice(seen);
		expect(unreadable.length).toBeGreaterThan(0);
		for (const text of unreadable) expect(text).toMatch(/could not be read.*saldo, currency/);
	} finally {
		await renamed.stop();
		// A user has one account credential, which n8n picks for a new node: the walkthrough's case relies on it.
		if (account) await env.client.api('DELETE', `/credentials/${account.id}`).catch(() => undefined);
	}
}

/**
 * The form as a browser submits it: the fields by position, the PDF as a file; then the page the
 * form shows once the workflow reaches a Form ending (the form's script polls for it and loads it).
 */
async function submitForm(url: string, values: string[], pdf: Buffer, headers: Record<string, string>) {
	const posted = await call(url, { method: 'POST', body: formBody(values, pdf), headers });
	expect(posted.status, posted.text).toBe(200);
	const waiting = String(posted.json?.formWaitingUrl ?? '');
	expect(waiting, posted.text).toMatch(/form-waiting/);
	const status = new URL(waiting);
	status.pathname += '/n8n-execution-status';
	await expect.poll(async () => (await call(status.toString(), {})).text.trim(), { timeout: 60_000, interval: 250 }).toBe('form-waiting');
	const page = await call(waiting, {});
	expect(page.status).toBe(200);
	return page.text;
}

/** The form's fields by position, the PDF (when there is one) as a file. */
function formBody(values: string[], pdf?: Buffer) {
	const form = new FormData();
	values.forEach((value, i) => form.set(`field-${i}`, value));
	if (pdf) form.set(`field-${values.length}`, new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }), 'carta.pdf');
	return form;
}

/** The letters the service created for a recipient. */
const lettersTo = (env: E2eEnvironment, name: string) => env.sandbox.control.orders().filter((o) => o.name === name);

/**
 * Releases before n8n 1.113 have no data tables, which the form example keys its letters with: there
 * (the smoke subset) the same form and Send letter send a letter with its PDF, without the key.
 */
function withoutKey(shipped: WorkflowFile): WorkflowFile {
	const kept = ['Letter form', 'Send letter', 'Sent?', 'Letter sent', 'Letter not confirmed'];
	return {
		...shipped,
		name: `${shipped.name} (without its key)`,
		nodes: shipped.nodes
			.filter((n) => kept.includes(n.name))
			.map((n) => {
				if (n.name === 'Send letter') return { ...n, parameters: { ...n.parameters, tag: '=form-{{ $execution.id }}' } };
				if (n.name === 'Letter not confirmed') return { ...n, parameters: { ...n.parameters, completionMessage: "=Protocolo: form-{{ $execution.id }}. Motivo: {{ $('Send letter').first().json.error }}" } };
				return n;
			}),
		connections: {
			'Letter form': { main: [[{ node: 'Send letter', type: 'main', index: 0 }]] },
			'Send letter': { main: [[{ node: 'Sent?', type: 'main', index: 0 }]] },
			'Sent?': { main: [[{ node: 'Letter sent', type: 'main', index: 0 }], [{ node: 'Letter not confirmed', type: 'main', index: 0 }]] },
		},
	};
}

/**
 * The form's credential asked for, then a first letter sent through it: the page says so, with the
 * order id and the protocol (the letter's tag), and the service took the PDF once. Where n8n has data
 * tables, the form as shipped then sends nothing twice, and a refused letter leaves its key free.
 */
export async function formSendsLetter(env: E2eEnvironment): Promise<void> {
	const keyed = await hasDataTables(env);
	const entry = await importExample(env, keyed ? example('form-send-letter.json') : withoutKey(example('form-send-letter.json')));
	const { url, headers: auth } = entry;
	// A recipient of this run only: the key is the recipient and the PDF, kept in a table that outlives a case.
	const name = `Igor Nunes ${Date.now().toString(36)}`;
	const values = [name, 'Rua XV de Novembro', '300', 'Sala 4', '80020-310', 'Curitiba', 'PR'];
	// Without the user and password the form neither shows nor takes a letter; with them it shows the Portuguese form.
	expect((await call(url, {})).status).toBe(401);
	await refusedWithoutCredential(env, entry, () => ({ method: 'POST', body: formBody(values) }));
	const page = await call(url, { headers: auth });
	for (const label of ['Enviar carta registrada', 'Nome do destinatário', 'Rua', 'Número', 'Complemento', 'CEP', 'Cidade', 'UF', 'Carta em PDF', 'Enviar']) expect(page.text).toContain(label);
	const pdf = await pdfOfSize(0, 'Carta pelo formulário');
	const sent = await submitForm(url, values, pdf, auth);
	expect(sent).toContain('Carta enviada');
	const [, orderId] = /Número do pedido: (\d+)/.exec(sent) ?? [];
	const [, tag] = /Protocolo: (form-\d+)/.exec(sent) ?? [];
	expect(env.sandbox.control.order(orderId)).toMatchObject({ shipType: 2, name, tag, zip: '80020310' });
	expect(creates(env, tag).map((r) => r.files.map((f) => f.sha256))).toEqual([[sha256(pdf)]]);
	if (!keyed) return;

	const keyOf = async (orderIdOf: string) => (await dataTableRows(env.client, 'postal_form_letters')).filter((r) => r.order_id === orderIdOf);
	expect(await keyOf(orderId)).toEqual([expect.objectContaining({ status: 'sent', tag })]);

	// The customer submits the same letter again, typed a little otherwise (spaces, case, the CEP's dash):
	// the page names the first letter, and nothing more is sent.
	for (const again of [values, values.map((v) => (v === 'Curitiba' ? ' CURITIBA ' : v === '80020-310' ? '80020310' : v))]) {
		const page = await submitForm(url, again, pdf, auth);
		expect(page).toContain('Carta já enviada');
		expect(page).toContain(`Número do pedido: ${orderId}.`);
		expect(page).toContain(`Protocolo: ${tag}.`);
	}
	expect(lettersTo(env, name)).toHaveLength(1);
	expect(creates(env, tag)).toHaveLength(1);
	expect(await keyOf(orderId)).toHaveLength(1);

	// Another PDF to the same recipient is another letter.
	const other = await submitForm(url, values, await pdfOfSize(0, 'Segunda carta pelo formulário'), auth);
	expect(other).toContain('Carta enviada');
	expect(lettersTo(env, name)).toHaveLength(2);

	// A letter the node refuses: the page says why and that nothing was sent; its key stays free, so
	// the corrected letter goes.
	const before = env.sandbox.control.orders().length;
	const wrongCep = values.map((v) => (v === '80020-310' ? '8002-310' : v));
	const third = await pdfOfSize(0, 'Terceira carta pelo formulário');
	const refused = await submitForm(url, wrongCep, third, auth);
	expect(refused).toContain('Carta não enviada');
	expect(refused).toContain('Nada foi enviado');
	expect(refused).toMatch(/Postal Code|8 digits/);
	expect(env.sandbox.control.orders()).toHaveLength(before);
	expect(await submitForm(url, values, third, auth)).toContain('Carta enviada');
	expect(lettersTo(env, name)).toHaveLength(3);
}

/**
 * The Google Sheets mail merge, its two Sheets nodes replaced by requests to the sandbox's receiver
 * (the sheet's rows PUT there and read back, its updates posted there and applied here), everything else as shipped.
 */
export async function sheetsMailMerge(env: E2eEnvironment): Promise<void> {
	const shipped = example('google-sheets-mail-merge.json');
	const pdf = sampleLetterUrl(env);
	const stamp = Date.now();
	const at = `/sheets/${stamp}`;
	// The mail merge's sample rows (the third one's postal code refused), and a fourth row not marked to send.
	const sample = parseCsv(readFileSync(path.join(examplesDir, 'mail-merge-sample.csv'), 'utf8'));
	const sheet: Array<Record<string, unknown>> = [...sample, { ...sample[0], name: 'Davi Lima' }].map((row, i) => ({ ...row, row_number: i + 2, reference: `S${stamp}-${i + 1}`, pdf_url: pdf, send: i < 3 ? 'yes' : 'no', status: '', order_id: '' }));
	// The receiver gives a PUT body back on a GET, as the sheet the read node reads.
	const serve = async () => expect((await call(`${env.sandbox.receiverUrl}${at}/rows`, { method: 'PUT', body: JSON.stringify(sheet), headers: { 'content-type': 'application/json' } })).status).toBe(200);
	// The updates the write-back node posted since the last look, applied to the sheet in their order.
	let applied = 0;
	const applyUpdates = () => {
		for (const { json } of receivedAt(env, `${at}/update`, 'POST').slice(applied)) Object.assign(sheet.find((r) => r.reference === json?.reference) ?? {}, json);
		applied = receivedAt(env, `${at}/update`, 'POST').length;
	};
	const url = `${env.sandbox.receiverUrl}${at}`;
	const workflow = { ...shipped, nodes: shipped.nodes.map((n) => (n.type === 'n8n-nodes-base.googleSheets' ? sheetNodeAt(n, url) : n)) };
	expect(workflow.nodes.filter((n) => n.type === 'n8n-nodes-base.googleSheets')).toEqual([]);
	const before = creates(env).length;

	// Each run of the schedule sends what is ready; runs that overlap (the schedule fires again while
	// one is sending) send nothing twice, so the sheet ends the same whatever the runs' order.
	await serve();
	await runScheduled(env, workflow);
	applyUpdates();
	for (const row of sheet.slice(0, 2)) {
		expect(['sent', 'already sent']).toContain(row.status);
		expect(env.sandbox.control.order(String(row.order_id))).toMatchObject({ tag: `sheet-${row.reference}`, name: row.name });
	}
	expect(sheet[2].status).toBe('refused');
	expect(String(sheet[2].reason)).toMatch(/Postal Code|8 digits/);
	expect(sheet[3].status).toBe('');
	expect(creates(env)).toHaveLength(before + 2);

	// The write-back of the first row lost (its status cleared again): the next run sends nothing
	// again, and writes the order id back.
	const orderId = sheet[0].order_id;
	Object.assign(sheet[0], { status: '', order_id: '' });
	await serve();
	await runScheduled(env, { ...workflow, name: `${workflow.name} (again)` });
	applyUpdates();
	expect(sheet[0]).toMatchObject({ status: 'already sent', order_id: orderId });
	expect(creates(env)).toHaveLength(before + 2);
	const rows = (await dataTableRows(env.client, 'postal_sheet_letters')).filter((r) => String(r.row_key).startsWith(`S${stamp}`));
	expect(rows.map((r) => [r.row_key, r.status]).sort()).toEqual([
		[`S${stamp}-1`, 'sent'],
		[`S${stamp}-2`, 'sent'],
	]);
}

/** A Google Sheets node as an HTTP Request to the sheet at that address, with the same name (so the same connections). */
function sheetNodeAt(node: WorkflowNode, url: string): WorkflowNode {
	const base = { name: node.name, id: node.id, position: node.position, type: 'n8n-nodes-base.httpRequest', typeVersion: 4.2 };
	if (node.parameters.operation === 'read') return { ...base, parameters: { url: `${url}/rows`, options: {} } };
	// The columns the Sheets node maps, each from its own expression.
	const columns = (node.parameters.columns as { value: Record<string, string> }).value;
	const body = Object.entries(columns)
		.map(([key, value]) => `${JSON.stringify(key)}: ${/^=\{\{(.*)\}\}$/s.exec(value)?.[1] ?? JSON.stringify(value)}`)
		.join(', ');
	return { ...base, parameters: { method: 'POST', url: `${url}/update`, sendBody: true, specifyBody: 'json', jsonBody: `={{ JSON.stringify({ ${body} }) }}`, options: {} } };
}
