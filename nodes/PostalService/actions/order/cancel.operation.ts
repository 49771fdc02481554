import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { ASSUMED } from '../../contract/assumptions';
import { EMAIL_STATUSES, meaningOf, ORDER_STATUSES } from '../../contract/lists';
import { ANSWERS } from '../../contract/wire';
import type { ServiceRequest } from '../../transport';
import { readExtraParameters, withItem } from '../common';
import { updateDisplayOptions } from '../descriptions';
import { sendOnce } from '../sendOnce';
import { LETTER_ID, readOrderId } from '../shared/orderIds';

export const option = {
	name: 'Cancel',
	value: 'cancel',
	description: 'Cancel a letter that is still processing or waiting for credits, or any letter with Force',
	action: 'Cancel letter',
};

/** Force and reason of a cancellation. */
export const cancelProperties: INodeProperties[] = [
	{
		displayName: 'Force',
		name: 'force',
		type: 'boolean',
		default: false,
		description:
			'Whether to cancel whatever the status. Without it only orders that are still processing (status 0) or waiting for credits (status 2) can be cancelled.',
	},
	{
		displayName: 'Reason',
		name: 'reason',
		type: 'string',
		default: '',
		placeholder: 'Cancelado via API',
		description: 'Why the order is cancelled, stored with the cancellation. Left empty, the service writes "Cancelado via API".',
	},
];

const properties: INodeProperties[] = [LETTER_ID.property, ...cancelProperties];

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
		verify: `read ${id} with ${id.startsWith('E') ? 'Registered E-Mail' : 'Letter'} > Get: its status says whether it is cancelled`,
	};
	return await sendOnce(ctx, itemIndex, request, ({ data }) => {
		const json: IDataObject = { ...(data as IDataObject) };
		// The service's status_text is Portuguese: the English meaning goes beside it, as Get does.
		const statusText = meaningOf(id.startsWith('E') ? EMAIL_STATUSES : ORDER_STATUSES, json.status);
		if (statusText) json.statusText = statusText;
		return [withItem(json, itemIndex)];
	});
}

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	return await cancelOrder(this, itemIndex, readOrderId(this, itemIndex, LETTER_ID));
}
