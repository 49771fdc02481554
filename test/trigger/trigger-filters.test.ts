/**
 * The trigger acknowledges (200), without an execution, the events and environments a workflow does
 * not listen to.
 */
import { describe, expect, it } from 'vitest';

import { deliver, delivery, envelope, orderCreated, serviceTime } from './support';

describe('trigger: events and environments not listened to', () => {
	it('acknowledges (200) an event the workflow does not listen to, without an execution', async () => {
		const parameters = { events: ['order.created'] };
		const other = envelope('order.status_updated', { id: '1', type: 'letter', status: { old: 0, new: 1 }, updated_at: serviceTime() });
		const unknown = envelope('order.deleted', { id: '1' });
		for (const body of [other, unknown]) {
			const outcome = await deliver(delivery(body), { parameters });
			expect(outcome.status).toBe(200);
			expect(outcome.webhookResponse).toEqual({ noWebhookResponse: true });
			expect(outcome.run).toBeUndefined();
		}
		expect((await deliver(delivery(orderCreated()), { parameters })).items).toHaveLength(1);
	});

	it('acknowledges (200) a delivery from the other environment, without an execution', async () => {
		const homolog = delivery({ ...orderCreated(), environment: 'homolog' });
		const production = delivery(orderCreated());

		const onlyProduction = await deliver(homolog, { parameters: { environment: 'production' } });
		expect(onlyProduction.status).toBe(200);
		expect(onlyProduction.run).toBeUndefined();
		const onlyHomolog = await deliver(production, { parameters: { environment: 'homolog' } });
		expect(onlyHomolog.status).toBe(200);
		expect(onlyHomolog.run).toBeUndefined();

		expect((await deliver(homolog, { parameters: { environment: 'homolog' } })).items).toHaveLength(1);
		expect((await deliver(homolog, { parameters: { environment: 'both' } })).items).toHaveLength(1);
		expect((await deliver(production, { parameters: { environment: 'both' } })).items).toHaveLength(1);
	});
});
