import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { ANSWERS } from '../../contract/wire';
import type { ServiceRequest } from '../../transport';
import { withItem } from '../common';
import { sendOnce } from '../sendOnce';
import { orderForm, readOrder } from './fields';

export const description: INodeProperties[] = [];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const order = await readOrder(this, itemIndex, false);
	const request: ServiceRequest = {
		method: 'POST',
		path: '/api/v2/post',
		auth: 'form',
		envelope: 'A',
		answer: ANSWERS.orderCreated,
		body: orderForm(order),
		// A letter must never be sent twice: no automatic resend on an unclear failure.
		idempotent: false,
		verify: `look for the order in the account panel (search by its tag${order.fields.tag ? ` "${order.fields.tag}"` : ''}), or read it with Order > Get if you have its id; Account > Get Balance shows whether it was paid`,
	};
	return await sendOnce(this, itemIndex, request, ({ data, body }) => {
		const json: IDataObject = { id: data as string, message: body.status_message as string, shipType: Number(order.fields.shipType) };
		if (order.fields.tag) json.tag = order.fields.tag;
		return [withItem(json, itemIndex)];
	});
}

export async function validate(this: IExecuteFunctions, itemIndex: number): Promise<void> {
	await readOrder(this, itemIndex, false);
}
