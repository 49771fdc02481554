/**
 * Order > Cancel through n8n: the reason, a second cancellation refused, and Force for an order
 * already posted.
 */
import { describe, expect, it } from 'vitest';

import { letterCreator, run, TOKEN, useSandbox } from './fixture';

const ctx = useSandbox();
const createLetter = letterCreator(ctx);

describe('Order > Cancel', () => {
	it('cancels with a reason, refuses a second time, and forces', async () => {
		const id = await createLetter();
		const cancelled = await run(ctx.sandbox, { resource: 'order', operation: 'cancel', orderId: id, reason: 'Endereço errado' });
		expect(cancelled.error).toBeUndefined();
		expect(cancelled.items[0].json).toMatchObject({ id, status: 5, status_text: 'Cancelado', message: 'Endereço errado' });

		const again = await run(ctx.sandbox, { resource: 'order', operation: 'cancel', orderId: id });
		expect(again.error?.description).toContain('já está cancelado');

		const posted = await createLetter();
		ctx.sandbox.control.setOrderStatus(posted, 4);
		const forced = await run(ctx.sandbox, { resource: 'order', operation: 'cancel', orderId: posted, force: true });
		expect(forced.error).toBeUndefined();
		expect(ctx.sandbox.control.order(posted)).toMatchObject({ status: 5 });

		const requests = ctx.sandbox.control.requests({ method: 'DELETE' });
		expect(requests.map((r) => [r.path, r.query])).toEqual([
			[`/api/v2/delete/${TOKEN}/${id}`, { reason: 'Endereço errado' }],
			[`/api/v2/delete/${TOKEN}/${id}`, {}],
			[`/api/v2/delete/${TOKEN}/${posted}`, { force: 'yes' }],
		]);
	});
});
