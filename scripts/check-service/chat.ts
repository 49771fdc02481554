/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
import { ASSUMED } from '../../nodes/PostalService/contract/assumptions';
import { PAYMENT_METHODS } from '../../nodes/PostalService/contract/lists';
import { TEMPLATE_STATUSES, valuesOf } from '../../nodes/PostalService/contract/lists';
import type { Answer, Client } from './client';
import type { Findings } from './findings';

interface Template {
	id: number;
	sender_id: number;
	status: string;
	sender_is_system: boolean;
	variable_names: string[];
}

const listOf = (a: Answer): Template[] | null => (a.status === 200 && Array.isArray(a.body?.data) ? a.body.data : null);

export async function checkBalanceAndLogo(client: Client, findings: Findings): Promise<void> {
	const balance = await client.send('GET', '/api/v2/balance/{token}');
	const envelopeA = balance.status === 200 && typeof balance.body?.status === 'number' && 'status_message' in (balance.body ?? {});
	findings.statement('balance: 200 in envelope A', envelopeA, client.show(balance));
	const data = balance.body?.data;
	const field = ASSUMED.balanceFields.balance;
	if (!envelopeA) findings.assumption('balanceFields', 'cannot tell', 'the balance was not read');
	else if (data && typeof data === 'object' && Number.isFinite(Number(data[field])) && data[field] !== null) findings.assumption('balanceFields', 'holds', `data.${field} = ${data[field]}`);
	else findings.assumption('balanceFields', 'differs', `data is ${client.show({ status: 200, body: data })}`);

	const token = client.target.token;
	const styles: Array<[string, { headers?: Record<string, string>; query?: Record<string, string> }]> = [
		['header securityToken', { headers: { securityToken: token } }],
		['Authorization: Bearer', { headers: { authorization: `Bearer ${token}` } }],
		['query userSecurityToken', { query: { userSecurityToken: token } }],
	];
	for (const [style, input] of styles) {
		const logo = await client.send('GET', '/api/v2/logo', input);
		const ok = logo.status === 200 && logo.body?.status === 'success' && typeof logo.body?.data?.logo_url === 'string' && !('request_id' in logo.body);
		findings.statement(`logo by ${style}: envelope B, logo_url`, ok, client.show(logo));
	}
}

/** Templates: each assumed query parameter must narrow the list the way its name says. */
export async function checkTemplates(client: Client, findings: Findings): Promise<Template[]> {
	const q = ASSUMED.templatesQuery;
	const all = await client.send('GET', '/api/chat/v1/templates/get', { basic: true });
	const templates = listOf(all);
	const b = all.body ?? {};
	findings.statement('templates: envelope B with count', !!templates && b.code === 200 && typeof b.count === 'number' && typeof b.request_id === 'string', client.show(all));
	if (!templates || templates.length === 0) {
		findings.assumption('templatesQuery', 'cannot tell', 'the account has no template to filter', 'status');
		findings.assumption('templatesQuery', 'cannot tell', 'the account has no template to filter', 'systemSenderOnly');
		return templates ?? [];
	}
	const wrong: string[] = [];
	let narrowed = false;
	for (const status of valuesOf(TEMPLATE_STATUSES)) {
		const answer = await client.send('GET', '/api/chat/v1/templates/get', { basic: true, query: { [q.status]: status } });
		const list = listOf(answer);
		if (!list) wrong.push(`${q.status}=${status}: ${client.show(answer)}`);
		else if (list.some((t) => t.status !== status)) wrong.push(`${q.status}=${status} returned statuses ${[...new Set(list.map((t) => t.status))].join(', ')}`);
		else if (list.length < templates.length) narrowed = true;
	}
	if (wrong.length > 0) findings.assumption('templatesQuery', 'differs', `${wrong[0]}${wrong.length > 1 ? ` (and ${wrong.length - 1} other values alike)` : ''}`, 'status');
	else findings.assumption('templatesQuery', narrowed ? 'holds' : 'cannot tell', narrowed ? 'each status value returned only its own templates' : 'every template has the same status', 'status');

	const system = await client.send('GET', '/api/chat/v1/templates/get', { basic: true, query: { [q.systemSenderOnly]: '1' } });
	const systemList = listOf(system);
	const others = templates.filter((t) => !t.sender_is_system).length;
	if (!systemList) findings.assumption('templatesQuery', 'differs', `${q.systemSenderOnly}=1: ${client.show(system)}`, 'systemSenderOnly');
	else if (systemList.some((t) => !t.sender_is_system)) findings.assumption('templatesQuery', 'differs', `${q.systemSenderOnly}=1 returned ${systemList.filter((t) => !t.sender_is_system).length} of ${others} templates of other senders`, 'systemSenderOnly');
	else if (others === 0) findings.assumption('templatesQuery', 'cannot tell', 'every template belongs to the system sender', 'systemSenderOnly');
	else findings.assumption('templatesQuery', 'holds', `${q.systemSenderOnly}=1 left out the ${others} templates of other senders`, 'systemSenderOnly');
	return templates;
}

export async function checkSenders(client: Client, findings: Findings): Promise<void> {
	const answer = await client.send('GET', '/api/chat/v1/senders/get', { basic: true });
	findings.statement('sender list exists (HTTP Basic)', answer.status === 200, client.show(answer));
	const data = answer.body?.data;
	const list: Array<Record<string, unknown>> | null = Array.isArray(data) ? data : Array.isArray(data?.data) ? data.data : null;
	const names = Object.values(ASSUMED.chatSenderFields);
	if (answer.status !== 200 || !list) findings.assumption('chatSenderFields', list ? 'cannot tell' : 'differs', `no list in data: ${client.show(answer)}`);
	else if (list.length === 0) findings.assumption('chatSenderFields', 'cannot tell', 'the account has no sender');
	else if (list.every((s) => names.every((n) => n in s))) findings.assumption('chatSenderFields', 'holds', `${list.length} senders with ${names.join(', ')}`);
	else findings.assumption('chatSenderFields', 'differs', `a sender has ${Object.keys(list[0]).join(', ')}`);
}

/** Only with --spend-one-chat-message: one template message to an allow-listed number, then a reprocess (no_change). */
export async function checkChatSend(client: Client, findings: Findings, templates: Template[], phone: string | undefined): Promise<void> {
	const keys = ['chatSend', 'chatPaymentMethods', 'chatProcessResultPath'] as const;
	if (!phone) {
		for (const key of keys) findings.assumption(key, 'cannot tell', 'needs one chat message: run with --spend-one-chat-message=<allow-listed number>');
		return;
	}
	const template = templates.find((t) => t.status === 'approved');
	if (!template) {
		for (const key of keys) findings.assumption(key, 'cannot tell', 'the account has no approved template');
		return;
	}
	const n = ASSUMED.chatSend;
	const body: Record<string, unknown> = {
		[n.phone]: phone,
		[n.templateId]: template.id,
		[n.senderId]: template.sender_id,
		[n.variables]: Object.fromEntries((template.variable_names ?? []).map((name) => [name, 'teste'])),
	};
	const first = await client.send('POST', '/api/chat/v1/post', { basic: true, json: { ...body, [n.paymentMethod]: PAYMENT_METHODS[0].value } });
	// Refused in the service's own envelope (so no message was made): once more without the payment
	// method. After any other failure (a gateway's 502, a dropped answer) the message may exist: never again.
	const refused = first.status >= 400 && first.status < 500 && first.body?.status === first.status && 'status_message' in first.body;
	const sent = first.status === 200 || !refused ? first : await client.send('POST', '/api/chat/v1/post', { basic: true, json: body });
	const accepted = sent.status === 200 && Number(sent.body?.data?.template_id) === template.id;
	findings.statement('chat message: accepted as processing', sent.status === 200 ? sent.body?.data?.status === 'processing' : null, client.show(sent));
	if (!accepted) {
		findings.assumption('chatSend', 'differs', `the message was refused: ${client.show(sent)}`);
		findings.assumption('chatPaymentMethods', 'cannot tell', 'no message was accepted');
		findings.assumption('chatProcessResultPath', 'cannot tell', 'no message was accepted');
		return;
	}
	findings.assumption('chatSend', 'holds', `accepted as template ${template.id}, sender ${sent.body.data.sender_id}: ${client.show(sent)}`);
	if (first.status !== 200) findings.assumption('chatPaymentMethods', 'differs', `${n.paymentMethod}=${PAYMENT_METHODS[0].value} refused: ${client.show(first)}`);
	else findings.assumption('chatPaymentMethods', sent.body.data.paymentMethod === PAYMENT_METHODS[0].value ? 'holds' : 'differs', `paymentMethod in the answer: ${sent.body.data.paymentMethod}`);

	const reprocess = await client.send('POST', '/api/chat/v1/process', { basic: true, json: { message_id: sent.body.data.message_id } });
	let value: unknown = reprocess.body;
	for (const key of ASSUMED.chatProcessResultPath) value = (value as Record<string, unknown> | undefined)?.[key];
	if (reprocess.status !== 200) findings.assumption('chatProcessResultPath', 'cannot tell', `reprocess refused: ${client.show(reprocess)}`);
	else findings.assumption('chatProcessResultPath', value === 'no_change' ? 'holds' : 'differs', `reprocess of a message being processed: ${client.show(reprocess)}`);
}
