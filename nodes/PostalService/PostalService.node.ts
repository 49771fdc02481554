import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import * as account from './actions/account';
import * as chatMessage from './actions/chatMessage';
import * as chatSender from './actions/chatSender';
import * as chatTemplate from './actions/chatTemplate';
import { requestOptions } from './actions/options';
import * as order from './actions/order';
import * as receipt from './actions/receipt';
import * as registeredEmail from './actions/registeredEmail';
import { router } from './actions/router';
import * as savedContact from './actions/savedContact';
import { loadOptions } from './methods';

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
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Account', value: 'account' },
					{ name: 'Chat Message', value: 'chatMessage' },
					{ name: 'Chat Sender', value: 'chatSender' },
					{ name: 'Chat Template', value: 'chatTemplate' },
					{ name: 'Order', value: 'order' },
					{ name: 'Receipt', value: 'receipt' },
					{ name: 'Registered E-Mail', value: 'registeredEmail' },
					{ name: 'Saved Contact', value: 'savedContact' },
				],
				default: 'order',
			},
			...account.description,
			...chatMessage.description,
			...chatSender.description,
			...chatTemplate.description,
			...order.description,
			...receipt.description,
			...registeredEmail.description,
			...savedContact.description,
			requestOptions,
		],
	};

	methods = { loadOptions };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
