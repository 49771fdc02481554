import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { fetchSenders } from '../../methods/chat';
import { extraParameters, limitList, readExtraParameters, returnAllAndLimit, withItem } from '../common';

export const description: INodeProperties[] = [
	...returnAllAndLimit('chatSender', 'getMany'),
	extraParameters('chatSender', ['getMany'], 'query'),
];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const senders = await fetchSenders(this, itemIndex, readExtraParameters(this, itemIndex));
	return limitList(this, itemIndex, senders).map((s) => withItem(s, itemIndex));
}
