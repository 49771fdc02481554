/**
 * Duplicate dropping through n8n's engine: the top-level delivery_id read digit for digit as written.
 */
import { randomUUID } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import { deliver, delivery, serviceTime } from './support';

// Ids that collide across environments and ids above 2^53, shuffled and resent, are the duplicate
// fuzz's family (test/reliability/duplicates.suite.ts); here how an id reaches the workflow. A small id
// stays a number in every event of docs/trigger.md, made from a real run (test/docs/outputs.test.ts).
describe('duplicates: delivery_id is read as written', () => {
	it('keeps ids above 2^53 apart, and gives them to the workflow digit for digit', async () => {
		const workflowId = randomUUID();
		// Each id its own order: the same event under two ids would be one event retried.
		const text = (id: string) =>
			`{"event":"order.status_updated","environment":"production","timestamp":"${serviceTime()}","webhook_id":12,"delivery_id":${id},"data":{"id":"${id.slice(-4)}","type":"letter","status":{"old":0,"new":1}}}`;
		// 2^53 + 1 and 2^53: JSON.parse reads both as 9007199254740992.
		expect(JSON.parse(text('9007199254740993')).delivery_id).toBe(JSON.parse(text('9007199254740992')).delivery_id);
		const first = await deliver(delivery(text('9007199254740993')), { workflowId });
		expect(first.items.map((item) => item.json.delivery_id)).toEqual(['9007199254740993']);
		const second = await deliver(delivery(text('9007199254740992')), { workflowId });
		expect(second.items.map((item) => item.json.delivery_id)).toEqual(['9007199254740992']);
		const again = await deliver(delivery(text('9007199254740993')), { workflowId, parameters: { options: { dropRepeatedEvents: false } } });
		expect(again.after).toEqual([]);
	});

	it('takes the top-level delivery_id, not one inside data, whatever the order of the members', async () => {
		const workflowId = randomUUID();
		const one = `{"data":{"delivery_id":1,"note":"a \\"quoted\\" } brace"},"delivery_id":900000000000000001,"event":"webhook.test","environment":"production"}`;
		const two = `{"data":{"delivery_id":1,"note":"a \\"quoted\\" } brace"},"delivery_id":900000000000000002,"event":"webhook.test","environment":"production"}`;
		const first = await deliver(delivery(one), { workflowId });
		expect(first.items.map((item) => item.json.delivery_id)).toEqual(['900000000000000001']);
		const second = await deliver(delivery(two), { workflowId });
		expect(second.items).toHaveLength(1);
	});
});
