import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { meaningOf, ORDER_STATUSES } from '../../contract/lists';
import { ANSWERS } from '../../contract/wire';
import { serviceRequest } from '../../transport';
import { readExtraParameters, simplify, withItem } from '../common';
import { simplifyProperty, updateDisplayOptions } from '../descriptions';
import { LETTER_ID, readOrderId } from '../shared/orderIds';

export const option = {
	name: 'Get',
	value: 'get',
	description: 'Read a letter: its status, tracking code, files and cost',
	action: 'Get letter',
};

/** Every price and balance of the service is in Brazilian reais. */
export const CURRENCY = 'BRL';

/** What Simplify keeps of an order, and where its status is explained. */
export interface OrderView {
	statuses: ReadonlyArray<{ value: number; meaning: string }>;
	simpleFields: readonly string[];
}

const LETTER_VIEW: OrderView = {
	statuses: ORDER_STATUSES,
	simpleFields: ['id', 'tag', 'shipType', 'status', 'statusText', 'tracking', 'value', 'currency', 'dateLastChange', 'rr_available', 'files'],
};

const properties: INodeProperties[] = [LETTER_ID.property, simplifyProperty(LETTER_VIEW.simpleFields)];

export const description = updateDisplayOptions({ show: { resource: ['order'], operation: ['get'] } }, properties);

/** Reads an order by its id (the route serves letters and registered e-mail alike). */
export async function getOrder(ctx: IExecuteFunctions, itemIndex: number, id: string, view: OrderView): Promise<IDataObject> {
	const { data } = await serviceRequest(
		ctx,
		{
			method: 'GET',
			path: `/api/v2/get/{token}/${encodeURIComponent(id)}`,
			auth: 'path',
			envelope: 'A',
			answer: ANSWERS.order,
			idempotent: true,
			qs: readExtraParameters(ctx, itemIndex),
		},
		itemIndex,
	);
	const order: IDataObject = { ...(data as IDataObject) };
	const statusText = meaningOf(view.statuses, order.status);
	if (statusText) order.statusText = statusText;
	if (typeof order.value === 'number') order.currency = CURRENCY;
	return simplify(ctx, itemIndex, order, view.simpleFields);
}

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const id = readOrderId(this, itemIndex, LETTER_ID);
	return [withItem(await getOrder(this, itemIndex, id, LETTER_VIEW), itemIndex)];
}
