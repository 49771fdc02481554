/**
 * Duplicate dropping through n8n's engine within one n8n process: what is remembered in static
 * data, and when. Static data is carried from call to call as n8n stores it.
 */
import { randomUUID } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { DEDUP_WINDOW } from '../../nodes/PostalServiceTrigger/deliveryMemory';
import { deliver, delivery, envelope, statusUpdate, TRIGGER_NAME } from './support';

const stored = (staticData: IDataObject) =>
	((staticData[`node:${TRIGGER_NAME}`] as IDataObject | undefined)?.acceptedDeliveries ?? []) as string[];

describe('duplicates: one run per delivery in one n8n process', () => {
	it('starts one execution for a delivery_id however often it arrives', async () => {
		const body = statusUpdate();
		const first = await deliver(delivery(body));
		expect(first.items).toHaveLength(1);

		// A retry is a new attempt: new X-Webhook-Timestamp, same body and delivery_id.
		const second = await deliver(delivery(body), { staticData: first.staticData });
		expect(second.status).toBe(200);
		expect(second.webhookResponse).toEqual({ noWebhookResponse: true });
		expect(second.run).toBeUndefined();

		const other = await deliver(delivery(statusUpdate()), { staticData: second.staticData });
		expect(other.items).toHaveLength(1);
	});

	it('keeps the ids when the execution reloads static data as stored, as n8n 2.41 does', async () => {
		// There, what webhook() writes to non-empty static data is lost; what the execution writes
		// is saved. Each call gets the static data the previous execution would have saved.
		const bodies = [statusUpdate(), statusUpdate(), statusUpdate()];
		let staticData: IDataObject | undefined;
		for (const body of bodies) {
			const outcome = await deliver(delivery(body), { staticData, executionStaticData: 'reloaded' });
			expect(outcome.items).toHaveLength(1);
			staticData = outcome.staticData;
		}
		for (const body of bodies) {
			const again = await deliver(delivery(body), { staticData, executionStaticData: 'reloaded' });
			expect(again.status).toBe(200);
			expect(again.run, `delivery ${String(body.delivery_id)}`).toBeUndefined();
		}
	});

	it('lets every copy through when duplicate dropping is off', async () => {
		const parameters = { options: { deduplicate: false } };
		const workflowId = randomUUID();
		const body = statusUpdate();
		const first = await deliver(delivery(body), { parameters, workflowId });
		const second = await deliver(delivery(body), { parameters, workflowId, staticData: first.staticData });
		expect(second.items).toHaveLength(1);
		expect(second.after).toHaveLength(1);
	});

	it('does not remember deliveries it refused', async () => {
		const workflowId = randomUUID();
		const body = statusUpdate();
		const refused = await deliver(delivery(body, { secret: 'another-secret' }), { workflowId });
		expect(refused.status).toBe(401);
		const accepted = await deliver(delivery(body), { workflowId, staticData: refused.staticData });
		expect(accepted.items).toHaveLength(1);
	});

	it('lets deliveries without a delivery_id through when nothing else tells them apart, and drops a repeated event', async () => {
		const runs = async (body: IDataObject, parameters: IDataObject = {}) => {
			const workflowId = randomUUID();
			const first = await deliver(delivery(body), { workflowId, parameters });
			const second = await deliver(delivery(body), { workflowId, parameters, staticData: first.staticData });
			return [first.after.length, second.after.length];
		};
		const { delivery_id: _none, ...body } = statusUpdate();
		const { delivery_id: _neither, ...test } = envelope('webhook.test', { message: 'hi', webhook_id: 1, webhook_name: 'n8n' });
		expect(await runs(test)).toEqual([1, 1]);
		expect(await runs(body, { options: { dropRepeatedEvents: false } })).toEqual([1, 1]);
		expect(await runs(body)).toEqual([1, 0]);
	});

	it('neither drops nor records in test executions ("Listen for test event")', async () => {
		const workflowId = randomUUID();
		const body = statusUpdate();
		const test = await deliver(delivery(body), { workflowId, mode: 'manual' });
		const again = await deliver(delivery(body), { workflowId, mode: 'manual', staticData: test.staticData });
		expect([test.after.length, again.after.length]).toEqual([1, 1]);
		const production = await deliver(delivery(body), { workflowId, staticData: again.staticData });
		expect(production.after).toHaveLength(1);
	});

	it('remembers a bounded number of deliveries in static data, forgetting the oldest first', async () => {
		const first = statusUpdate();
		let staticData = (await deliver(delivery(first))).staticData;
		const firstKey = `production:${String(first.delivery_id)}`;
		// Its delivery_id, and its event (hashed).
		expect(stored(staticData)).toEqual([firstKey, expect.stringMatching(/^e:[\w-]{22}$/)]);
		// Fill the window as that many accepted deliveries would have.
		const node = staticData[`node:${TRIGGER_NAME}`] as IDataObject;
		node.acceptedDeliveries = [firstKey, ...Array.from({ length: DEDUP_WINDOW - 1 }, (_, i) => `production:filler-${i}`)];
		const last = statusUpdate();
		staticData = (await deliver(delivery(last), { staticData })).staticData;
		expect(stored(staticData)).toHaveLength(DEDUP_WINDOW);
		expect(stored(staticData)).not.toContain(firstKey);
		expect(stored(staticData).at(-2)).toBe(`production:${String(last.delivery_id)}`);
		expect((await deliver(delivery(first), { staticData })).items).toHaveLength(1);
	});
});
