import type { INodeProperties } from 'n8n-workflow';

import * as reprocess from './reprocess.operation';
import * as send from './send.operation';

export { reprocess, send };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['chatMessage'] } },
		options: [
			{
				name: 'Reprocess',
				value: 'reprocess',
				description: 'Re-queue a message that stopped for lack of credits, after topping up',
				action: 'Reprocess a chat message',
			},
			{
				name: 'Send',
				value: 'send',
				description: 'Send an approved template message to a chat-app number; spends credits. Sent once, never repeated automatically.',
				action: 'Send a chat message',
			},
		],
		default: 'send',
	},
	...send.description,
	...reprocess.description,
];
