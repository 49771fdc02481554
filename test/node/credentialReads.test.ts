import { describe, expect, it } from 'vitest';

import { credentialReadCount, listSearch } from '../harness/engine';
import { credentials, NODE, run, TOKEN, useSandbox } from './fixture';

const ctx = useSandbox();

/** The credential reads during an action, and what it gave. */
async function readsDuring<T>(action: () => Promise<T>): Promise<[number, T]> {
	const before = credentialReadCount();
	const result = await action();
	return [credentialReadCount() - before, result];
}

const balances = (n: number) => Array.from({ length: n }, (_, i) => ({ json: { i } }));

describe('Credential reads', () => {
	it('reads the credential once per run of the node, not once per item, sequential or batched', async () => {
		const balance = { resource: 'account', operation: 'getBalance' };
		const [sequential, result] = await readsDuring(() => run(ctx.sandbox, balance, { items: balances(20) }));
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(20);
		expect(sequential).toBe(1);

		const options = { batching: { batch: { batchSize: 5, batchInterval: 0 } } };
		const [batched, inBatches] = await readsDuring(() => run(ctx.sandbox, { ...balance, options }, { items: balances(20) }));
		expect(inBatches.items).toHaveLength(20);
		expect(batched).toBe(1);
		expect(ctx.sandbox.control.requests({ path: /^\/api\/v2\/balance\// })).toHaveLength(40);
	});

	it('reads again in the next execution, so a changed token is used at once', async () => {
		const first = await run(ctx.sandbox, { resource: 'account', operation: 'getBalance' }, { items: balances(2) });
		expect(first.error).toBeUndefined();
		const second = await run(ctx.sandbox, { resource: 'account', operation: 'getBalance' }, { items: balances(2), token: 'zzz-wrong' });
		expect(second.error).toBeDefined();
		const paths = ctx.sandbox.control.requests({ path: /^\/api\/v2\/balance\// }).map((r) => r.path);
		expect(paths).toEqual([`/api/v2/balance/${TOKEN}`, `/api/v2/balance/${TOKEN}`, '/api/v2/balance/zzz-wrong']);
	});

	it('reads the credential for each list the editor loads', async () => {
		const [reads] = await readsDuring(async () => {
			for (let i = 0; i < 2; i++) {
				const { results: senders } = await listSearch({
					type: NODE,
					method: 'searchSenders',
					parameters: { resource: 'chatMessage', operation: 'send' },
					credentials: credentials(ctx.sandbox.baseUrl),
				});
				expect(senders.length).toBeGreaterThan(0);
			}
		});
		expect(reads).toBe(2);
	});
});
