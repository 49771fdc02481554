import { describe, expect, it } from 'vitest';

import { credentialReadCount, listSearch } from '../harness/engine';
import { credentials, NODE, run, TOKEN, useSandbox } from './fixture';

const ctx = useSandbox();

async function readsDuring(action: () => Promise<unknown>): Promise<number> {
	const before = credentialReadCount();
	await action();
	return credentialReadCount() - before;
}

const balances = (n: number) => Array.from({ length: n }, (_, i) => ({ json: { i } }));

describe('Credential reads', () => {
	it('reads the credential once per run of the node, not once per item, sequential or batched', async () => {
		let result: Awaited<ReturnType<typeof run>> | undefined;
		const sequential = await readsDuring(async () => {
			result = await run(ctx.sandbox, { resource: 'account', operation: 'getBalance' }, { items: balances(20) });
		});
		expect(result?.error).toBeUndefined();
		expect(result?.items).toHaveLength(20);
		expect(sequential).toBe(1);

		const batched = await readsDuring(async () => {
			result = await run(
				ctx.sandbox,
				{ resource: 'account', operation: 'getBalance', options: { batching: { batch: { batchSize: 5, batchInterval: 0 } } } },
				{ items: balances(20) },
			);
		});
		expect(result?.items).toHaveLength(20);
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
		const reads = await readsDuring(async () => {
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
