import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import * as account from './actions/account';
import { router } from './actions/router';

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
		credentials: [{ name: 'postalServiceApi', required: true }],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [{ name: 'Account', value: 'account' }],
				default: 'account',
			},
			...account.description,
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
