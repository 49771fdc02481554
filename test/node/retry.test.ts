/**
 * n8n's Retry On Fail runs the node's execute() again over every item after a failure, which would
 * send again the items that already went through. Every operation that changes something refuses
 * it before anything is sent; reads keep it (n8n's retry of a read, and this refusal beside Continue
 * On Fail on every tested release: test/releases/behaviours.test.ts and the fault matrix). The node
 * itself repeats a write only when the connection was never made.
 */
import { describe, expect, it } from 'vitest';

import { RESOURCES } from '../../nodes/PostalService/actions/resources';
import { closedPort } from '../harness/httpServer';
import { EVERY_OPERATION, everyOperation } from '../harness/sends';
import { LETTER, pdfItem, run, useSandbox } from './fixture';

const ctx = useSandbox();
const RETRY = { maxTries: 3, waitBetweenTries: 1 };

const writing = Object.entries(EVERY_OPERATION)
	.filter(([, { writes }]) => writes)
	.map(([key]) => key);

describe('Retry On Fail', () => {
	it('EVERY_OPERATION (test/harness/sends.ts) holds every operation of the node, so each write is tried here', () => {
		const operations = Object.entries(RESOURCES).flatMap(([resource, { operations }]) => Object.keys(operations).map((operation) => `${resource}.${operation}`));
		expect(Object.keys(EVERY_OPERATION).sort()).toEqual(operations.sort());
		expect(writing.length).toBeGreaterThan(0);
	});

	it.each(writing)('%s refuses it before anything is sent, naming the setting and what to do', async (key) => {
		const [resource, operation] = key.split('.');
		const { parameters, items } = (await everyOperation())[key];
		const result = await run(ctx.sandbox, parameters, { items, retry: RETRY });
		expect(result.error?.message).toBe(
			`"Retry On Fail" is on in this node's settings, which ${RESOURCES[resource].operations[operation].option.action} does not allow: a retry runs the node again over every item and would send again the items that already went through. Nothing was sent.`,
		);
		expect(result.error?.description).toMatch(/Turn off Settings > Retry On Fail/);
		expect(ctx.sandbox.control.requests()).toEqual([]);
	});

	it('a write whose connection was never made is tried again by the node, within the item’s deadline', async () => {
		const result = await run({ baseUrl: `http://127.0.0.1:${await closedPort()}` }, LETTER, { items: [await pdfItem(1)] });
		expect(result.error?.message).toMatch(/Could not connect to the service/);
		expect(result.error?.description).toMatch(/did not reach the service\. Tried 3 time\(s\)/);
	});
});
