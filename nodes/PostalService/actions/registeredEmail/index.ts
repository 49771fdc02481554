import type { INodeProperties } from 'n8n-workflow';

import * as cancel from './cancel.operation';
import * as downloadFile from './downloadFile.operation';
import * as get from './get.operation';

export { cancel, downloadFile, get };

// Creating a registered e-mail is named by the spec but not described: it is reachable through
// "Custom API Call" (see the README), not guessed here.
export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['registeredEmail'] } },
		options: [
			{
				name: 'Cancel',
				value: 'cancel',
				description: 'Cancel a registered e-mail (ID starting with E)',
				action: 'Cancel a registered email',
			},
			{
				name: 'Download File',
				value: 'downloadFile',
				description: 'Download a file of a registered e-mail as binary data',
				action: 'Download a registered email file',
			},
			{
				name: 'Get',
				value: 'get',
				description: 'Read a registered e-mail (ID starting with E)',
				action: 'Get a registered email',
			},
		],
		default: 'get',
	},
	...get.description,
	...downloadFile.description,
	...cancel.description,
];
