// Examples started by a request: a webhook call, a form, a schedule; and the AI agent file as shipped.
import { expect } from 'vitest';

import { waitForWebhook } from '../../../scripts/workflows';
import { binaryContent, nodeOutput, type E2eEnvironment } from './environment';
import { example, finishedExecutions, importAndActivate, pointedAt, productionUrlOf, sampleLetterUrl, sha256, type StandIn } from './examples';
import { pdfOfSize } from './service';

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
