/**
 * The action node's description: its resources and operations, which parameters each shows, and
 * what an agent reads.
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { RESOURCES } from '../../nodes/PostalService/actions/resources';
import { SHIP_TYPE_RULES } from '../../nodes/PostalService/contract/order';
import { nodeType } from '../harness/engine';
import { NODE, run, useSandbox } from './fixture';

const ctx = useSandbox();

type Option = { name: string; value: string; action: string; description: string };

function optionsOf(property: INodeProperties): Option[] {
	return property.options as Option[];
}

/** The parameters n8n shows for the given values (what the editor would display). */
async function visible(values: IDataObject): Promise<string[]> {
	const { description } = await nodeType(NODE);
	return description.properties.filter((p) => NodeHelpers.displayParameter(values as never, p, null, description)).map((p) => p.name);
}

describe('node description', () => {
	// The lists below come from the description itself: an operation added in its own file (and one
	// line of its resource's index.ts) is checked here without any edit of this file.
	it('offers every resource and operation, each run by its own module, with an action an agent can read', async () => {
		const description = (await nodeType(NODE)).description;
		expect(description.usableAsTool).toBeTruthy();
		const props = description.properties;
		const resources = optionsOf(props.find((p) => p.name === 'resource')!);
		expect(resources.map((r) => r.value).sort()).toEqual(Object.keys(RESOURCES).sort());
		// By what users do most, not alphabetically: sending a letter comes first.
		expect(resources.map((r) => r.name)).toEqual([
			'Letter',
			'Registered E-Mail',
			'Chat Message',
			'Account',
			'Order Receipt',
			'Chat Template',
			'Chat Sender',
			'Saved Contact',
		]);
		for (const { value: resource } of resources) {
			const [operation, ...others] = props.filter((p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource));
			expect(others, resource).toEqual([]);
			const options = optionsOf(operation);
			expect(options.length, resource).toBeGreaterThan(0);
			expect(options.map((o) => o.value), resource).toContain(operation.default);
			// In alphabetical order, as n8n's lint wants a hand-written option list.
			expect(options.map((o) => o.name), resource).toEqual(options.map((o) => o.name).sort((a, b) => a.localeCompare(b)));
			for (const option of options) {
				const op = option.value;
				// The module the router runs for it, under the same name (errors.test.ts runs every one).
				expect(RESOURCES[resource].operations[op]?.option.value, `${resource}.${op}`).toBe(op);
				// A verb and its object, at most 40 characters (the names are held to the guides by guides.test.ts).
				expect(option.action, `${resource}.${op}`).toMatch(/^[A-Z][a-z]+ [a-z][^()]*$/);
				expect(option.action.length, `${resource}.${op}: ${option.action}`).toBeLessThanOrEqual(40);
				expect(option.description.length, `${resource}.${op}`).toBeGreaterThan(20);
				// Extra Parameters sit in Options, as n8n's own nodes keep such settings, not first on the panel.
				expect(await visible({ resource, operation: op }), `${resource}.${op}`).not.toContain('extraParameters');
				expect(await visible({ resource, operation: op }), `${resource}.${op}`).toContain('options');
			}
		}
	});

	it.each([
		['order', 'nothing'],
		// Names only an object prototype has.
		['order', 'toString'],
		['order', 'constructor'],
		['registeredEmail', 'hasOwnProperty'],
		['account', '__proto__'],
	])('refuses by name the operation %s.%s it does not know, sending nothing', async (resource, operation) => {
		const result = await run(ctx.sandbox, { resource, operation });
		expect(result.error?.message).toBe(
			`The operation "${operation}" of "${resource}" is not known. For a route this node does not offer, use an HTTP Request node with the Postal Service credential (Authentication: Predefined Credential Type).`,
		);
		expect(ctx.sandbox.control.requests()).toEqual([]);
	});

	it('shows the parameters of each operation file for that operation only, and every parameter for some operation', async () => {
		const { description } = await nodeType(NODE);
		const shown = new Set<INodeProperties>();
		for (const [resource, { operations }] of Object.entries(RESOURCES)) {
			for (const [operation, module] of Object.entries(operations)) {
				// An operation may have no parameters of its own (Account > Get Balance).
				for (const property of module.description) {
					expect(property.displayOptions?.show, `${resource}.${operation}.${property.name}`).toMatchObject({ resource: [resource], operation: [operation] });
				}
				for (const p of description.properties) if (NodeHelpers.displayParameter({ resource, operation } as never, p, null, description)) shown.add(p);
			}
		}
		// Parameters that depend on another one (a ship type, Return All) count once any value of
		// theirs is shown; the top-level ones must all be reachable from some operation.
		const unreachable = description.properties.filter((p) => !shown.has(p) && Object.keys(p.displayOptions?.show ?? {}).every((key) => key === 'resource' || key === 'operation'));
		expect(unreachable.map((p) => p.name)).toEqual([]);
	});

	// Generated from the contract's ship-type rules: each field the panel shows for exactly the ship types that read it.
	it.each(Array.from({ length: 10 }, (_, i) => i + 1))('shows ship type %i its own fields only', async (shipType) => {
		const shown = await visible({ resource: 'order', operation: 'create', shipType, pdfSource: 'binary', telegramPostDated: true, paymentMethod: 'service_credits' });
		const rules: Array<[string, readonly number[]]> = [
			['pdfSource', SHIP_TYPE_RULES.pdf],
			['telegramMessage', SHIP_TYPE_RULES.telegram],
			['electronicLetterMessage', SHIP_TYPE_RULES.electronicLetter],
			['returnReceiptType', SHIP_TYPE_RULES.returnReceipt],
		];
		for (const [field, shipTypes] of rules) expect(shown.includes(field), field).toBe(shipTypes.includes(shipType));
		expect(shown).not.toContain('teamMemberId');
	});

	it('shows Address Only among the Additional Fields of the ship types that read it, and a team member for team payment', async () => {
		// Address Only, whose meaning the interface does not give, sits among the Additional Fields.
		const additional = (await nodeType(NODE)).description.properties.find((p) => p.name === 'additionalFields' && p.displayOptions?.show?.operation?.includes('create'));
		const addressOnly = (additional?.options as INodeProperties[]).find((option) => option.name === 'toAddrOnly');
		expect(addressOnly?.displayOptions).toEqual({ show: { '/shipType': [...SHIP_TYPE_RULES.toAddrOnly] } });
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
