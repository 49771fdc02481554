/**
 * n8n's Retry On Fail runs the node's execute() again over every item after a failure, which would
 * send again the items that already went through. Every operation that changes something refuses
 * it before anything is sent; reads keep it. The node itself repeats a write only when the
 * connection was never made.
 */
import { describe, expect, it } from 'vitest';

import { RESOURCES } from '../../nodes/PostalService/actions/resources';
import type { TestItem } from '../harness/engine';
import { closedPort } from '../harness/httpServer';
import { CHAT_MESSAGE, LETTER, pdfItem, run, useSandbox } from './fixture';

const ctx = useSandbox();
const RETRY = { maxTries: 3, waitBetweenTries: 1 };

/** Valid parameters of each operation that writes: a new one without an entry here fails the test. */
const WRITES: Record<string, { parameters: Record<string, unknown>; items?: () => Promise<TestItem[]> }> = {
	'order.create': { parameters: LETTER, items: async () => [await pdfItem(1)] },
	'order.cancel': { parameters: { resource: 'order', operation: 'cancel', orderId: '100001' } },
	'registeredEmail.cancel': { parameters: { resource: 'registeredEmail', operation: 'cancel', orderId: 'E5001' } },
	'chatMessage.send': { parameters: CHAT_MESSAGE },
	'chatMessage.reprocess': { parameters: { resource: 'chatMessage', operation: 'reprocess', messageId: '9001' } },
	'savedContact.update': { parameters: { resource: 'savedContact', operation: 'update', contactId: 1, updateFields: { city: 'Recife' } } },
};

const writing = Object.entries(RESOURCES).flatMap(([resource, { operations }]) =>
	Object.entries(operations)
		.filter(([, module]) => module.writes)
		.map(([operation, module]) => [`${resource}.${operation}`, module.option.action] as const),
);

describe('Retry On Fail', () => {
	it('the operations that write are the ones listed here', () => {
		expect(writing.map(([key]) => key).sort()).toEqual(Object.keys(WRITES).sort());
	});

	it.each(writing)('%s refuses it before anything is sent, naming the setting and what to do', async (key, action) => {
		const { parameters, items } = WRITES[key];
		const result = await run(ctx.sandbox, parameters, { items: items ? await items() : undefined, retry: RETRY });
		expect(result.error?.message).toBe(
			`"Retry On Fail" is on in this node's settings, which ${action} does not allow: a retry runs the node again over every item and would send again the items that already went through. Nothing was sent.`,
		);
		expect(result.error?.description).toMatch(/Turn off Settings > Retry On Fail/);
		expect(ctx.sandbox.control.requests()).toEqual([]);
	});

	it.each([true, 'errorOutput'] as const)('with Continue On Fail (%s) each item fails with the refusal, none goes down the success output', async (continueOnFail) => {
		const result = await run(ctx.sandbox, LETTER, { items: [await pdfItem(1), await pdfItem(1)], retry: RETRY, continueOnFail });
		expect(result.error).toBeUndefined();
		const failed = continueOnFail === 'errorOutput' ? result.output('Node', 1) : result.items;
		expect(failed.map((item) => [item.json.error, item.pairedItem])).toEqual([0, 1].map((i) => [expect.stringMatching(/"Retry On Fail" is on/), { item: i }]));
		if (continueOnFail === 'errorOutput') expect(result.output('Node', 0)).toEqual([]);
		expect(ctx.sandbox.control.requests()).toEqual([]);
		expect(ctx.sandbox.control.orders()).toEqual([]);
	});

	it('a read keeps it: Letter > Get runs again after its own three attempts failed', async () => {
		const created = await run(ctx.sandbox, LETTER, { items: [await pdfItem(1)] });
		const id = String(created.items[0].json.id);
		ctx.sandbox.control.clearRequests();
		ctx.sandbox.control.injectFault({ path: '/api/v2/get/', kind: '500', count: 3 });
		const result = await run(ctx.sandbox, { resource: 'order', operation: 'get', orderId: id }, { retry: RETRY });
		expect(result.error).toBeUndefined();
		expect(result.items[0].json.id).toBe(id);
		expect(ctx.sandbox.control.requests({ path: /^\/api\/v2\/get\// }).map((r) => r.status)).toEqual([500, 500, 500, 200]);
	});

	it('a write whose connection was never made is tried again by the node, within the item’s deadline', async () => {
		const result = await run({ baseUrl: `http://127.0.0.1:${await closedPort()}` }, LETTER, { items: [await pdfItem(1)] });
		expect(result.error?.message).toMatch(/Could not connect to the service/);
		expect(result.error?.description).toMatch(/did not reach the service\. Tried 3 time\(s\)/);
	});
});
