import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { ASSUMED } from '../../contract/assumptions';
import { ANSWERS } from '../../contract/wire';
import type { ServiceRequest } from '../../transport';
import { readExtraParameters, withItem } from '../common';
import { extraParameters, updateDisplayOptions } from '../descriptions';
import { sendOnce } from '../sendOnce';
import { LETTER_ID, readOrderId } from '../shared/orderIds';

export const option = {
	name: 'Cancel',
	value: 'cancel',
	description: 'Cancel an order that is still processing or lacks credits (or any order, with Force)',
	action: 'Cancel an order',
};

/** Force and reason of a cancellation. */
export const cancelProperties: INodeProperties[] = [
	{
		displayName: 'Force',
		name: 'force',
		type: 'boolean',
		default: false,
		description:
			'Whether to cancel whatever the status. Without it only orders that are processing (0) or lack credits (2) can be cancelled.',
	},
	{
		displayName: 'Reason',
		name: 'reason',
		type: 'string',
		default: '',
		placeholder: 'Cancelado via API',
		description: 'Note stored with the cancellation. Empty: the service writes "Cancelado via API".',
	},
];

const properties: INodeProperties[] = [LETTER_ID.property, ...cancelProperties, extraParameters('query')];

export const description = updateDisplayOptions({ show: { resource: ['order'], operation: ['cancel'] } }, properties);

/** Cancels an order by its id (the route serves letters and registered e-mail alike). */
export async function cancelOrder(ctx: IExecuteFunctions, itemIndex: number, id: string): Promise<INodeExecutionData[]> {
	const qs: IDataObject = {};
	if (ctx.getNodeParameter('force', itemIndex, false)) qs[ASSUMED.cancelForceParam] = 'yes';
	const reason = String(ctx.getNodeParameter('reason', itemIndex, '') ?? '').trim();
	if (reason) qs[ASSUMED.cancelReasonParam] = reason;
	Object.assign(qs, readExtraParameters(ctx, itemIndex));
	const request: ServiceRequest = {
		method: 'DELETE',
		path: `/api/v2/delete/{token}/${encodeURIComponent(id)}`,
		auth: 'path',
		envelope: 'A',
		answer: ANSWERS.cancelled,
		// Repeating a cancel that went through would turn into "already cancelled": let the user look.
		idempotent: false,
		qs,
		verify: `read ${id} with ${id.startsWith('E') ? 'Registered E-Mail' : 'Order'} > Get: its status says whether it is cancelled`,
	};
	return await sendOnce(ctx, itemIndex, request, ({ data }) => [withItem(data as IDataObject, itemIndex)]);
}

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	return await cancelOrder(this, itemIndex, readOrderId(this, itemIndex, LETTER_ID));
}
