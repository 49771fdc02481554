/**
 * Duplicates across n8n processes (queue mode: webhook processes in front of workers, sharing only
 * the database): what one process does not know, n8n's processed-data store decides inside the
 * execution. "Another process" is this one after forgetting what it knew.
 */
import { randomUUID } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';
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

describe('duplicates: several queue-mode workers checking one delivery at the same moment', () => {
	afterEach(() => forgetProcessMemory());

	// The wait before confirming; long enough for the test to write in between.
	const waitMs = 300;
	const parameters = { options: { crossWorkerWaitMs: waitMs } };

	/**
	 * Delivers `body` and, once the trigger has recorded it, lets `meanwhile` write as another worker
	 * does that read the row before that record: its values on top of that older row.
	 */
	async function deliverWhileAnotherWorkerWrites(body: IDataObject, meanwhile: (writeOverIt: (values: string[]) => void, key: string) => void) {
		const workflowId = randomUUID();
		// An earlier delivery, so the store has a row (the usual case).
		expect((await deliver(delivery(statusUpdate()), { workflowId, parameters })).after).toHaveLength(1);
		const before = processedData.rowText(workflowId, TRIGGER_ID);
		const key = `d:production:${String(body.delivery_id)}`;
		const executionId = randomUUID();
		const outcome = deliver(delivery(body), { workflowId, executionId, parameters });
		const started = Date.now();
		while (!processedData.holds(workflowId, TRIGGER_ID, key)) {
			if (Date.now() - started > 10_000) throw new Error('The trigger never recorded the delivery');
			await new Promise((resolve) => setTimeout(resolve, 5));
		}
		meanwhile((values) => processedData.writeAsOf(workflowId, TRIGGER_ID, before, values), key);
		return { workflowId, key, own: `x:${executionId}:production:${String(body.delivery_id)}`, outcome: await outcome };
	}

	it("stops when another worker's record of the same delivery overwrote this one", async () => {
		const body = statusUpdate();
		const other = `x:other-execution:production:${String(body.delivery_id)}`;
		// The other worker let the same delivery on, and its write came after this execution's.
		const { workflowId, key, own, outcome } = await deliverWhileAnotherWorkerWrites(body, (writeOverIt, key) => writeOverIt([key, other]));
		expect(outcome.status).toBe(200);
		expect(outcome.run?.error).toBeUndefined();
		expect(outcome.after).toEqual([]);
		expect(processedData.holds(workflowId, TRIGGER_ID, key)).toBe(true);
		expect(processedData.holds(workflowId, TRIGGER_ID, other)).toBe(true);
		// Its own record, written again by the check, is taken out: a rerun of it would not pass.
		expect(processedData.holds(workflowId, TRIGGER_ID, own)).toBe(false);
	});

	it('records the delivery again and runs it when a write about another delivery erased its record', async () => {
		const body = statusUpdate();
		const unrelated = 'd:production:424242';
		const { workflowId, key, own, outcome } = await deliverWhileAnotherWorkerWrites(body, (writeOverIt) => writeOverIt([unrelated]));
		expect(outcome.after).toHaveLength(1);
		expect(processedData.holds(workflowId, TRIGGER_ID, own)).toBe(true);
		expect(processedData.holds(workflowId, TRIGGER_ID, key)).toBe(true);
		expect(processedData.holds(workflowId, TRIGGER_ID, unrelated)).toBe(true);
	});

	it('runs a delivery whose record nobody touched, after the wait', async () => {
		const body = statusUpdate();
		const { outcome } = await deliverWhileAnotherWorkerWrites(body, () => undefined);
		expect(outcome.after).toHaveLength(1);
	});
});

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
		processedData.failCalls(workflowId, [
			{ call: 0, when: 'after' },
			{ call: 1, when: 'after' },
		]);
		const failed = await deliver(delivery(body), { workflowId });
		processedData.failCalls(workflowId, []);
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
		// The check fails twice after its write landed: the trigger fails, and the delivery is recorded.
		processedData.failCalls(workflowId, [
			{ call: 0, when: 'after' },
			{ call: 1, when: 'after' },
		]);
		const failed = await deliver(delivery(body), { workflowId });
		processedData.failCalls(workflowId, []);
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
