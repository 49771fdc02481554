import type { IExecuteFunctions } from 'n8n-workflow';

import { forOperation } from '../descriptions';
import { asObject, ItemCheck, withItem } from '../item';
import type { ItemInput, ItemWork } from '../types';

export const option = {
	name: 'Get Logo',
	value: 'getLogo',
	description: 'Get the link to the sender logo the service prints on letters',
	action: 'Get sender logo',
};

export const description = forOperation('account', 'getLogo', []);

export function prepare(this: IExecuteFunctions, itemIndex: number, input: ItemInput): ItemWork {
	const qs = new ItemCheck(this, itemIndex).extraParameters(input);
	return { send: async (call) => [withItem(asObject((await call('getLogo', { qs })).data), itemIndex)] };
}
