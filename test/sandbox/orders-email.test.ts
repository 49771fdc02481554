/** Registered e-mail orders: their ids, the letter routes they share, the test allow-list and the balance. */
import { describe, expect, it } from 'vitest';

import { orderRoutes, useSandbox } from './support';

const ctx = useSandbox();
const { get, download, cancel } = orderRoutes(ctx);

describe('Resources › registered e-mail orders', () => {
	it('ids are E + digits; read, cancel and download through the letter routes', async () => {
		const created = ctx.sandbox.control.createEmailOrder({ email: 'ana@example.com', name: 'Ana', subject: 'Notificação' });
		expect(created.id).toMatch(/^E\d+$/);
		const id = created.id as string;
		const read = await get(id);
		expect(read.body.data).toMatchObject({ id, type: 'email', status: 1, recipient: { email: 'ana@example.com' } });
		ctx.sandbox.control.setOrderStatus(id, 3);
		const file = await download(id, 'pdf');
		expect(file.body.data).toMatchObject({ id_job: id, file_type: 'pdf' });
		const forced = await cancel(id, '?force=yes');
		expect(forced.body.data).toMatchObject({ id, status: 4, status_text: 'Cancelado' });
	});

	it('cancels a paid e-mail not yet sent (status 1) without force', async () => {
		const { id } = ctx.sandbox.control.createEmailOrder({ email: 'ana@example.com' });
		expect((await cancel(id as string)).body.data.status).toBe(4);
	});

	it('refuses recipients off the test environment allow-list: status 5 with the reason', async () => {
		const order = ctx.sandbox.control.createEmailOrder({ email: 'someone@elsewhere.test' });
		expect(order).toMatchObject({ status: 5, failure_reason: expect.stringContaining('lista de permissões') });
		ctx.sandbox.control.addEmailRecipient('@elsewhere.test');
		expect(ctx.sandbox.control.createEmailOrder({ email: 'someone@elsewhere.test' }).status).toBe(1);
	});

	it('status 2 when the balance cannot pay', async () => {
		ctx.sandbox.control.setBalance(0);
		expect(ctx.sandbox.control.createEmailOrder({ email: 'ana@example.com' }).status).toBe(2);
	});
});
