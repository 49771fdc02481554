import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { serviceRequest } from '../../transport';
import { withItem } from '../common';
import { updateDisplayOptions } from '../descriptions';
import { SHIP_TYPES } from '../../contract/lists';
import { orderRequest, properties, readOrder } from './create.operation';
import { CURRENCY } from './get.operation';

export const option = {
	name: 'Get Price',
	value: 'getPrice',
	description: 'Check a letter and return its price in reais without sending it; spends nothing',
	action: 'Get letter price',
};

// The parameters of Create: a price is asked for by sending the same order with test=1.
export const description = updateDisplayOptions({ show: { resource: ['order'], operation: ['getPrice'] } }, properties);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const order = await readOrder(this, itemIndex);
	const { data, body } = await serviceRequest(this, orderRequest(order, true), itemIndex);
	const shipType = Number(order.fields.shipType);
	const price: IDataObject = { ...(data as IDataObject) };
	if (typeof price.value === 'number') price.currency = CURRENCY;
	const shipTypeText = SHIP_TYPES.find(({ value }) => value === shipType)?.name;
	return [withItem({ ...price, shipType, ...(shipTypeText ? { shipTypeText } : {}), message: body.status_message as string }, itemIndex)];
}
