import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { requestOptions } from './actions/options';
import { resourceProperties } from './actions/resources';
import { router } from './actions/router';
import { listSearch, resourceMapping } from './methods';

const CHAT_RESOURCES = ['chatMessage', 'chatSender', 'chatTemplate'];

export class PostalService implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Postal Service',
		name: 'postalService',
		icon: { light: 'file:../../icons/postalService.svg', dark: 'file:../../icons/postalService.dark.svg' },
		group: ['output'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			'Send registered letters, telegrams, electronic letters and chat template messages through a Brazilian postal-mail service',
		defaults: { name: 'Postal Service' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: 'postalServiceApi',
				required: true,
				displayOptions: { hide: { resource: CHAT_RESOURCES } },
			},
			{
				name: 'postalServiceChatApi',
				required: true,
				displayOptions: { show: { resource: CHAT_RESOURCES } },
			},
		],
		properties: [...resourceProperties, requestOptions],
	};

	methods = { listSearch, resourceMapping };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
