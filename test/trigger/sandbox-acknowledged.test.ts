/**
 * The trigger fed by the sandbox's dispatcher answers 200 without an execution where none is due,
 * so that the service neither retries nor pauses the endpoint.
 */
import { describe, expect, it } from 'vitest';

import { createLetter, settled, useSandboxDispatcher } from './sandboxRig';

const setup = useSandboxDispatcher();

describe('trigger with the sandbox dispatcher: acknowledged without an execution', () => {
	it('answers 200 to an event the workflow does not listen to, so the service neither retries nor pauses', async () => {
		const { sandbox: s, receiver: r, endpoint } = await setup({ parameters: { events: ['rr.created'] } });
		const letter = await createLetter(s);
		s.control.setOrderStatus(letter, 1);
		s.control.addTrackingEvent(letter);
		s.control.sendTestEvent(endpoint.id);
		const deliveries = await settled(s, 4);
		for (const d of deliveries) expect(d.attempts.map((a) => a.status)).toEqual([200]);
		expect(r.executions()).toBe(0);
		expect(s.control.webhooks()[0].paused).toBe(false);
		expect(deliveries[0].attempts[0].responseBody).toMatch(/not one this workflow listens to/);
	});

	it('answers 200 to a delivery from the other environment', async () => {
		const { sandbox: s, receiver: r } = await setup({ environment: 'homolog', parameters: { environment: 'production' } });
		s.control.createEmailOrder({ email: 'ana@example.com' });
		const [d] = await settled(s, 1);
		expect(d.payload.environment).toBe('homolog');
		expect(d.attempts.map((a) => a.status)).toEqual([200]);
		expect(r.executions()).toBe(0);
	});

	it('answers 200 to a delivery resent from the panel, and runs nothing after the trigger for it', async () => {
		const { sandbox: s, receiver: r } = await setup({});
		s.control.createEmailOrder({ email: 'ana@example.com' });
		const [d] = await settled(s, 1);
		await s.control.resendDelivery(d.deliveryId);
		const [again] = s.control.deliveries({ deliveryId: d.deliveryId });
		expect(again.attempts.map((a) => a.status)).toEqual([200, 200]);
		expect(again.attempts[1].responseBody).toBe('{"message":"Accepted"}');
		expect(r.received.map((x) => JSON.parse(x.request.rawBody.toString()).delivery_id)).toEqual([d.deliveryId, d.deliveryId]);
		// The resend's execution ends at the trigger with no item.
		expect([r.executions(), r.runsAfter()]).toEqual([2, 1]);
	});
});
