import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { serviceRequest } from '../../transport';
import { withItem } from '../common';
import { updateDisplayOptions } from '../descriptions';
import { orderRequest, properties, readOrder } from './create.operation';

export const option = {
	name: 'Get Price',
	value: 'getPrice',
	description: 'Validate an order and return its price in reais without sending it; spends nothing',
	action: 'Get the price of a letter without sending it',
};

// The parameters of Create: a price is asked for by sending the same order with test=1.
export const description = updateDisplayOptions({ show: { resource: ['order'], operation: ['getPrice'] } }, properties);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const order = await readOrder(this, itemIndex, true);
	const { data, body } = await serviceRequest(this, orderRequest(order, true), itemIndex);
	return [withItem({ ...(data as IDataObject), shipType: Number(order.fields.shipType), message: body.status_message as string }, itemIndex)];
}
