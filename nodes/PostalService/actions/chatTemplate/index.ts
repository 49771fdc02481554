import type { INodeProperties } from 'n8n-workflow';

import * as getMany from './getMany.operation';

export { getMany };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['chatTemplate'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getMany',
				description: 'List chat templates with their status and variable names',
				action: 'Get many chat templates',
			},
		],
		default: 'getMany',
	},
	...getMany.description,
];
