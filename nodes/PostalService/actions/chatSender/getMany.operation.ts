import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { fetchSenders } from '../../methods/chat';
import { limitList, readExtraParameters, withItem } from '../common';
import { returnAllAndLimit, updateDisplayOptions } from '../descriptions';

export const option = {
	name: 'Get Many',
	value: 'getMany',
	description: 'List the business numbers that can send chat messages',
	action: 'Get many chat senders',
};

const properties: INodeProperties[] = [...returnAllAndLimit];

export const description = updateDisplayOptions({ show: { resource: ['chatSender'], operation: ['getMany'] } }, properties);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const senders = await fetchSenders(this, itemIndex, readExtraParameters(this, itemIndex));
	return limitList(this, itemIndex, senders).map((s) => withItem(s, itemIndex));
}
