/**
 * What n8n's UX guidelines ask of a node's panel, checked on the description itself: every operation
 * added in its own file is held to them without an edit here.
 */
import type { INodeProperties, INodePropertyCollection, INodePropertyOptions, INodeTypeDescription } from 'n8n-workflow';
import { Expression, NodeHelpers } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { RESOURCES } from '../../nodes/PostalService/actions/resources';
import { descriptionTexts } from '../docs/messageCorpus';
import { nodeType } from '../harness/engine';
import { NODE, TRIGGER } from './fixture';

/** The operations that spend the account's credits. */
const PAYING = ['order.create', 'chatMessage.send', 'chatMessage.reprocess'];

type Option = INodePropertyOptions & { action?: string };

async function node(): Promise<INodeTypeDescription> {
	return (await nodeType(NODE)).description;
}

function operations(properties: INodeProperties[]): Array<{ key: string; option: Option }> {
	return properties
		.filter((p) => p.name === 'operation')
		.flatMap((p) => (p.options as Option[]).map((option) => ({ key: `${String(p.displayOptions?.show?.resource)}.${option.value}`, option })));
}

/** Every field of the node, nested ones included, with where it is. */
function fields(properties: INodeProperties[], at = ''): Array<{ where: string; field: INodeProperties }> {
	return properties.flatMap((field) => {
		const where = `${at}${field.name}@${String(field.displayOptions?.show?.resource ?? '')}.${String(field.displayOptions?.show?.operation ?? '')}`;
		const nested =
			field.type === 'collection'
				? fields(field.options as INodeProperties[], `${where} > `)
				: field.type === 'fixedCollection'
					? (field.options as INodePropertyCollection[]).flatMap((group) => fields(group.values, `${where} > `))
					: [];
		return [{ where, field }, ...nested];
	});
}

describe('the panel', () => {
	it("gives the trigger the node's description, which n8n's panel shows for both", async () => {
		expect((await nodeType(TRIGGER)).description.description).toBe((await node()).description);
	});

	it('shows under the node on the canvas the action it performs, in words', async () => {
		const { subtitle } = await node();
		for (const [resource, { operations: ops }] of Object.entries(RESOURCES)) {
			for (const [operation, { option }] of Object.entries(ops)) {
				const shown = Expression.resolveWithoutWorkflow(subtitle!.slice(1), { $parameter: { resource, operation } });
				expect(shown, `${resource}.${operation}`).toBe(option.action);
			}
		}
	});

	it('says where credits are spent: in the description, a notice on the operation and the AI tool, and nowhere else', async () => {
		const description = await node();
		const tool = (description.usableAsTool as { replacements: { properties: INodeProperties[] } }).replacements.properties;
		const toolActions = Object.fromEntries(operations(tool).map(({ key, option }) => [key, option.action]));
		const notices = description.properties.filter((p) => p.type === 'notice');
		for (const [resource, { operations: ops }] of Object.entries(RESOURCES)) {
			for (const [operation, module] of Object.entries(ops)) {
				const key = `${resource}.${operation}`;
				const paying = PAYING.includes(key);
				expect(module.spendsCredits === true, key).toBe(paying);
				expect(/spends credits/.test(module.option.description), `${key}: ${module.option.description}`).toBe(paying);
				const notice = notices.filter((p) => NodeHelpers.displayParameter({ resource, operation } as never, p, null, description));
				expect(notice.length, key).toBe(paying ? 1 : 0);
				if (paying) expect(notice[0].displayName, key).toMatch(/credits/);
				// Left on "Set Automatically", n8n describes a tool as "<action> in Postal Service".
				expect(toolActions[key], key).toBe(paying ? `${module.option.action} and spend credits` : module.option.action);
				expect(toolActions[key]?.length, key).toBeLessThanOrEqual(40);
			}
		}
		expect(RESOURCES.order.operations.getPrice.option.description).toMatch(/without sending it; spends nothing/);
	});

	it('gives every field help in words, no hint over 120 characters, and no flag as the explanation', async () => {
		const { properties } = await node();
		const all = fields(properties).filter(({ field }) => field.type !== 'notice' && field.name !== 'resource' && field.name !== 'operation');
		expect(all.length).toBeGreaterThan(60);
		for (const { where, field } of all) {
			const help = field.description ?? field.hint ?? '';
			expect(help.length, where).toBeGreaterThanOrEqual(15);
			expect(field.hint?.length ?? 0, where).toBeLessThanOrEqual(120);
			// A wire name may follow in parentheses; "toAddrOnly=1" as the explanation may not.
			expect(help, where).not.toMatch(/\b\w+=\d/);
			// An agent filling an ID reads its format.
			if (/Id$/.test(field.name) && field.name !== 'binaryPropertyName') expect(help, where).toMatch(/digits|numeric/i);
		}
	});

	it('chooses the ship type by its name', async () => {
		const shipType = (await node()).properties.find((p) => p.name === 'shipType')!;
		const names = (shipType.options as Option[]).map((o) => o.name);
		expect(names).toContain('Registered Letter + Return Receipt');
		for (const name of names) expect(name).not.toMatch(/\d/);
	});

	it('has no invalid default on an ID: empty, and required where the operation needs it', async () => {
		const ids = fields((await node()).properties).filter(({ field }) => /ID$/.test(field.displayName));
		expect(ids.map(({ field }) => field.name)).toEqual(expect.arrayContaining(['orderId', 'messageId', 'contactId', 'teamMemberId']));
		for (const { where, field } of ids) {
			const value = field.type === 'resourceLocator' ? (field.default as { value: unknown }).value : field.default;
			expect(value, where).toBe('');
			expect(field.type, where).not.toBe('number');
			expect(field.required, where).toBe(true);
		}
	});

	it('spells e-mail one way', async () => {
		// The texts a user reads: names, help, options and actions, as the docs' quote check reads them.
		const { labels, texts } = descriptionTexts([await node()]);
		const all = [...labels, ...texts];
		// "list_email" is a wire name in parentheses; "E-Mail" and "e-mail" are the spellings.
		const wrong = all.filter((text) => /(^|[^-_\w])[Ee]mail\b/.test(text));
		expect(wrong).toEqual([]);
	});

	it('offers each resource only its own file types', async () => {
		const description = await node();
		const fileTypes = (resource: string) =>
			(
				description.properties.find(
					(p) => p.name === 'fileType' && NodeHelpers.displayParameter({ resource, operation: 'downloadFile' } as never, p, null, description),
				)!.options as Option[]
			).map((o) => o.value);
		// A letter's file types are the contract's (order-create-returnReceipt.test.ts downloads each). The
		// spec names no file of a registered e-mail but the PDF: no telegram copy, no printed front.
		expect(fileTypes('registeredEmail')).toEqual(['pdf']);
		const emailFields = description.properties.filter((p) =>
			NodeHelpers.displayParameter({ resource: 'registeredEmail', operation: 'downloadFile', fileType: 'rr' } as never, p, null, description),
		);
		expect(emailFields.map((p) => p.name)).not.toContain('returnReceiptFileName');
	});
});
