/**
 * The receiver's filters, which the examples' checks read through and nothing in the inner loop
 * does; what it records and gives back is panel.test.ts's.
 */
import { describe, expect, it } from 'vitest';

import { call, useSandbox } from './support';

const ctx = useSandbox();

describe('Receiver (<base>/_receiver/...)', () => {
	it('filters by method and by path (exact, or a prefix ending at a /), in process and over HTTP, and forgets on reset', async () => {
		for (const path of ['/crm/api/orders/1', '/crm/api/orders/2', '/crm/api/deals/9/notes', '/crmx/other', '/chat/hooks/collection']) {
			await call(`${ctx.sandbox.receiverUrl}${path}`, { method: path.startsWith('/chat') ? 'POST' : 'PATCH', headers: { 'content-type': 'application/json' }, body: '{}' });
		}
		const paths = (filter: Parameters<typeof ctx.sandbox.control.received>[0]) => ctx.sandbox.control.received(filter).map((r) => r.path);
		expect(paths({ path: '/crm' })).toEqual(['/crm/api/orders/1', '/crm/api/orders/2', '/crm/api/deals/9/notes']);
		expect(paths({ path: '/crm/api/orders/' })).toEqual(['/crm/api/orders/1', '/crm/api/orders/2']);
		expect(paths({ path: '/chat/hooks/collection' })).toEqual(['/chat/hooks/collection']);
		expect(paths({ method: 'post' })).toEqual(['/chat/hooks/collection']);
		const overHttp = await call(`${ctx.base}/_sandbox/received?path=/crm/api/orders`);
		expect(overHttp.body.map((r: { path: string }) => r.path)).toEqual(['/crm/api/orders/1', '/crm/api/orders/2']);
		// Not the service's traffic: the request log of its routes stays empty.
		expect(ctx.sandbox.control.requests()).toEqual([]);
		ctx.sandbox.control.reset();
		expect(ctx.sandbox.control.received()).toEqual([]);
	});
});
