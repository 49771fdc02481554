import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { ANSWERS } from '../../contract/wire';
import { serviceRequest } from '../../transport';
import { withItem } from '../common';
import { orderForm, readOrder } from './fields';

export const description: INodeProperties[] = [];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const order = await readOrder(this, itemIndex, true);
	const { data, body } = await serviceRequest(
		this,
		{
			method: 'POST',
			path: '/api/v2/post',
			auth: 'form',
			envelope: 'A',
			answer: ANSWERS.quote,
			body: orderForm(order),
			// With test=1 nothing is created, so a resend is harmless.
			idempotent: true,
		},
		itemIndex,
	);
	return [withItem({ ...(data as IDataObject), shipType: Number(order.fields.shipType), message: body.status_message as string }, itemIndex)];
}
