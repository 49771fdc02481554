/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
/**
 * n8n's processed-data store failing when the trigger checks a delivery. n8n has answered the
 * service 200 by then (it answers once the execution is stored), so the delivery runs, a warning
 * is logged, and what it could not record is written with the node's next check.
 */
import { randomUUID } from 'node:crypto';

import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { processedData } from '../harness/engine';
import type { StoreFault } from '../harness/processedData.cjs';
import { deliver, delivery, statusUpdate, TRIGGER_ID } from './support';

afterEach(() => vi.restoreAllMocks());

/** Delivers a new delivery while the given store calls about its workflow fail; then the store works again. */
async function deliverWhileTheStoreFails(workflowId: string, faults: StoreFault[]) {
	const body = statusUpdate();
	const warn = vi.spyOn(Container.get(Logger), 'warn');
	processedData.failCalls(workflowId, faults);
	// A workflow saved with "Answer the Service: When Queued", which this version no longer has.
	const outcome = await deliver(delivery(body), { workflowId, parameters: { answer: 'whenQueued' } });
	processedData.failCalls(workflowId, []);
	return { body, outcome, warnings: warn.mock.calls.map(([message]) => String(message)) };
}

describe("duplicates: n8n's processed-data store failing at the trigger's check", () => {
	it.each([
		['before its write', 'before'],
		['after its write landed', 'after'],
	] as const)('runs a delivery n8n answered when the check fails %s, with a warning, and drops its resend', async (_name, when) => {
		const workflowId = randomUUID();
		expect((await deliver(delivery(statusUpdate()), { workflowId })).after).toHaveLength(1);
		const { body, outcome, warnings } = await deliverWhileTheStoreFails(workflowId, [
			{ call: 0, when },
			{ call: 1, when },
		]);
		expect(outcome.status).toBe(200);
		expect(outcome.run?.error).toBeUndefined();
		expect(outcome.after).toHaveLength(1);
		expect(warnings).toEqual([expect.stringMatching(/processed-data store failed .* it runs/)]);

		const resend = await deliver(delivery(body), { workflowId });
		expect(resend.status).toBe(200);
		expect(resend.after).toEqual([]);
	});

	it('runs every delivery while the store is down, and records them all once it is back', async () => {
		const workflowId = randomUUID();
		const down = Array.from({ length: 40 }, (_, call) => ({ call, when: 'before' as const }));
		processedData.failCalls(workflowId, down);
		const bodies = [statusUpdate(), statusUpdate(), statusUpdate()];
		const first: number[] = [];
		for (const body of bodies) first.push((await deliver(delivery(body), { workflowId })).after.length);
		processedData.failCalls(workflowId, []);
		expect(first).toEqual([1, 1, 1]);

		const later = statusUpdate();
		expect((await deliver(delivery(later), { workflowId })).after).toHaveLength(1);
		for (const body of [...bodies, later]) {
			expect(processedData.holds(workflowId, TRIGGER_ID, `d:production:${String(body.delivery_id)}`)).toBe(true);
			expect((await deliver(delivery(body), { workflowId })).after, String(body.delivery_id)).toEqual([]);
		}
	});
});
