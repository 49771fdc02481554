import type { INodeProperties } from 'n8n-workflow';

import * as getBalance from './getBalance.operation';
import * as getLogo from './getLogo.operation';

export { getBalance, getLogo };

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
			{
				name: 'Get Logo',
				value: 'getLogo',
				description: 'Get the URL of the sender logo printed on letters',
				action: 'Get the sender logo',
			},
		],
		default: 'getBalance',
	},
	...getBalance.description,
	...getLogo.description,
];
