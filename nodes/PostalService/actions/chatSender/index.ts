import type { INodeProperties } from 'n8n-workflow';

import * as getMany from './getMany.operation';

export { getMany };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['chatSender'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getMany',
				description: 'List the business numbers that can send chat messages',
				action: 'Get many chat senders',
			},
		],
		default: 'getMany',
	},
	...getMany.description,
];
