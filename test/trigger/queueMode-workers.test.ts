/**
 * Queue mode: several workers checking one delivery in n8n's processed-data store at the same
 * moment, each writing over the row it read; the wait before confirming settles which one runs it.
 */
import { randomUUID } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';
import { afterEach, describe, expect, it } from 'vitest';

import { forgetProcessMemory } from '../../nodes/PostalServiceTrigger/deliveryMemory';
import { processedData } from '../harness/engine';
import { deliver, delivery, TRIGGER_ID, statusUpdate } from './support';

describe('duplicates: several queue-mode workers checking one delivery at the same moment', () => {
	afterEach(() => forgetProcessMemory());

	// The wait before confirming; long enough for the test to write in between.
	const waitMs = 300;
	const parameters = { options: { crossWorkerWaitMs: waitMs } };

	/**
	 * Delivers `body` and, the moment the trigger's `afterCall`-th call to the store has written (the
	 * first, its check, by default), lets `meanwhile` write as another worker does that read the row
	 * before that record: its values on top of that older row.
	 */
	async function deliverWhileAnotherWorkerWrites(
		body: IDataObject,
		meanwhile: (writeOverIt: (values: string[]) => void, key: string) => void,
		afterCall = 0,
	) {
		const workflowId = randomUUID();
		// An earlier delivery, so the store has a row (the usual case).
		expect((await deliver(delivery(statusUpdate()), { workflowId, parameters })).after).toHaveLength(1);
		const before = processedData.rowText(workflowId, TRIGGER_ID);
		const key = `d:production:${String(body.delivery_id)}`;
		const executionId = randomUUID();
		processedData.failCalls(workflowId, []);
		processedData.afterCall(workflowId, afterCall, () => meanwhile((values) => processedData.writeAsOf(workflowId, TRIGGER_ID, before, values), key));
		const outcome = await deliver(delivery(body), { workflowId, executionId, parameters });
		expect(processedData.callsSinceFaults(workflowId), 'the trigger made the call the other write follows').toBeGreaterThan(afterCall);
		return { workflowId, key, own: `x:${executionId}:production:${String(body.delivery_id)}`, outcome };
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

	it("stops when another worker's write, read before this record, lands only after the first look", async () => {
		const body = statusUpdate();
		const other = `x:other-execution:production:${String(body.delivery_id)}`;
		// After this execution's check and its first look, both of which found its own record, the
		// other worker's write, held up in the database since its read, erases that record: the other
		// worker finds its own record from here on and runs the delivery, so this one must not.
		const { workflowId, outcome } = await deliverWhileAnotherWorkerWrites(body, (writeOverIt, key) => writeOverIt([key, other]), 1);
		expect(outcome.after).toEqual([]);
		expect(processedData.holds(workflowId, TRIGGER_ID, other)).toBe(true);
	});

	it('runs a delivery whose record nobody touched, after the wait', async () => {
		const body = statusUpdate();
		const { outcome } = await deliverWhileAnotherWorkerWrites(body, () => undefined);
		expect(outcome.after).toHaveLength(1);
	});
});
