/**
 * n8n's own Retry On Fail (the engine runs execute() again over every item after a failure) must
 * never send a letter, a message or a cancel twice within one execution.
 */
import { describe, expect, it } from 'vitest';

import { BARE, startForeignProxy } from '../reliability/foreignProxy';
import { CHAT_MESSAGE, LETTER, pdfItem, run, useSandbox } from './fixture';

const ctx = useSandbox();
const RETRY = { maxTries: 3, waitBetweenTries: 1 };
const SEND = { ...CHAT_MESSAGE, phone: '={{ $json.phone }}' };

const tagged = { ...LETTER, tag: '={{ $json.tag }}' };
const ordersTagged = (tag: string) => ctx.sandbox.control.orders().filter((o) => o.tag === tag);

describe('Retry On Fail never sends twice', () => {
	it('returns the accepted item as it was and sends again only the item the service refused', async () => {
		// Item 1 is an express parcel without virtual box: valid here, refused by the service (400).
		const items = [await pdfItem(1, { tag: 'r-ok', shipType: 2 }), await pdfItem(1, { tag: 'r-refused', shipType: 6 })];
		const result = await run(ctx.sandbox, { ...tagged, shipType: '={{ $json.shipType }}' }, { items, retry: RETRY });
		expect(result.error?.message).toMatch(/refused the request as invalid/);
		expect(ordersTagged('r-ok')).toHaveLength(1);
		expect(ordersTagged('r-refused')).toHaveLength(0);
		const posts = ctx.sandbox.control.requests({ path: '/api/v2/post' });
		// One send of the accepted item; the refused one is tried on each of the three tries.
		expect(posts.filter((r) => r.fields.tag === 'r-ok')).toHaveLength(1);
		expect(posts.filter((r) => r.fields.tag === 'r-refused')).toHaveLength(3);
	});

	it('a retry after a refusal that clears returns the first output of the accepted items', async () => {
		ctx.sandbox.control.injectFault({ path: '/api/v2/post', kind: '503', count: 1 });
		// Both items go at once: one meets the 503, the other is accepted.
		const items = [await pdfItem(1, { tag: 'm-1' }), await pdfItem(1, { tag: 'm-2' })];
		const batching = { batching: { batch: { batchSize: 2, batchInterval: 0 } } };
		const result = await run(ctx.sandbox, { ...tagged, options: batching }, { items, retry: RETRY });
		expect(result.error).toBeUndefined();
		expect(result.items.map((i) => i.json.tag)).toEqual(['m-1', 'm-2']);
		expect(ordersTagged('m-1')).toHaveLength(1);
		expect(ordersTagged('m-2')).toHaveLength(1);
		expect(result.items.map((i) => i.json.id)).toEqual([ordersTagged('m-1')[0].id, ordersTagged('m-2')[0].id]);
	});

	it('an accepted item comes back unchanged when a later item fails after it', async () => {
		ctx.sandbox.control.injectFault({ path: '/api/v2/post', kind: '503', count: 1 });
		// Item 0 meets the 503; the retry sends it again (refused for sure) along with item 1.
		const items = [await pdfItem(1, { tag: 'a-1' }), await pdfItem(1, { tag: 'a-2', shipType: 6 })];
		const result = await run(ctx.sandbox, { ...tagged, shipType: '={{ $json.shipType ?? 2 }}' }, { items, retry: RETRY });
		expect(result.error).toBeDefined();
		expect(ordersTagged('a-1')).toHaveLength(1);
		const posts = ctx.sandbox.control.requests({ path: '/api/v2/post' });
		expect(posts.filter((r) => r.fields.tag === 'a-1').map((r) => r.status)).toEqual([503, 200]);
	});

	it('a create whose answer was lost is not sent again by a retry, and its error says so', async () => {
		ctx.sandbox.control.injectFault({ path: '/api/v2/post', kind: 'dropAfterAccept', count: 1 });
		const items = [await pdfItem(1, { tag: 'lost-1' }), await pdfItem(1, { tag: 'lost-2' })];
		const result = await run(ctx.sandbox, tagged, { items, retry: RETRY });
		expect(result.error?.message).toMatch(/may have been accepted\. It was not sent again/);
		expect(result.error?.description).toMatch(/Retry On Fail/);
		expect(ordersTagged('lost-1')).toHaveLength(1);
		// The run stops at its first item every time, so the second is never sent.
		expect(ctx.sandbox.control.requests({ path: '/api/v2/post' })).toHaveLength(1);
	});

	it('with Continue On Fail, a failed first item makes n8n retry: the other items are not sent again', async () => {
		ctx.sandbox.control.addChatNumber('+5511987650001');
		ctx.sandbox.control.addChatNumber('+5511987650002');
		ctx.sandbox.control.injectFault({ path: '/api/chat/v1/post', kind: '500', count: 1 });
		const result = await run(ctx.sandbox, SEND, {
			items: [{ json: { phone: '+5511987650001' } }, { json: { phone: '+5511987650002' } }],
			continueOnFail: true,
			retry: RETRY,
		});
		expect(result.items[0].json.error).toMatch(/internal error.*not sent again/);
		expect(result.items[0].json.description).toMatch(/Retry On Fail/);
		expect(result.items[1].json).toMatchObject({ status: 'processing' });
		const messages = ctx.sandbox.control.chatMessages();
		expect(messages.filter((m) => m.phone === '+5511987650002')).toHaveLength(1);
		expect(ctx.sandbox.control.requests({ path: '/api/chat/v1/post' })).toHaveLength(2);
	});

	it('a cancel that timed out is not repeated by a retry', async () => {
		const created = await run(ctx.sandbox, LETTER, { items: [await pdfItem(1)] });
		const id = String(created.items[0].json.id);
		ctx.sandbox.control.clearRequests();
		ctx.sandbox.control.injectFault({ path: '/api/v2/delete/', kind: 'slow', delayMs: 600 });
		const result = await run(ctx.sandbox, { resource: 'order', operation: 'cancel', orderId: id, options: { timeout: 200 } }, { retry: RETRY });
		expect(result.error?.message).toMatch(/did not answer in time; the request may have been accepted/);
		expect(ctx.sandbox.control.requests({ path: '/api/v2/delete/' })).toHaveLength(1);
	});

	it('without an execution id it refuses to send, naming the setting, rather than risk a second letter', async () => {
		const result = await run(ctx.sandbox, LETTER, { items: [await pdfItem(1)], retry: RETRY, executionId: null });
		expect(result.error?.message).toMatch(/Retry On Fail/);
		expect(ctx.sandbox.control.requests({ path: '/api/v2/post' })).toHaveLength(0);
		expect(ctx.sandbox.control.orders()).toHaveLength(0);
	});

	it('reads are not held back: a Get with Retry On Fail runs again', async () => {
		const created = await run(ctx.sandbox, LETTER, { items: [await pdfItem(1)] });
		const id = String(created.items[0].json.id);
		ctx.sandbox.control.clearRequests();
		ctx.sandbox.control.injectFault({ path: '/api/v2/get/', kind: '500', count: 3 });
		const result = await run(ctx.sandbox, { resource: 'order', operation: 'get', orderId: id }, { retry: RETRY });
		expect(result.error).toBeUndefined();
		expect(result.items[0].json.id).toBe(id);
	});

	it('a create whose tag holds $now is not sent again after a dropped answer, and its error says the parameters changed', async () => {
		ctx.sandbox.control.injectFault({ path: '/api/v2/post', kind: 'dropAfterAccept', count: 1 });
		const now = { ...LETTER, tag: "={{ 'nf-' + $now.toMillis() }}" };
		const result = await run(ctx.sandbox, now, { items: [await pdfItem(1)], retry: { maxTries: 3, waitBetweenTries: 20 } });
		expect(result.error?.message).toMatch(/parameters changed between tries; the earlier outcome stands/);
		expect(ctx.sandbox.control.orders().filter((o) => String(o.tag).startsWith('nf-'))).toHaveLength(1);
		expect(ctx.sandbox.control.requests({ path: '/api/v2/post' })).toHaveLength(1);
	});

	it('a chat message whose variable holds $now is not sent again after a 500 from the service that had created it', async () => {
		ctx.sandbox.control.addChatNumber('+5511987650001');
		const proxy = await startForeignProxy(ctx.sandbox.baseUrl);
		try {
			const internal = { status: 500, contentType: 'application/json', body: JSON.stringify({ status: 500, status_message: 'Erro interno', data: null }) };
			proxy.plan({ kind: 'replace', ...internal });
			const variables = { mappingMode: 'defineBelow', value: { ...CHAT_MESSAGE.variables.value, vencimento: '={{ $now.toISO() }}' } };
			const result = await run({ baseUrl: proxy.url }, { ...SEND, variables }, {
				items: [{ json: { phone: '+5511987650001' } }],
				retry: { maxTries: 3, waitBetweenTries: 20 },
			});
			expect(result.error?.message).toMatch(/parameters changed between tries; the earlier outcome stands/);
			expect(ctx.sandbox.control.chatMessages()).toHaveLength(1);
			expect(proxy.passed()).toBe(1);
		} finally {
			await proxy.close();
		}
	});

	it('an accepted item whose parameters change on the retry returns its first output and is not sent again', async () => {
		// Item 1 is refused by the service every time, so n8n retries the whole run.
		const items = [await pdfItem(1, { shipType: 2 }), await pdfItem(1, { shipType: 6 })];
		const parameters = { ...LETTER, shipType: '={{ $json.shipType }}', tag: "={{ 'rnd-' + Math.random() }}" };
		const result = await run(ctx.sandbox, parameters, { items, retry: RETRY });
		expect(result.error?.message).toMatch(/refused the request as invalid/);
		expect(ctx.sandbox.control.orders()).toHaveLength(1);
		const posts = ctx.sandbox.control.requests({ path: '/api/v2/post' });
		expect(posts.filter((r) => r.fields.shipType === '2')).toHaveLength(1);
	});

	describe('behind a proxy: its own 5xx or 429 after passing the request on is not a refusal', () => {
		for (const bare of ['503 text', '429 text', '502 html', '503 json']) {
			it(`a create answered ${bare} by the proxy is not sent again`, async () => {
				const proxy = await startForeignProxy(ctx.sandbox.baseUrl);
				try {
					const answer = BARE[bare];
					proxy.plan({ kind: 'replace', ...answer });
					const result = await run({ baseUrl: proxy.url }, tagged, { items: [await pdfItem(1, { tag: `proxy-${bare}` })], retry: RETRY });
					expect(result.error?.message).toMatch(/may have been accepted\. It was not sent again/);
					expect(ordersTagged(`proxy-${bare}`)).toHaveLength(1);
					expect(proxy.passed()).toBe(1);
				} finally {
					await proxy.close();
				}
			});
		}

		it("the service's own 503 (maintenance) is still a refusal: a retry sends it", async () => {
			ctx.sandbox.control.injectFault({ path: '/api/v2/post', kind: '503', count: 1 });
			const result = await run(ctx.sandbox, tagged, { items: [await pdfItem(1, { tag: 'own-503' })], retry: RETRY });
			expect(result.error).toBeUndefined();
			expect(ordersTagged('own-503')).toHaveLength(1);
		});
	});
});
