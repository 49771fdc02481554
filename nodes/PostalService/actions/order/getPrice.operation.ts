import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { CURRENCY, SHIP_TYPES } from '../../contract/lists';
import { forOperation } from '../descriptions';
import { ItemCheck, withItem } from '../item';
import type { ItemInput, ItemWork } from '../types';
import { prepareOrder, priceOf } from '../shared/letterOrder';
import { CREATE_FIELD_NAMES, properties } from '../shared/letterOrder.description';

export const option = {
	name: 'Get Price',
	value: 'getPrice',
	description: 'Check a letter and return its price in reais without sending it; spends nothing',
	action: 'Get letter price',
};

// The parameters of Send: a price is asked for by sending the same order with test=1.
export const description = forOperation('order', 'getPrice', properties);

export async function prepare(this: IExecuteFunctions, itemIndex: number, input: ItemInput): Promise<ItemWork> {
	const order = await prepareOrder(this, itemIndex, input, new ItemCheck(this, itemIndex, CREATE_FIELD_NAMES));
	const shipType = Number(order.fields.shipType);
	return {
		send: async (call) => {
			const { price, message } = await priceOf(call, order);
			const json: IDataObject = { ...price };
			if (typeof price.value === 'number') json.currency = CURRENCY;
			const shipTypeText = SHIP_TYPES.find(({ value }) => value === shipType)?.name;
			return [withItem({ ...json, shipType, ...(shipTypeText ? { shipTypeText } : {}), message }, itemIndex)];
		},
	};
}
