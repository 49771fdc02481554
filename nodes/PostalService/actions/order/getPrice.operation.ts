import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { withItem } from '../common';
import { updateDisplayOptions } from '../descriptions';
import { postOrder, properties } from './create.operation';

export const option = {
	name: 'Get Price',
	value: 'getPrice',
	description: 'Validate an order and return its price without creating it',
	action: 'Get the price of an order',
};

// The parameters of Create: a price is asked for by sending the same order with test=1.
export const description = updateDisplayOptions({ show: { resource: ['order'], operation: ['getPrice'] } }, properties);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const { order, data, body } = await postOrder(this, itemIndex, true);
	const quote = data && typeof data === 'object' ? (data as IDataObject) : { value: data as number };
	return [withItem({ ...quote, shipType: Number(order.fields.shipType), message: body.status_message as string }, itemIndex)];
}
