import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { ASSUMED } from '../../contract/assumptions';
import { TEMPLATE_STATUSES } from '../../contract/lists';
import { fetchTemplates } from '../../methods/chat';
import { limitList, readExtraParameters, withItem } from '../common';
import { extraParameters, returnAllAndLimit, updateDisplayOptions } from '../descriptions';
import { simplifyProperty } from '../order/get.operation';

export const option = {
	name: 'Get Many',
	value: 'getMany',
	description: 'List chat templates with their status and variable names',
	action: 'Get many chat templates',
};

const properties: INodeProperties[] = [
	...returnAllAndLimit,
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			{
				displayName: 'Only Active System Sender',
				name: 'systemSenderOnly',
				type: 'boolean',
				default: false,
				description: 'Whether to return only templates of the active system sender',
			},
			{
				displayName: 'Status',
				name: 'status',
				type: 'options',
				default: 'approved',
				options: TEMPLATE_STATUSES.map(({ value, name }) => ({ name, value })),
			},
		],
	},
	simplifyProperty,
	extraParameters('query'),
];

// What a workflow uses of a template to send it; the raw answer adds its texts and components.
const SIMPLE_FIELDS = ['id', 'name', 'display_name', 'status', 'language', 'category', 'sender_id', 'sender_name', 'variable_names'];

function simplified(template: IDataObject): IDataObject {
	return Object.fromEntries(SIMPLE_FIELDS.filter((field) => field in template).map((field) => [field, template[field]]));
}

export const description = updateDisplayOptions({ show: { resource: ['chatTemplate'], operation: ['getMany'] } }, properties);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const qs: IDataObject = {};
	if (filters.systemSenderOnly) qs[ASSUMED.templatesQuery.systemSenderOnly] = 1;
	if (filters.status) qs[ASSUMED.templatesQuery.status] = filters.status;
	Object.assign(qs, readExtraParameters(this, itemIndex));
	const templates = await fetchTemplates(this, itemIndex, qs);
	const simplify = this.getNodeParameter('simplify', itemIndex, true) as boolean;
	return limitList(this, itemIndex, templates).map((t) => withItem(simplify ? simplified(t) : t, itemIndex));
}
