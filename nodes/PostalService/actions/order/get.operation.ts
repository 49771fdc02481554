import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { meaningOf, ORDER_STATUSES } from '../../contract/lists';
import { simplifyProperty } from '../descriptions';
import { ItemCheck, simplified, withItem } from '../fields';
import { LETTER_ID, readOrderId, type OrderIdKind } from '../shared/orderIds';
import type { ItemInput, ItemWork } from '../types';

export const option = {
	name: 'Get',
	value: 'get',
	description: 'Read a letter: its status, tracking code, files and cost',
	action: 'Get letter',
};

/** Every price and balance of the service is in Brazilian reais. */
export const CURRENCY = 'BRL';

/** Which kind of order a read is for, what Simplify keeps of it, and where its status is explained. */
export interface OrderView {
	kind: OrderIdKind;
	statuses: ReadonlyArray<{ value: number; meaning: string }>;
	simpleFields: readonly string[];
}

const LETTER_VIEW: OrderView = {
	kind: LETTER_ID,
	statuses: ORDER_STATUSES,
	simpleFields: ['id', 'tag', 'shipType', 'status', 'statusText', 'tracking', 'value', 'currency', 'dateLastChange', 'rr_available', 'files'],
};

const properties: INodeProperties[] = [LETTER_ID.property, simplifyProperty(LETTER_VIEW.simpleFields)];

export const description = updateDisplayOptions({ show: { resource: ['order'], operation: ['get'] } }, properties);

/** Reads an order by its id (the route serves letters and registered e-mail alike). */
export function prepareOrderRead(ctx: IExecuteFunctions, itemIndex: number, input: ItemInput, view: OrderView): ItemWork {
	const check = new ItemCheck(ctx, itemIndex, view.kind.labels);
	const id = readOrderId(ctx, check, view.kind);
	const simplify = ctx.getNodeParameter('simplify', itemIndex, true) as boolean;
	const qs = check.extraParameters(input);
	return {
		send: async (call) => {
			const { data } = await call('getOrder', { params: { id }, qs });
			const order: IDataObject = { ...(data as IDataObject) };
			const statusText = meaningOf(view.statuses, order.status);
			if (statusText) order.statusText = statusText;
			if (typeof order.value === 'number') order.currency = CURRENCY;
			return [withItem(simplified(order, view.simpleFields, simplify), itemIndex)];
		},
	};
}

export function prepare(this: IExecuteFunctions, itemIndex: number, input: ItemInput): ItemWork {
	return prepareOrderRead(this, itemIndex, input, LETTER_VIEW);
}
