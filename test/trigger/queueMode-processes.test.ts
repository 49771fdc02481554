/**
 * Duplicates across n8n processes (queue mode: webhook processes in front of workers, sharing only
 * the database): nothing is kept in a webhook process, so n8n's processed-data store decides
 * inside the execution, and one worker checks one delivery at a time.
 */
import { randomUUID } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import { processedData } from '../harness/engine';
import { deliver, delivery, TRIGGER_ID, type Outcome, statusUpdate } from './support';

describe('duplicates: across n8n processes (queue mode), through the processed-data store', () => {
	it('runs nothing after the trigger for a resend that reaches another webhook process', async () => {
		const workflowId = randomUUID();
		const body = statusUpdate();
		const first = await deliver(delivery(body), { workflowId });
		expect(first.after).toHaveLength(1);
		expect(processedData.holds(workflowId, TRIGGER_ID, `d:production:${String(body.delivery_id)}`)).toBe(true);

		const resend = await deliver(delivery(body), { workflowId });
		expect(resend.status).toBe(200);
		expect(resend.run).toBeDefined();
		expect(resend.items).toEqual([]);
		expect(resend.after).toEqual([]);
	});

	it.each([
		['the first deliveries of the node', false],
		['later deliveries (the store has its row)', true],
	])('lets one of two copies on when they reach two webhook processes at once and one worker runs both: %s', async (_name, earlier) => {
		const workflowId = randomUUID();
		if (earlier) expect((await deliver(delivery(statusUpdate()), { workflowId })).after).toHaveLength(1);
		const body = statusUpdate();
		let bothStarted!: () => void;
		const barrier = new Promise<void>((resolve) => (bothStarted = resolve));
		let second: Promise<Outcome> | undefined;
		const first = deliver(delivery(body), {
			workflowId,
			beforeExecution: async () => {
				// The copy reaches another webhook process; both executions then run in the same worker
				// (this process), each waiting for the other to have started.
				second = deliver(delivery(body), { workflowId, beforeExecution: () => bothStarted() });
				await barrier;
			},
		});
		const outcomes = [await first, await second!];
		expect(outcomes.map((o) => o.run !== undefined)).toEqual([true, true]);
		expect(outcomes.map((o) => o.run?.error)).toEqual([undefined, undefined]);
		expect(outcomes.flatMap((o) => o.after)).toHaveLength(1);
	});
});
