import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { serviceRequest } from '../../transport';
import { withItem } from '../common';
import { orderForm, readOrder } from './fields';

export const description: INodeProperties[] = [];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const order = await readOrder(this, itemIndex, false);
	const { data, body } = await serviceRequest(
		this,
		{
			method: 'POST',
			path: '/api/v2/post',
			auth: 'form',
			envelope: 'A',
			body: orderForm(order),
			// A letter must never be sent twice: no automatic resend on an unclear failure.
			idempotent: false,
		},
		itemIndex,
	);
	const json: IDataObject = {
		id: typeof data === 'object' && data !== null ? ((data as IDataObject).id as string) : String(data),
		message: body.status_message as string,
		shipType: Number(order.fields.shipType),
	};
	if (order.fields.tag) json.tag = order.fields.tag;
	return [withItem(json, itemIndex)];
}

export async function validate(this: IExecuteFunctions, itemIndex: number): Promise<void> {
	await readOrder(this, itemIndex, false);
}
