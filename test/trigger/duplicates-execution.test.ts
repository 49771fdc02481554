/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
/**
 * Duplicate dropping through n8n's engine within one n8n process: a delivery counts as processed
 * once its execution reached the trigger's step, so whatever stopped the first attempt before
 * that, the service's retry still runs; a resend runs nothing after the trigger.
 */
import { randomUUID } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { Container } from '@n8n/di';
import { BinaryDataService } from 'n8n-core';

import { deliver, type DeliverOptions, delivery, envelope, returnReceipt, statusUpdate } from './support';

afterEach(() => {
	vi.restoreAllMocks();
});

// A retry after an execution that failed to start, and copies arriving together, are the duplicate
// fuzz's families (test/reliability/duplicates.suite.ts).
describe('duplicates: a delivery counts once its execution reached the trigger', () => {
	it('runs the retry when the return receipt could not be stored', async () => {
		const workflowId = randomUUID();
		const receipt = returnReceipt({ name: 'rr.pdf', base64: Buffer.from('%PDF-1.4\n%%EOF\n').toString('base64') });
		vi.spyOn(Container.get(BinaryDataService), 'store').mockRejectedValueOnce(new Error('no space left on device'));
		const failed = await deliver(delivery(receipt), { workflowId });
		expect(failed.status).toBe(500);
		expect(failed.run).toBeUndefined();

		const retry = await deliver(delivery(receipt), { workflowId });
		expect(retry.items).toHaveLength(1);
		expect(retry.items[0].binary?.data).toBeDefined();
	});

	it('answers a resend 200 and ends its execution at the trigger with no item', async () => {
		const workflowId = randomUUID();
		const body = statusUpdate();
		const first = await deliver(delivery(body), { workflowId });
		expect(first.after).toHaveLength(1);

		// A retry is a new attempt: new X-Webhook-Timestamp, same body and delivery_id.
		const resend = await deliver(delivery(body), { workflowId });
		expect(resend.status).toBe(200);
		expect(resend.response.body).toEqual({ message: 'Accepted' });
		expect(resend.run?.error).toBeUndefined();
		expect(resend.items).toEqual([]);
		expect(resend.after).toEqual([]);

		expect((await deliver(delivery(statusUpdate()), { workflowId })).after).toHaveLength(1);
	});

	it('does not remember deliveries it refused', async () => {
		const workflowId = randomUUID();
		const body = statusUpdate();
		const refused = await deliver(delivery(body, { secret: 'another-secret' }), { workflowId });
		expect(refused.status).toBe(401);
		const accepted = await deliver(delivery(body), { workflowId });
		expect(accepted.items).toHaveLength(1);
	});

	const { delivery_id: _none, ...withoutId } = statusUpdate();
	const { delivery_id: _neither, ...testWithoutId } = envelope('webhook.test', { message: 'hi', webhook_id: 1, webhook_name: 'n8n' });
	const off = (option: string): DeliverOptions => ({ parameters: { options: { [option]: false } } });
	// [whose copies, the body, the first copy's options, the second's, runs after the trigger of each and of a third, plain, copy]
	it.each<[string, () => IDataObject, DeliverOptions, DeliverOptions, number[]]>([
		['with duplicate dropping off', statusUpdate, off('deduplicate'), off('deduplicate'), [1, 1, 1]],
		['in test executions ("Listen for test event"), which neither drop nor record', statusUpdate, { mode: 'manual' }, { mode: 'manual' }, [1, 1, 1]],
		['retried by the user from the execution list', statusUpdate, {}, { mode: 'retry' }, [1, 1, 0]],
		['of a test event without a delivery_id, which nothing tells apart', () => testWithoutId, {}, {}, [1, 1, 1]],
		['without a delivery_id, Drop Repeated Events off', () => withoutId, off('dropRepeatedEvents'), off('dropRepeatedEvents'), [1, 1, 1]],
		['without a delivery_id: the first only, as one event repeated', () => withoutId, {}, {}, [1, 0, 0]],
	])('runs the copies %s, and keeps no key in any item', async (_case, body, first, second, runs) => {
		const workflowId = randomUUID();
		const sent = body();
		const outcomes = [];
		for (const options of [first, second, {}]) outcomes.push(await deliver(delivery(sent), { ...options, workflowId }));
		expect(outcomes.map((outcome) => outcome.after.length)).toEqual(runs);
		for (const item of outcomes.flatMap((outcome) => [...outcome.items, ...outcome.after])) expect(Object.keys(item).sort()).toEqual(['json', 'pairedItem']);
	});
});
