import type { ICredentialDataDecryptedObject, IDataObject, INodeProperties } from 'n8n-workflow';
import { Expression, NodeHelpers } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { credentialType, nodeType } from '../harness/engine';
import { EMAIL, NODE, TOKEN, useSandbox } from './fixture';

const ctx = useSandbox();

const OPERATIONS: Record<string, string[]> = {
	account: ['getBalance', 'getLogo'],
	chatMessage: ['reprocess', 'send'],
	chatSender: ['getMany'],
	chatTemplate: ['getMany'],
	order: ['cancel', 'create', 'downloadFile', 'get', 'getPrice'],
	receipt: ['get'],
	registeredEmail: ['cancel', 'downloadFile', 'get'],
	savedContact: ['update'],
};

async function properties(): Promise<INodeProperties[]> {
	return (await nodeType(NODE)).description.properties;
}

/** The parameters n8n shows for the given values (what the editor would display). */
async function visible(values: IDataObject): Promise<string[]> {
	const { description } = await nodeType(NODE);
	return description.properties.filter((p) => NodeHelpers.displayParameter(values as never, p, null, description)).map((p) => p.name);
}

describe('node description', () => {
	it('offers every resource and operation, each with an action an agent can read', async () => {
		const description = (await nodeType(NODE)).description;
		expect(description.usableAsTool).toBe(true);
		expect(description.subtitle).toContain('$parameter["operation"]');
		const props = await properties();
		const resources = props.find((p) => p.name === 'resource')!.options!.map((o) => (o as { value: string }).value);
		expect(resources.sort()).toEqual(Object.keys(OPERATIONS).sort());
		for (const [resource, operations] of Object.entries(OPERATIONS)) {
			const operation = props.find((p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource))!;
			const options = operation.options as Array<{ value: string; action: string; description: string }>;
			expect(options.map((o) => o.value).sort(), resource).toEqual(operations);
			for (const option of options) {
				expect(option.action.length, `${resource}.${option.value}`).toBeGreaterThan(5);
				expect(option.description.length, `${resource}.${option.value}`).toBeGreaterThan(20);
			}
			for (const op of operations) {
				expect(await visible({ resource, operation: op }), `${resource}.${op}`).toContain('extraParameters');
				expect(await visible({ resource, operation: op }), `${resource}.${op}`).toContain('options');
			}
		}
	});

	it('shows each ship type its own fields only', async () => {
		const fields = async (shipType: number) => await visible({ resource: 'order', operation: 'create', shipType, pdfSource: 'binary', telegramPostDated: true, paymentMethod: 'service_credits' });
		const letter = await fields(2);
		expect(letter).toEqual(expect.arrayContaining(['pdfSource', 'binaryPropertyName', 'toAddrOnly']));
		expect(letter).not.toEqual(expect.arrayContaining(['telegramMessage']));
		expect(letter).not.toContain('electronicLetterMessage');
		expect(letter).not.toContain('returnReceiptType');
		expect(letter).not.toContain('teamMemberId');
		expect(await fields(3)).toContain('returnReceiptType');
		const telegram = await fields(4);
		expect(telegram).toEqual(expect.arrayContaining(['telegramMessage', 'telegramPostDatedDate', 'telegramSenderCopy']));
		expect(telegram).not.toContain('pdfSource');
		expect(telegram).not.toContain('toAddrOnly');
		const electronic = await fields(10);
		expect(electronic).toEqual(expect.arrayContaining(['electronicLetterMessage', 'returnReceiptType', 'toAddrOnly']));
		expect(electronic).not.toContain('pdfSource');
		expect(await fields(1)).not.toContain('toAddrOnly');
		expect(await visible({ resource: 'order', operation: 'create', shipType: 2, paymentMethod: 'team' })).toContain('teamMemberId');
	});

	it('uses the chat credential only for chat resources', async () => {
		const { description } = await nodeType(NODE);
		const needed = (resource: string) =>
			description.credentials!.filter((c) => NodeHelpers.displayParameter({ resource } as never, c, null, description)).map((c) => c.name);
		expect(needed('order')).toEqual(['postalServiceApi']);
		expect(needed('chatMessage')).toEqual(['postalServiceChatApi']);
		expect(needed('chatTemplate')).toEqual(['postalServiceChatApi']);
	});
});

/**
 * Runs a credential's test request the way n8n would, applying its generic authenticate. n8n
 * resolves these expressions with its global context (encodeURIComponent among it); the plain
 * resolver used here has none, so the one global the credential uses is handed over.
 */
async function credentialTest(name: string, data: ICredentialDataDecryptedObject): Promise<number> {
	const type = (await credentialType(name))!;
	const resolve = (value: unknown) =>
		typeof value === 'string' && value.startsWith('=') ? String(Expression.resolveWithoutWorkflow(value.slice(1), { $credentials: data, encodeURIComponent })) : String(value);
	const request = type.test!.request;
	const headers: Record<string, string> = {};
	const auth = type.authenticate as { properties: { headers?: Record<string, string>; auth?: { username: string; password: string } } };
	for (const [key, value] of Object.entries(auth.properties.headers ?? {})) headers[key] = resolve(value);
	if (auth.properties.auth) {
		headers.authorization = `Basic ${Buffer.from(`${resolve(auth.properties.auth.username)}:${resolve(auth.properties.auth.password)}`).toString('base64')}`;
	}
	const response = await fetch(`${resolve(request.baseURL)}${resolve(request.url)}`, { method: request.method, headers });
	return response.status;
}

describe('credentials', () => {
	it('Postal Service API: the test reads the balance; authenticate sends the securityToken header', async () => {
		const base = `${ctx.sandbox.baseUrl}/`;
		expect(await credentialTest('postalServiceApi', { baseUrl: base, securityToken: TOKEN })).toBe(200);
		expect(await credentialTest('postalServiceApi', { baseUrl: base, securityToken: 'nope' })).toBe(401);
		expect(ctx.sandbox.control.requests().map((r) => r.path)).toEqual([`/api/v2/balance/${TOKEN}`, '/api/v2/balance/nope']);
		const type = await credentialType('postalServiceApi');
		expect(type?.properties.find((p) => p.name === 'securityToken')?.typeOptions?.password).toBe(true);
	});

	it('Postal Service Chat API: HTTP Basic, the test lists senders', async () => {
		const base = ctx.sandbox.baseUrl;
		expect(await credentialTest('postalServiceChatApi', { baseUrl: base, email: EMAIL, securityToken: TOKEN })).toBe(200);
		expect(await credentialTest('postalServiceChatApi', { baseUrl: base, email: EMAIL, securityToken: 'nope' })).toBe(401);
		const [request] = ctx.sandbox.control.requests({ path: '/api/chat/v1/senders/get' });
		expect(request.headers.authorization).toBe(`Basic ${Buffer.from(`${EMAIL}:${TOKEN}`).toString('base64')}`);
		const type = await credentialType('postalServiceChatApi');
		expect(type?.properties.find((p) => p.name === 'securityToken')?.typeOptions?.password).toBe(true);
	});
});
