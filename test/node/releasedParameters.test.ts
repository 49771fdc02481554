/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
// A released node version keeps its parameters: workflows saved with it must run as they did.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { INodeProperties } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { brokenPromises, parameterRecord, readRecords, recordsOf } from '../../scripts/release/releasedParameters.mjs';
import { credentialType, nodeType } from '../harness/engine';
import { NODE, TRIGGER } from './fixture';

const CREDENTIALS = ['postalServiceApi', 'postalServiceChatApi', 'postalServiceWebhookApi'];

async function currentRecords() {
	const credentials = await Promise.all(CREDENTIALS.map(async (name) => (await credentialType(name))!));
	return recordsOf([await nodeType(NODE), await nodeType(TRIGGER)], credentials);
}

const copy = (properties: INodeProperties[]) => structuredClone(properties);

describe('released node versions', () => {
	it('each released node version and credential keeps every parameter it was released with', async () => {
		const current = await currentRecords();
		expect(Object.keys(current)).toEqual(expect.arrayContaining(['node postalService v1', 'node postalServiceTrigger v1', 'credential postalServiceApi']));
		// What `npm run release -- --record-parameters` writes reads back as a kept promise.
		const file = path.join(mkdtempSync(path.join(tmpdir(), 'released-')), 'parameters.json');
		writeFileSync(file, JSON.stringify(current, null, '\t'));
		for (const [key, record] of Object.entries(readRecords(file))) expect(brokenPromises(record, current[key]), key).toEqual([]);
		for (const [key, record] of Object.entries(readRecords())) {
			expect(current[key], `${key} is no longer described`).toBeDefined();
			expect(brokenPromises(record, current[key], `${key}: `), `${key} changed since its release: add a node version instead`).toEqual([]);
		}
	});

	it('names each way a change would break a released version, and lets additions pass', async () => {
		const { properties } = (await nodeType(NODE)).description;
		const released = parameterRecord(properties, 1);
		expect(brokenPromises(released, parameterRecord(copy(properties), 1))).toEqual([]);

		const changed = copy(properties);
		const find = (name: string) => changed.find((p) => p.name === name)!;
		find('tag').name = 'reference';
		find('shipType').default = 99;
		const resource = find('resource');
		resource.options = resource.options!.filter((o) => (o as { value: string }).value !== 'chatMessage');
		const additional = changed.find((p) => p.name === 'additionalFields' && (p.options ?? []).some((o) => o.name === 'maxPrice'))!;
		(additional.options!.find((o) => o.name === 'maxPrice') as INodeProperties).type = 'string';
		find('recipientName').displayOptions = { show: { resource: ['order'] } };
		// Additions keep what was released: a new parameter, a new option value.
		changed.push({ displayName: 'New', name: 'brandNew', type: 'string', default: '' });
		resource.options!.push({ name: 'New', value: 'brandNew' });

		const problems = brokenPromises(released, parameterRecord(changed, 1));
		expect(problems).toEqual(
			expect.arrayContaining([
				expect.stringMatching(/^"tag".* is gone$/),
				expect.stringMatching(/^"shipType".*: its default changed$/),
				'"resource": option "chatMessage" is gone',
				expect.stringMatching(/^"additionalFields".* > "maxPrice".*: its type changed$/),
				expect.stringMatching(/^"recipientName" \(shown with .*\) is gone$/),
			]),
		);
		expect(problems.filter((p) => p.includes('brandNew'))).toEqual([]);
	});

	it('holds a version only to the parameters that version shows', () => {
		const properties: INodeProperties[] = [
			{ displayName: 'Old', name: 'old', type: 'string', default: '', displayOptions: { show: { '@version': [1] } } },
			{ displayName: 'Both', name: 'both', type: 'string', default: '' },
		];
		expect(parameterRecord(properties, 2).map((p) => p.name)).toEqual(['both']);
		expect(brokenPromises(parameterRecord(properties, 1), parameterRecord(properties.slice(1), 1))).toEqual([expect.stringMatching(/^"old" .* is gone$/)]);
	});
});
