import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { ASSUMED } from '../../contract/assumptions';
import { ANSWERS } from '../../contract/wire';
import { serviceRequest } from '../../transport';
import { readExtraParameters } from '../common';
import { updateDisplayOptions } from '../descriptions';

export const option = {
	name: 'Get Balance',
	value: 'getBalance',
	description: 'Read how many credits the account has left, in reais',
	action: 'Get balance',
};

const properties: INodeProperties[] = [];

export const description = updateDisplayOptions({ show: { resource: ['account'], operation: ['getBalance'] } }, properties);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const { data } = await serviceRequest(
		this,
		{
			method: 'GET',
			path: '/api/v2/balance/{token}',
			auth: 'path',
			envelope: 'A',
			answer: ANSWERS.balance,
			idempotent: true,
			qs: readExtraParameters(this, itemIndex),
		},
		itemIndex,
	);
	// The answer's fields are not shown: an object is passed on as is, a bare number is named.
	const json: IDataObject =
		data && typeof data === 'object' ? (data as IDataObject) : { [ASSUMED.balanceFields.balance]: data as IDataObject[string] };
	return [{ json, pairedItem: { item: itemIndex } }];
}
