/**
 * The answer point: "When Queued" for queue mode, "From the Execution" by default, and what each
 * means for duplicates.
 */
import { randomUUID } from 'node:crypto';

import { afterEach, describe, expect, it } from 'vitest';

import { forgetProcessMemory } from '../../nodes/PostalServiceTrigger/deliveryMemory';
import { deliver, delivery, statusUpdate } from './support';

describe('the answer point: "When Queued" for queue mode, "From the Execution" by default', () => {
	afterEach(() => forgetProcessMemory());

	const whenQueued = { answer: 'whenQueued' };

	it.each([
		// n8n answers once the execution is stored and queued: no worker is needed for the answer.
		['"When Queued"', 200, whenQueued],
		// The execution answers: a process dying before it runs leaves the service without an answer, so it retries.
		['"From the Execution" (the default)', 0, {}],
	])('with %s, a delivery whose execution never runs got the status %s (0: no answer)', async (_name, status, parameters) => {
		const outcome = await deliver(delivery(statusUpdate()), { parameters, executionDies: true });
		expect(outcome.run).toBeUndefined();
		expect(outcome.status).toBe(status);
	});

	it('with "When Queued", the answer says Accepted, the execution runs the delivery, and a resend to another process runs nothing after the trigger', async () => {
		const workflowId = randomUUID();
		const body = statusUpdate();
		const first = await deliver(delivery(body), { workflowId, parameters: whenQueued });
		expect(first.status).toBe(200);
		expect(first.response.body).toEqual({ message: 'Accepted' });
		expect(first.after).toHaveLength(1);

		const copy = await deliver(delivery(body), { workflowId, parameters: whenQueued, staticData: {} });
		expect(copy.status).toBe(200);
		expect(copy.run).toBeUndefined();

		forgetProcessMemory();
		const resend = await deliver(delivery(body), { workflowId, parameters: whenQueued, staticData: {} });
		expect(resend.status).toBe(200);
		expect(resend.run).toBeDefined();
		expect(resend.run?.error).toBeUndefined();
		expect(resend.after).toEqual([]);
	});
});
