import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { serviceRequest } from '../../transport';

export const description: INodeProperties[] = [];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const { data } = await serviceRequest(
		this,
		{ method: 'GET', path: '/api/v2/balance/{token}', auth: 'path', envelope: 'A', idempotent: true },
		itemIndex,
	);
	const json: IDataObject =
		data && typeof data === 'object' ? (data as IDataObject) : { balance: data as IDataObject[string] };
	return [{ json, pairedItem: { item: itemIndex } }];
}
