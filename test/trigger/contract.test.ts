/**
 * The webhook lists are defined once (nodes/PostalServiceTrigger/webhookLists.ts): the trigger's
 * options follow them, and so does the sandbox, which imports them and sends every event to the
 * trigger in the events of docs/trigger.md made from a run (test/docs/outputs.test.ts); the README's
 * Events: test/docs/guides.test.ts. And the trigger's description, its credential test, and a
 * webhook lifecycle with nothing to register remotely.
 */
import type { IDataObject, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { ENVIRONMENTS, RR_TYPES, WEBHOOK_EVENT_NAMES, WEBHOOK_EVENTS } from '../../nodes/PostalServiceTrigger/webhookLists';
import { TRIGGER_ASSUMPTIONS } from '../../scripts/check-service/assumptions';
import { nodeType } from '../harness/engine';
import { TRIGGER_TYPE } from './support';

async function property(name: string): Promise<INodeProperties> {
	const found = (await nodeType(TRIGGER_TYPE)).description.properties.find((p) => p.name === name);
	if (!found) throw new Error(`the trigger has no property ${name}`);
	return found;
}

describe('webhook contract', () => {
	it('is what the trigger offers: every event, in alphabetical order, all chosen by default', async () => {
		const events = await property('events');
		const options = events.options as INodePropertyOptions[];
		expect(options).toEqual(
			[...WEBHOOK_EVENTS]
				.sort((a, b) => a.name.localeCompare(b.name))
				.map(({ name, value, description }) => ({ name, value, description })),
		);
		expect(events.default).toEqual([...WEBHOOK_EVENT_NAMES]);
		expect(RR_TYPES).toEqual(['rr', 'rr_electronic']);
	});

	it('is what the trigger offers: every environment, then both', async () => {
		const environment = await property('environment');
		expect(environment.options).toEqual([
			...ENVIRONMENTS.map(({ name, value }) => ({ name, value })),
			{ name: 'Both', value: 'both' },
		]);
	});

	it("names in each guess's way around only options and item fields the trigger has", async () => {
		const options = ((await property('options')).options ?? []) as INodeProperties[];
		const environment = (await property('environment')).description ?? '';
		const text = TRIGGER_ASSUMPTIONS.map(({ wayAround }) => wayAround).join('\n');
		for (const quoted of text.match(/"[^"]+"/g) ?? []) {
			const name = quoted.slice(1, -1);
			const known = options.some((option) => option.displayName === name) || name === 'timestampHeaderZone';
			expect(known, name).toBe(true);
		}
		expect(text).toMatch(/Maximum Age/);
		expect(options.map((option) => option.displayName)).toContain('Maximum Age (Seconds)');
		expect(environment).toMatch(/Both/);
		for (const assumption of TRIGGER_ASSUMPTIONS) expect(assumption.wayAround.length).toBeGreaterThan(40);
	});
});

describe('trigger: description, credential test and webhook lifecycle', () => {
	it('is a trigger n8n answers for once the execution is stored, and is not offered as a tool', async () => {
		const type = await nodeType(TRIGGER_TYPE);
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
		const type = await nodeType(TRIGGER_TYPE);
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
		const type = await nodeType(TRIGGER_TYPE);
		const lifecycle = type.webhookMethods!.default!;
		const staticData: IDataObject = {};
		const context = { getWorkflowStaticData: () => staticData, getNode: () => ({ parameters: {} }) } as never;
		expect(await lifecycle.checkExists.call(context)).toBe(true);
		expect(await lifecycle.create.call(context)).toBe(true);
		expect(await lifecycle.delete.call(context)).toBe(true);
		expect(staticData).toEqual({});
	});

});
