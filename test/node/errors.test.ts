import { describe, expect, it } from 'vitest';

import { CHAT_FIELD_NAMES } from '../../nodes/PostalService/actions/chatMessage/send.operation';
import { CREATE_FIELD_NAMES } from '../../nodes/PostalService/actions/shared/letterOrder.description';
import { createSchema } from '../../sandbox/create';
import { EVERY_OPERATION, everyOperation } from '../harness/sends';
import { CHAT_MESSAGE, EMAIL, LETTER, letterCreator, pdfItem, run, TOKEN, useFakeService, useSandbox } from './fixture';

const ctx = useSandbox();

/** Every form the token could take in the run data. */
function expectNoToken(serialized: string, token = TOKEN) {
	for (const form of [token, encodeURIComponent(token), Buffer.from(token).toString('base64'), Buffer.from(`${EMAIL}:${token}`).toString('base64')]) {
		expect(serialized).not.toContain(form);
	}
}

const createdOrderId = letterCreator(ctx);

// What the fault matrix proves for every write (a 500, a 503, a 429, a timeout, a dropped connection,
// never resent), the Addresses family (an unusable Base URL, a refused connection), the timeouts family and
// the release family of Continue On Fail (test/releases/errorOutput.test.ts) is not repeated here, nor the
// service's own 400 in its words (pdfRules.test.ts through the sandbox, the field family below for each field).
describe('failures: what the user reads, and the token nowhere', () => {
	// One wrong token per operation: every route, auth placement and envelope says what to check, is
	// not tried again, and keeps the token (slashes and plus signs included) out of the run data.
	it.each(Object.keys(EVERY_OPERATION))('401 on %s: check the token, once, the token nowhere', async (key) => {
		const wrong = 'wrong/Token+77';
		const { parameters, items } = (await everyOperation())[key];
		const result = await run(ctx.sandbox, parameters, { items, token: wrong });
		expect(result.error?.message).toMatch(/Check the security token|did not accept the credentials/);
		expect(result.error?.description).toMatch(/inválid|Não autorizado|invalid credentials/i);
		expectNoToken(result.serialized, wrong);
		expect(ctx.sandbox.control.requests()).toHaveLength(1);
	});

	it('500 on a read: retried with back-off, then reported', async () => {
		const id = await createdOrderId();
		ctx.sandbox.control.clearRequests();
		ctx.sandbox.control.injectFault({ path: '/api/v2/get/', kind: '500', count: 5 });
		const result = await run(ctx.sandbox, { resource: 'order', operation: 'get', orderId: id });
		expect(result.error?.message).toMatch(/internal error/);
		expect(ctx.sandbox.control.requests({ path: /^\/api\/v2\/get\// })).toHaveLength(3);
		expectNoToken(result.serialized);
	});

	it('a read that meets one 503 succeeds on the retry', async () => {
		const id = await createdOrderId();
		ctx.sandbox.control.clearRequests();
		ctx.sandbox.control.injectFault({ path: '/api/v2/download/', kind: '503', count: 1 });
		const result = await run(ctx.sandbox, { resource: 'order', operation: 'downloadFile', orderId: id, fileType: 'pdf' });
		expect(result.error).toBeUndefined();
		expect(result.items[0].binary?.data).toBeDefined();
		expect(ctx.sandbox.control.requests({ path: /^\/api\/v2\/download\// }).map((r) => r.status)).toEqual([503, 200]);
	});

	it('a stopped run names the items for which nothing was sent', async () => {
		ctx.sandbox.control.injectFault({ method: 'POST', path: '/api/v2/post', kind: '429', skip: 1 });
		const items = [await pdfItem(1), await pdfItem(1), await pdfItem(1), await pdfItem(1)];
		const parameters = { ...LETTER, additionalFields: { checkWithService: 'never' }, options: { batching: { batch: { batchSize: 2, batchInterval: 1500 } } } };
		const result = await run(ctx.sandbox, parameters, { items });
		// Items 1 and 2 start together: either may be the one refused.
		expect(result.error?.message).toMatch(/^Item [12] of 4: /);
		expect(result.error?.description).toMatch(/Nothing was sent for item 3, item 4: send them again once the cause is fixed\./);
		expect(ctx.sandbox.control.requests({ path: '/api/v2/post' })).toHaveLength(2);
	});
});

// The service's refusals name a field by its wire name (how it words them is not shown): every field
// the panel offers, for each operation that sends named fields, is named back as the panel shows it.
describe('a refusal that names a field names the field of the panel', () => {
	const SOURCES: Record<string, { parameters: Record<string, unknown>; pdfFile: string; items: boolean }> = {
		'File From a Previous Node': { parameters: {}, pdfFile: 'Input Binary Field', items: true },
		Link: { parameters: { pdfSource: 'url', pdfUrl: 'https://example.com/carta.pdf' }, pdfFile: 'PDF URL', items: false },
		'Base64 Text': { parameters: { pdfSource: 'base64', pdfBase64: 'JVBERi0xLjQK' }, pdfFile: 'PDF Base64', items: false },
	};
	const letterFields = Object.entries(CREATE_FIELD_NAMES).flatMap(([wire, label]) =>
		wire === 'pdfFile'
			? Object.entries(SOURCES).map(([source, { pdfFile }]) => ({ case: `${wire} (PDF Source: ${source})`, wire, label: pdfFile, source }))
			: [{ case: wire, wire, label, source: 'File From a Previous Node' }],
	);
	it("names every field of the create-order table (the sandbox's reading of it) but the two the node owns", () => {
		const owned = ['test'];
		expect(Object.keys(createSchema.shape).filter((wire) => !owned.includes(wire) && !(wire in CREATE_FIELD_NAMES))).toEqual([]);
		expect(CREATE_FIELD_NAMES.pdfFile).toBeDefined();
	});

	const fake = useFakeService();
	const refusing = (said: string) => Object.assign(fake.answer, { status: 400, body: JSON.stringify({ status: 400, status_message: said, data: null }) });

	it.each(letterFields.flatMap((field) => ['create', 'getPrice'].map((operation) => ({ ...field, operation }))))('Letter > $operation, $case', async ({ wire, label, source, operation }) => {
		refusing(`${wire}: valor inválido`);
		const { parameters, items } = SOURCES[source];
		const result = await run(fake, { ...LETTER, operation, ...parameters }, { items: items ? [await pdfItem(1)] : [{ json: {} }] });
		expect(result.error?.message).toBe(`The service refused "${label}" (${wire}): fix it and run again.${operation === 'create' ? ' Nothing was sent.' : ''} The service said: ${wire}: valor inválido`);
	});

	it.each(Object.entries(CHAT_FIELD_NAMES))('Chat Message > Send, %s', async (wire, label) => {
		refusing(`Campo ${wire} inválido`);
		const result = await run(fake, CHAT_MESSAGE);
		expect(result.error?.message).toBe(`The service refused "${label}" (${wire}): fix it and run again. Nothing was sent. The service said: Campo ${wire} inválido`);
	});
});
