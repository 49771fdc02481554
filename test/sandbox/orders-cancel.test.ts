/**
 * DELETE /api/v2/delete: which statuses a cancellation takes, with or without force, and the
 * credits it gives back.
 */
import { describe, expect, it } from 'vitest';

import { newLetter, orderRoutes, useSandbox } from './support';

const ctx = useSandbox();
const { cancel } = orderRoutes(ctx);

describe('Endpoints › DELETE /api/v2/delete/{securityToken}/{job_id}', () => {
	it('cancels status 0 with the default note and gives the credits back', async () => {
		const before = ctx.sandbox.control.balance();
		const id = await newLetter(ctx.base);
		const answer = await cancel(id);
		expect(answer.status).toBe(200);
		expect(answer.body.data).toEqual({ id, status: 5, status_text: 'Cancelado', message: 'Cancelado via API' });
		expect(ctx.sandbox.control.order(id)).toMatchObject({ status: 5, cancel_reason: 'Cancelado via API' });
		expect(ctx.sandbox.control.balance()).toBe(before);
	});

	it('cancels status 2 and takes the reason', async () => {
		ctx.sandbox.control.setBalance(0);
		const id = await newLetter(ctx.base);
		const answer = await cancel(id, '?reason=Pedido%20duplicado');
		expect(answer.body.data).toMatchObject({ status: 5, message: 'Pedido duplicado' });
	});

	it('answers 400 for an already cancelled order without force', async () => {
		const id = await newLetter(ctx.base);
		await cancel(id);
		const again = await cancel(id);
		expect(again.status).toBe(400);
		expect(again.body.data).toBeNull();
	});

	it('answers 400 for other statuses without force (code not shown by the spec: 400 chosen), and cancels with force=yes', async () => {
		const id = await newLetter(ctx.base);
		ctx.sandbox.control.setOrderStatus(id, 3);
		const refused = await cancel(id);
		expect(refused.status).toBe(400);
		expect(refused.body.status_message).toMatch(/force=yes/);
		const forced = await cancel(id, '?force=yes');
		expect(forced.status).toBe(200);
		expect(forced.body.data.status).toBe(5);
	});
});
