/**
 * Order > Get and Download File through n8n: the order's ID checked before any request, its files
 * by type and name. What a read gives, Simplify on and off, is docs/outputs.md's from a real run
 * (test/docs/outputs.test.ts).
 */
import { describe, expect, it } from 'vitest';

import { EMAIL_ID, LETTER_ID } from '../../nodes/PostalService/actions/shared/lettersAndEmails';
import { binaryBuffer } from '../harness/engine';
import { letterCreator, makePdf, run, useSandbox } from './fixture';

const ctx = useSandbox();
const createLetter = letterCreator(ctx);

describe('Order > Get', () => {
	it('refuses a malformed id without a request', async () => {
		const malformed = await run(ctx.sandbox, { resource: 'order', operation: 'get', orderId: '12/../balance' });
		expect(malformed.error?.message).toMatch(/orderId/);
		expect(ctx.sandbox.control.requests({ path: /^\/api\/v2\/get\// })).toHaveLength(0);
	});

	it('reads the id from its By ID locator, whose editor check agrees with the run-time check', async () => {
		const id = await createLetter();
		const located = await run(ctx.sandbox, { resource: 'order', operation: 'get', orderId: { __rl: true, mode: 'id', value: id } });
		expect(located.error).toBeUndefined();
		expect(located.items[0].json).toMatchObject({ id });
		// n8n itself refuses a typed value its check rejects, before the node runs
		await expect(
			run(ctx.sandbox, { resource: 'order', operation: 'get', orderId: { __rl: true, mode: 'id', value: 'E5001' } }),
		).rejects.toThrow(/A letter ID is made of digits/);
		// an expression is only known at run time, where the node checks it again
		const fromExpression = await run(ctx.sandbox, {
			resource: 'order',
			operation: 'get',
			orderId: { __rl: true, mode: 'id', value: '={{ "E" + "5001" }}' },
		});
		expect(fromExpression.error?.message).toMatch(/orderId/);
		expect(ctx.sandbox.control.requests({ path: /^\/api\/v2\/get\/.*E5001/ })).toHaveLength(0);

		// The locator's check in the editor and the run-time one take and refuse the same ids.
		for (const [kind, good, bad] of [
			[LETTER_ID, ['123456', ' 42 '], ['E123456', '12a', '', '12/../balance']],
			[EMAIL_ID, ['E123456', 'E1'], ['123456', 'e123', 'E', 'E12/x']],
		] as const) {
			const validation = kind.property.modes?.[0].validation?.[0] as unknown as { properties: { regex: string } };
			const editor = new RegExp(validation.properties.regex);
			for (const value of [...good, ...bad]) {
				const taken = (good as readonly string[]).includes(value);
				expect([editor.test(value), kind.pattern.test.test(value.trim())], `${kind.property.displayName}: ${value}`).toEqual([taken, taken]);
			}
		}
	});
});

describe('Order > Download File', () => {
	it('picks one return receipt by name', async () => {
		const id = await createLetter({ shipType: 3 });
		const first = await makePdf(1);
		const second = await makePdf(2);
		ctx.sandbox.control.addReturnReceipt(id, { rrType: 'rr', pdf: first });
		ctx.sandbox.control.addReturnReceipt(id, { rrType: 'rr', pdf: second });
		const files = (ctx.sandbox.control.order(id)?.files as Array<{ name: string; type: string }>).filter((f) => f.type === 'rr');
		const result = await run(ctx.sandbox, {
			resource: 'order',
			operation: 'downloadFile',
			orderId: id,
			fileType: 'rr',
			returnReceiptFileName: files[0].name,
			binaryPropertyName: 'receipt',
		});
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ file_name: files[0].name, file_type: 'rr', id_job: id });
		expect((await binaryBuffer(result.items[0], 'receipt')).equals(first)).toBe(true);
		const [request] = ctx.sandbox.control.requests({ path: /^\/api\/v2\/download\// });
		expect(request.query).toMatchObject({ file_name: files[0].name });
	});
});
