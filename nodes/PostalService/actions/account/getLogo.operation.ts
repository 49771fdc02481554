import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { ANSWERS } from '../../contract/wire';
import { serviceRequest } from '../../transport';
import { asObject, extraParameters, readExtraParameters, withItem } from '../common';

export const description: INodeProperties[] = [extraParameters('account', ['getLogo'], 'query')];

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
