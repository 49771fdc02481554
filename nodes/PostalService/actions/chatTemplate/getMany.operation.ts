import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { ASSUMED } from '../../contract/assumptions';
import { TEMPLATE_STATUSES } from '../../contract/lists';
import { forOperation, returnAllAndLimit, simplifyProperty } from '../descriptions';
import { ItemCheck, listLimit, simplified, withItem } from '../item';
import type { ItemInput, ItemWork } from '../types';

export const option = {
	name: 'Get Many',
	value: 'getMany',
	description: 'List chat templates with their status and variable names',
	action: 'Get many chat templates',
};

// What a workflow uses of a template to send it; the raw answer adds its texts and components.
const SIMPLE_FIELDS = ['id', 'name', 'display_name', 'status', 'language', 'category', 'sender_id', 'sender_name', 'variable_names'];

const properties: INodeProperties[] = [
	...returnAllAndLimit,
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		description: 'Limit the templates returned, by sender or by state',
		options: [
			{
				displayName: 'Only Active System Sender',
				name: 'systemSenderOnly',
				type: 'boolean',
				default: false,
				description: "Whether to return only the templates of the service's own active sender",
			},
			{
				displayName: 'Status',
				name: 'status',
				type: 'options',
				default: 'approved',
				description: 'Return only the templates in this state; only approved templates can be sent',
				options: TEMPLATE_STATUSES.map(({ value, name }) => ({ name, value })),
			},
		],
	},
	simplifyProperty(SIMPLE_FIELDS),
];

export const description = forOperation('chatTemplate', 'getMany', properties);

export function prepare(this: IExecuteFunctions, itemIndex: number, input: ItemInput): ItemWork {
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const qs: IDataObject = {};
	if (filters.systemSenderOnly) qs[ASSUMED.templatesQuery.systemSenderOnly] = 1;
	if (filters.status) qs[ASSUMED.templatesQuery.status] = filters.status;
	Object.assign(qs, new ItemCheck(this, itemIndex).extraParameters(input));
	const limit = listLimit(this, itemIndex);
	const simplify = this.getNodeParameter('simplify', itemIndex, true) as boolean;
	return {
		send: async (call) =>
			((await call('getChatTemplates', { qs })).data as IDataObject[])
				.slice(0, limit)
				.map((template) => withItem(simplified(template, SIMPLE_FIELDS, simplify), itemIndex)),
	};
}
