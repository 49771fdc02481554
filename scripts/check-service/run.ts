import { ASSUMPTIONS } from './assumptions';
import { checkBalanceAndLogo, checkChatSend, checkSenders, checkTemplates } from './chat';
import { Client, type Target } from './client';
import { Findings, type Finding } from './findings';
import { checkKnownOrder, checkPrices, checkUnknownOrder } from './orders';
import { serviceUrl } from '../../nodes/PostalService/transport/url';

export interface CheckOptions {
	/** An order the account already has: read, its receipt and return receipt downloaded. */
	orderId?: string;
	/** Spends one chat message to this allow-listed number. */
	spendChatMessageTo?: string;
}

/** Every call that creates and spends nothing (and the one chat message, if asked), then the findings. */
export async function checkService(target: Target, options: CheckOptions = {}): Promise<{ findings: Finding[]; calls: string[] }> {
	// The node's own reading of the Base URL: one it would refuse is refused here, naming the field, before any call.
	serviceUrl(target.baseUrl, '');
	const client = new Client(target);
	const findings = new Findings((text) => client.redact(text));
	await checkPrices(client, findings);
	await checkBalanceAndLogo(client, findings);
	const templates = await checkTemplates(client, findings);
	await checkSenders(client, findings);
	await checkUnknownOrder(client, findings);
	await checkKnownOrder(client, findings, options.orderId);
	await checkChatSend(client, findings, templates, options.spendChatMessageTo);
	const order = ASSUMPTIONS.map((a) => a.key);
	const rank = (f: Finding) => (f.kind === 'assumption' ? order.indexOf(f.key!) : order.length);
	return { findings: [...findings.list].sort((a, b) => rank(a) - rank(b)), calls: client.calls };
}

/**
 * The sandbox, a local address or the test environment (homolog), read from the whole address the
 * node asks (host and path, as in https://api.example.com/homolog-api); anything else is production.
 */
export function isTestAddress(baseUrl: string): boolean {
	const url = new URL(serviceUrl(baseUrl, '/'));
	const host = url.hostname.toLowerCase();
	return ['127.0.0.1', 'localhost', '[::1]', '::1'].includes(host) || /homolog|sandbox/i.test(`${host}${url.pathname}`);
}
