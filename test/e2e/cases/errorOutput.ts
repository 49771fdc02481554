// On Error: Continue (using error output) in a real n8n: one request posts two letters, one the node
// refuses (its postal code belongs to another state) and one it sends; the refused one reaches the
// node on the error branch and the sent one the node on the success branch, as the execution that
// n8n's API returns shows. n8n 1.85.4 sent any failure with other keys than {error, message} down
// the success branch: this case runs in the smoke suite on that release too.
import { randomUUID } from 'node:crypto';

import { afterEach, describe, expect, it } from 'vitest';

import { waitForWebhook, type WorkflowFile } from '../../../scripts/dev/workflows';
import { getExecution, listExecutions, waitFor, type E2eEnvironment } from '../support/environment';
import { call } from '../support/exampleRequests';
import { importAndActivate, productionUrlOf, removeImported, sampleLetterUrl } from '../support/examples';

const NODE = 'Send letter';

function workflowFor(env: E2eEnvironment, path: string): WorkflowFile {
	const to = (node: string) => [{ node, type: 'main', index: 0 }];
	return {
		name: `Postal Service: error output (${path})`,
		nodes: [
			{
				name: 'Letters posted',
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2,
				position: [0, 0],
				webhookId: randomUUID(),
				parameters: { httpMethod: 'POST', path, responseMode: 'onReceived', options: {} },
			},
			{ name: 'One item per letter', type: 'n8n-nodes-base.splitOut', typeVersion: 1, position: [220, 0], parameters: { fieldToSplitOut: 'body.letters', options: {} } },
			{
				name: NODE,
				type: 'n8n-nodes-postal-service.postalService',
				typeVersion: 1,
				position: [440, 0],
				onError: 'continueErrorOutput',
				credentials: { postalServiceApi: { id: '', name: 'Postal Service account' } },
				parameters: {
					resource: 'order',
					operation: 'create',
					shipType: 2,
					recipientName: '={{ $json.name }}',
					recipientAddr1: 'Avenida Paulista',
					recipientStreetNumber: '1578',
					recipientZip: '={{ $json.zip }}',
					recipientCity: 'São Paulo',
					recipientState: '={{ $json.state }}',
					recipientCountry: 'Brasil',
					pdfSource: 'url',
					pdfUrl: sampleLetterUrl(env),
					tag: '={{ $json.ref }}',
				},
			},
			{ name: 'Record as sent', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [660, -100], parameters: {} },
			{ name: 'Alert: refused', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [660, 100], parameters: {} },
		],
		connections: {
			'Letters posted': { main: [to('One item per letter')] },
			'One item per letter': { main: [to(NODE)] },
			[NODE]: { main: [to('Record as sent'), to('Alert: refused')] },
		},
	};
}

export function errorOutputCases(env: () => E2eEnvironment) {
	describe('On Error: Continue (using error output)', () => {
		afterEach(async () => {
			if (env()) await removeImported(env());
		});

		it('a refused letter goes down the error output, a sent one down the success output, read from the execution', async () => {
			const e = env();
			const path = `postal-error-output-${randomUUID().slice(0, 8)}`;
			const workflow = workflowFor(e, path);
			const id = await importAndActivate(e, workflow);
			const url = productionUrlOf(e, workflow, 'n8n-nodes-base.webhook', path);
			await waitForWebhook(url);
			const ref = `error-output-${Date.now()}`;
			const letters = [
				// 20040-020 is a postal code of Rio de Janeiro: the node refuses it for a letter to SP.
				{ ref: `${ref}-refused`, name: 'Rui Barbosa', zip: '20040-020', state: 'SP' },
				{ ref: `${ref}-sent`, name: 'Ana Pereira', zip: '01310-200', state: 'SP' },
			];
			const answer = await call(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ letters }) });
			expect(answer.status, answer.text).toBe(200);

			// Polled by the execution itself: n8n 1.85.4 lists an execution as done before its run data is saved.
			const execution = await waitFor(
				async () => {
					const [listed] = await listExecutions(e.client, { workflowId: id });
					const read = listed && (await getExecution(e.client, listed.id));
					return read && !['new', 'running', 'waiting'].includes(read.status) ? read : undefined;
				},
				'the execution of the two letters',
				60_000,
			);
			expect(execution.status, JSON.stringify(execution.data?.resultData.error)).toBe('success');
			const runData = execution.data!.resultData.runData;
			const [success, failure] = runData[NODE][0].data!.main;
			expect(success?.map((item) => item.json)).toEqual([expect.objectContaining({ id: expect.any(String), tag: letters[1].ref })]);
			expect(failure?.map((item) => item.json)).toEqual([
				expect.objectContaining({ ref: letters[0].ref, error: expect.stringMatching(/postal code 20040020 belongs to RJ/) }),
			]);
			// The node after each branch ran with that branch's letter, and only with it.
			expect(runData['Record as sent'][0].data!.main[0]!.map((item) => item.json.tag)).toEqual([letters[1].ref]);
			expect(runData['Alert: refused'][0].data!.main[0]!.map((item) => item.json.ref)).toEqual([letters[0].ref]);

			// The service got the sent letter alone.
			const orders = e.sandbox.control.orders().filter((order) => String(order.tag ?? '').startsWith(ref));
			expect(orders.map((order) => order.tag)).toEqual([letters[1].ref]);
			expect(String(orders[0].id)).toBe(success![0].json.id);
			expect(JSON.stringify(execution)).not.toContain(e.token);
		});
	});
}
