/**
 * Queue mode: n8n's processed-data store failing after the service was told 200; the workflow runs
 * once, and a resend to another process runs nothing after the trigger.
 */
import { randomUUID } from 'node:crypto';

import { afterEach, describe, expect, it } from 'vitest';

import { forgetProcessMemory } from '../../nodes/PostalServiceTrigger/deliveryMemory';
import { processedData } from '../harness/engine';
import { deliver, delivery, type Delivery, type Outcome, statusUpdate } from './support';

/**
 * Hands `request` over while the check fails twice after its write landed: the trigger fails, and
 * the delivery is recorded.
 */
async function deliverWhileTheCheckFailsTwice(workflowId: string, request: Delivery): Promise<Outcome> {
	processedData.failCalls(workflowId, [
		{ call: 0, when: 'after' },
		{ call: 1, when: 'after' },
	]);
	const failed = await deliver(request, { workflowId });
	processedData.failCalls(workflowId, []);
	return failed;
}

describe("duplicates: n8n's processed-data store failing after the service was told 200", () => {
	afterEach(() => forgetProcessMemory());

	const parameters = { options: { crossWorkerWaitMs: 50 } };

	// Call 0 is the check before the answer; 1 and 2 the confirmation's call and its second attempt.
	it.each([
		['before its write', 'before'],
		['after its write landed', 'after'],
	] as const)('runs the workflow when the confirmation fails %s, and drops a resend', async (_name, when) => {
		const workflowId = randomUUID();
		expect((await deliver(delivery(statusUpdate()), { workflowId, parameters })).after).toHaveLength(1);
		const body = statusUpdate();
		processedData.failCalls(workflowId, [
			{ call: 1, when },
			{ call: 2, when },
		]);
		const outcome = await deliver(delivery(body), { workflowId, parameters });
		processedData.failCalls(workflowId, []);
		expect(outcome.status).toBe(200);
		expect(outcome.run?.error).toBeUndefined();
		expect(outcome.after).toHaveLength(1);
		forgetProcessMemory();
		const resend = await deliver(delivery(body), { workflowId, parameters, staticData: {} });
		expect(resend.after).toEqual([]);
	});

	it("runs the service's retry when the check failed twice after its write landed (the trigger answered 500)", async () => {
		const workflowId = randomUUID();
		const body = statusUpdate();
		const failed = await deliverWhileTheCheckFailsTwice(workflowId, delivery(body));
		expect(failed.status).toBe(500);
		const retry = await deliver(delivery(body), { workflowId, staticData: failed.staticData });
		expect(retry.status).toBe(200);
		expect(retry.after).toHaveLength(1);
		const resend = await deliver(delivery(body), { workflowId, staticData: {} });
		expect(resend.after).toEqual([]);
	});

	it('runs again when the user retries from the execution list an execution whose trigger failed', async () => {
		const workflowId = randomUUID();
		const body = statusUpdate();
		const failed = await deliverWhileTheCheckFailsTwice(workflowId, delivery(body));
		expect(failed.run?.error?.message).toMatch(/Could not check/);
		expect(failed.after).toEqual([]);
		// n8n's retry runs the failed node again in a new execution of mode "retry".
		forgetProcessMemory();
		const retried = await deliver(delivery(body), { workflowId, staticData: {}, mode: 'retry' });
		expect(retried.run?.error).toBeUndefined();
		expect(retried.after).toHaveLength(1);
		forgetProcessMemory();
		const resend = await deliver(delivery(body), { workflowId, staticData: {} });
		expect(resend.after).toEqual([]);
	});
});
