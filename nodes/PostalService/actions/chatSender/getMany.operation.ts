import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { ItemCheck, listLimit, withItem } from '../item';
import type { ItemInput, ItemWork } from '../types';
import { forOperation, returnAllAndLimit } from '../descriptions';

export const option = {
	name: 'Get Many',
	value: 'getMany',
	description: 'List the business numbers that can send chat messages',
	action: 'Get many chat senders',
};

const properties: INodeProperties[] = [...returnAllAndLimit];

export const description = forOperation('chatSender', 'getMany', properties);

export function prepare(this: IExecuteFunctions, itemIndex: number, input: ItemInput): ItemWork {
	const qs = new ItemCheck(this, itemIndex).extraParameters(input);
	const limit = listLimit(this, itemIndex);
	return {
		send: async (call) => ((await call('getChatSenders', { qs })).data as IDataObject[]).slice(0, limit).map((sender) => withItem(sender, itemIndex)),
	};
}
