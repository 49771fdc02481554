import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { ANSWERS } from '../../contract/wire';
import { serviceRequest } from '../../transport';
import { asObject, readExtraParameters, withItem } from '../common';
import { updateDisplayOptions } from '../descriptions';

export const option = {
	name: 'Get Logo',
	value: 'getLogo',
	description: 'Get the link to the sender logo the service prints on letters',
	action: 'Get sender logo',
};

const properties: INodeProperties[] = [];

export const description = updateDisplayOptions({ show: { resource: ['account'], operation: ['getLogo'] } }, properties);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const { data } = await serviceRequest(
		this,
		{
			method: 'GET',
			path: '/api/v2/logo',
			auth: 'header',
			envelope: 'B',
			answer: ANSWERS.logo,
			idempotent: true,
			qs: readExtraParameters(this, itemIndex),
		},
		itemIndex,
	);
	return [withItem(asObject(data), itemIndex)];
}
