/** The trigger fed by the sandbox's dispatcher runs a delivery once when the service retries it. */
import { describe, expect, it } from 'vitest';

import { useSandboxDispatcher } from './sandboxRig';
import { serviceFields } from './support';

const setup = useSandboxDispatcher();

describe('trigger with the sandbox dispatcher: retries', () => {
	it('runs the workflow once when the answer to a processed delivery is lost and the service retries', async () => {
		const { sandbox: s, receiver: r } = await setup({});
		r.loseAnswer = 1;
		s.control.createEmailOrder({ email: 'ana@example.com' });
		const [d] = await s.control.waitForDeliveries((all) => all.length === 1 && all[0].state === 'delivered', 20_000);
		expect(d.attempts.map((a) => a.status)).toEqual([500, 200]);
		const ids = r.received.map((x) => JSON.parse(x.request.rawBody.toString()).delivery_id);
		expect(ids).toEqual([d.deliveryId, d.deliveryId]);
		// Each attempt carries its own time; the body (and so delivery_id) is the same bytes.
		expect(r.received[0].request.rawBody.equals(r.received[1].request.rawBody)).toBe(true);
		// The retry starts an execution of its own, which ends at the trigger with no item.
		expect([r.executions(), r.runsAfter()]).toEqual([2, 1]);
	});

	it('starts one execution when the first attempt never reached n8n', async () => {
		const { sandbox: s, receiver: r } = await setup({});
		r.failBefore = 1;
		s.control.createEmailOrder({ email: 'ana@example.com' });
		const [d] = await s.control.waitForDeliveries((all) => all.length === 1 && all[0].state === 'delivered', 20_000);
		expect(d.attempts.map((a) => a.status)).toEqual([500, 200]);
		expect(r.executions()).toBe(1);
		expect(r.items().map((i) => serviceFields(i.json))).toEqual([d.payload]);
	});
});
