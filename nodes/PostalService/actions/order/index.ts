import type { INodeProperties } from 'n8n-workflow';

import { extraParameters } from '../common';
import * as cancel from './cancel.operation';
import * as create from './create.operation';
import * as downloadFile from './downloadFile.operation';
import { orderFields } from './fields';
import * as get from './get.operation';
import * as getPrice from './getPrice.operation';

export { cancel, create, downloadFile, get, getPrice };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['order'] } },
		options: [
			{
				name: 'Cancel',
				value: 'cancel',
				description: 'Cancel an order that is still processing or lacks credits (or any order, with Force)',
				action: 'Cancel an order',
			},
			{
				name: 'Create',
				value: 'create',
				description:
					'Send a letter, telegram, direct mail, express parcel or electronic letter; spends credits. Sent once, never repeated automatically.',
				action: 'Create an order',
			},
			{
				name: 'Download File',
				value: 'downloadFile',
				description: 'Download the PDF, letter front, return receipt or sender copy of an order as binary data',
				action: 'Download an order file',
			},
			{
				name: 'Get',
				value: 'get',
				description: 'Read an order: status, tracking, files, cost',
				action: 'Get an order',
			},
			{
				name: 'Get Price',
				value: 'getPrice',
				description: 'Validate an order and return its price without creating it',
				action: 'Get the price of an order',
			},
		],
		default: 'create',
	},
	...orderFields,
	extraParameters('order', ['create', 'getPrice'], 'body'),
	...get.description,
	...downloadFile.description,
	...cancel.description,
];
