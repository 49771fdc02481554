import type { INodeProperties } from 'n8n-workflow';

import * as getBalance from './getBalance.operation';

export { getBalance };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['account'] } },
		options: [
			{
				name: 'Get Balance',
				value: 'getBalance',
				description: 'Read the credit balance of the account',
				action: 'Get the account balance',
			},
		],
		default: 'getBalance',
	},
	...getBalance.description,
];
