import type { INodeProperties } from 'n8n-workflow';

import * as update from './update.operation';

export { update };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['savedContact'] } },
		options: [
			{
				name: 'Update',
				value: 'update',
				description: 'Change some fields of a saved contact; the others keep their value',
				action: 'Update a saved contact',
			},
		],
		default: 'update',
	},
	...update.description,
];
