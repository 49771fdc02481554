// A sample letter: one A4 page the sandbox serves, so that a first letter needs no file of one's own
// (the sandbox downloads PDF URLs from 127.0.0.1 only, and n8n reads few folders), and the one the
// panel's "Send a sample letter" posts.
import type { SandboxCore } from './core';
import type { Reply } from './http';
import { ControlError, findOrder } from './orders';
import { textPdf } from './pdf';
import { DEMO_ADDRESS } from './state';
import { orderDetails } from './views';

export const SAMPLE_LETTER_PATH = '/samples/letter.pdf';

const SAMPLE_LETTER = textPdf('Carta de exemplo / Sample letter', [
	'Prezada Ana Pereira,',
	'',
	'esta e uma carta de exemplo enviada pelo sandbox do servico postal.',
	'This is a sample letter, sent through the postal-mail service sandbox.',
	'',
	'Atenciosamente,',
	'n8n-nodes-postal-service',
]);

export function sampleLetter(): Reply {
	return { status: 200, body: null, raw: SAMPLE_LETTER, headers: { 'content-type': 'application/pdf', 'content-disposition': 'inline; filename="letter.pdf"' } };
}

/** A registered letter with return receipt, so that every status, tracking event and receipt applies. */
const SAMPLE = {
	shipType: '3',
	name: 'Ana Souza',
	...DEMO_ADDRESS,
	tag: 'sample-letter',
};

/**
 * The panel's "Send a sample letter": posted to the sandbox's own create route with the sample PDF,
 * so it is created, priced and announced (order.created) exactly as one sent by the node.
 */
export async function sendSampleLetter(core: SandboxCore): Promise<Record<string, unknown>> {
	const form = new FormData();
	for (const [name, value] of Object.entries({ ...SAMPLE, userSecurityToken: core.settings.token })) form.append(name, value);
	form.append('pdfFile', new Blob([new Uint8Array(SAMPLE_LETTER)], { type: 'application/pdf' }), 'sample-letter.pdf');
	const response = await fetch(`${core.baseUrl}/api/v2/post`, { method: 'POST', body: form });
	const answer = (await response.json()) as { status_message?: string; data?: unknown };
	const order = typeof answer.data === 'string' ? findOrder(core, answer.data) : undefined;
	if (!order) throw new ControlError(`the create route refused the sample letter: ${answer.status_message ?? response.status}`);
	return orderDetails(order);
}
