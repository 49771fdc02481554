/**
 * The trigger's description, its credential test, and a webhook lifecycle with nothing to register
 * remotely.
 */
import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { nodeType } from '../harness/engine';

describe('trigger: description, credential test and webhook lifecycle', () => {
	it('is a trigger n8n answers for once the execution is stored, and is not offered as a tool', async () => {
		const type = await nodeType('n8n-nodes-postal-service.postalServiceTrigger');
		expect(type.description.usableAsTool).toBeUndefined();
		expect(type.description.inputs).toEqual([]);
		expect(type.description.webhooks).toEqual([expect.objectContaining({ httpMethod: 'POST', responseMode: 'onReceived', responseData: '' })]);
		const names = type.description.properties.flatMap((p) => [p.name, ...((p.options ?? []) as Array<{ name: string }>).map((o) => o.name)]);
		expect(names).not.toContain('answer');
		expect(names).not.toContain('crossWorkerWaitMs');
		expect(type.description.credentials).toEqual([
			{ name: 'postalServiceWebhookApi', required: true, testedBy: 'signingSecretTest' },
		]);
	});

	it('tests the secret locally and says it cannot be confirmed remotely', async () => {
		const type = await nodeType('n8n-nodes-postal-service.postalServiceTrigger');
		const test = type.methods!.credentialTest!.signingSecretTest;
		const run = (secret: string) =>
			test.call({} as never, { id: '1', name: 'c', type: 'postalServiceWebhookApi', data: { secret } });
		expect(await run('')).toMatchObject({ status: 'Error' });
		expect(await run('abc\n')).toMatchObject({ status: 'Error' });
		const ok = await run('abc');
		expect(ok.status).toBe('OK');
		expect(ok.message).toMatch(/test button/);
	});

	it('has nothing to register remotely: the lifecycle reports success and stores nothing', async () => {
		const type = await nodeType('n8n-nodes-postal-service.postalServiceTrigger');
		const lifecycle = type.webhookMethods!.default!;
		const staticData: IDataObject = {};
		const context = { getWorkflowStaticData: () => staticData, getNode: () => ({ parameters: {} }) } as never;
		expect(await lifecycle.checkExists.call(context)).toBe(true);
		expect(await lifecycle.create.call(context)).toBe(true);
		expect(await lifecycle.delete.call(context)).toBe(true);
		expect(staticData).toEqual({});
	});

});
