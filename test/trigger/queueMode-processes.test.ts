/**
 * Duplicates across n8n processes (queue mode: webhook processes in front of workers, sharing only
 * the database): what one process does not know, n8n's processed-data store decides inside the
 * execution. "Another process" is this one after forgetting what it knew.
 */
import { randomUUID } from 'node:crypto';

import { afterEach, describe, expect, it, vi } from 'vitest';

import { CLAIM_LIFETIME_MS, forgetProcessMemory } from '../../nodes/PostalServiceTrigger/deliveryMemory';
import { processedData } from '../harness/engine';
import { deliver, delivery, TRIGGER_ID, type Outcome, statusUpdate } from './support';

afterEach(() => {
	vi.restoreAllMocks();
});

describe('duplicates: across n8n processes (queue mode), through the processed-data store', () => {
	afterEach(() => forgetProcessMemory());

	it('runs nothing after the trigger for a resend that reaches a process that knows nothing of it', async () => {
		const workflowId = randomUUID();
		const body = statusUpdate();
		const first = await deliver(delivery(body), { workflowId });
		expect(first.after).toHaveLength(1);
		expect(processedData.holds(workflowId, TRIGGER_ID, `d:production:${String(body.delivery_id)}`)).toBe(true);

		// Another webhook process, whose static data was loaded before the first execution saved.
		forgetProcessMemory();
		const resend = await deliver(delivery(body), { workflowId, staticData: {} });
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
				// The copy reaches another webhook process: nothing there knows of the first. Both
				// executions then run in the same worker (this process).
				forgetProcessMemory();
				second = deliver(delivery(body), { workflowId, staticData: {}, beforeExecution: () => bothStarted() });
				await barrier;
			},
		});
		const outcomes = [await first, await second!];
		expect(outcomes.map((o) => o.run !== undefined)).toEqual([true, true]);
		expect(outcomes.map((o) => o.run?.error)).toEqual([undefined, undefined]);
		expect(outcomes.flatMap((o) => o.after)).toHaveLength(1);
	});

	it('lets the same execution through when n8n runs it again (a worker died, Retry On Fail)', async () => {
		const workflowId = randomUUID();
		const executionId = randomUUID();
		const body = statusUpdate();
		const first = await deliver(delivery(body), { workflowId, executionId });
		forgetProcessMemory();
		const rerun = await deliver(delivery(body), { workflowId, executionId, staticData: {} });
		expect([first.after.length, rerun.after.length]).toEqual([1, 1]);
		forgetProcessMemory();
		const other = await deliver(delivery(body), { workflowId, staticData: {} });
		expect(other.run).toBeDefined();
		expect(other.after).toEqual([]);
	});

	it('stops a duplicate at the trigger even when "Always Output Data" is on there', async () => {
		const workflowId = randomUUID();
		const settings = { alwaysOutputData: true };
		const body = statusUpdate();
		const first = await deliver(delivery(body), { workflowId, settings });
		expect(first.after).toHaveLength(1);
		forgetProcessMemory();
		const resend = await deliver(delivery(body), { workflowId, settings, staticData: {} });
		expect(resend.run?.error?.message).toMatch(/already ran/);
		expect(resend.after).toEqual([]);
	});

	it('after a claim outlived its bound, a copy starts an execution, and still only one reaches the next node', async () => {
		const workflowId = randomUUID();
		const body = statusUpdate();
		let copy: Outcome | undefined;
		const first = await deliver(delivery(body), {
			workflowId,
			beforeExecution: async () => {
				const now = Date.now();
				vi.spyOn(Date, 'now').mockReturnValue(now + CLAIM_LIFETIME_MS + 1);
				copy = await deliver(delivery(body), { workflowId });
				vi.restoreAllMocks();
			},
		});
		expect(copy?.run).toBeDefined();
		expect([copy!.after.length, first.after.length]).toEqual([1, 0]);
	});
});
