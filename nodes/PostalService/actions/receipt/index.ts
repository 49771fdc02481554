import type { INodeProperties } from 'n8n-workflow';

import * as get from './get.operation';

export { get };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['receipt'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				description: 'Get the receipt of an order; a receipt file comes out as binary data',
				action: 'Get the receipt of an order',
			},
		],
		default: 'get',
	},
	...get.description,
];
