import type { SandboxCore } from './core';
import { ControlError, findOrder } from './orders';
import { orderDetails } from './views';
import { textPdf } from './pdf';
import { DEMO_ADDRESS } from './state';

/** A registered letter with return receipt, so that every status, tracking event and receipt applies. */
const SAMPLE = {
	shipType: '3',
	name: 'Ana Souza',
	...DEMO_ADDRESS,
	tag: 'sample-letter',
};

/**
 * The panel's "Send a sample letter": posted to the sandbox's own create route with a generated
 * PDF, so it is created, priced and announced (order.created) exactly as one sent by the node.
 */
export async function sendSampleLetter(core: SandboxCore): Promise<Record<string, unknown>> {
	const form = new FormData();
	for (const [name, value] of Object.entries({ ...SAMPLE, userSecurityToken: core.settings.token })) form.append(name, value);
	const pdf = textPdf('Sample letter', ['Sent from the sandbox panel.', 'Move it through its statuses there.']);
	form.append('pdfFile', new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }), 'sample-letter.pdf');
	const response = await fetch(`${core.baseUrl}/api/v2/post`, { method: 'POST', body: form });
	const answer = (await response.json()) as { status_message?: string; data?: unknown };
	const order = typeof answer.data === 'string' ? findOrder(core, answer.data) : undefined;
	if (!order) throw new ControlError(`the create route refused the sample letter: ${answer.status_message ?? response.status}`);
	return orderDetails(order);
}
