import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { ASSUMED } from '../../contract/assumptions';
import { EMAIL_STATUSES, meaningOf, ORDER_STATUSES } from '../../contract/lists';

import { ItemCheck, withItem } from '../fields';
import { LETTER_ID, readOrderId, type OrderIdKind } from '../shared/orderIds';
import type { ItemInput, ItemWork } from '../types';

export const option = {
	name: 'Cancel',
	value: 'cancel',
	description: 'Cancel a letter that is still processing or waiting for credits, or any letter with Force',
	action: 'Cancel letter',
};

export const writes = true;

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
export function prepareCancel(ctx: IExecuteFunctions, itemIndex: number, input: ItemInput, kind: OrderIdKind): ItemWork {
	const check = new ItemCheck(ctx, itemIndex, kind.labels);
	const id = readOrderId(ctx, check, kind);
	const qs: IDataObject = {};
	if (ctx.getNodeParameter('force', itemIndex, false)) qs[ASSUMED.cancelForceParam] = 'yes';
	const reason = String(ctx.getNodeParameter('reason', itemIndex, '') ?? '').trim();
	if (reason) qs[ASSUMED.cancelReasonParam] = reason;
	Object.assign(qs, check.extraParameters(input));
	const email = id.startsWith('E');
	return {
		send: async (call) => {
			const { data } = await call('cancelOrder', {
				params: { id },
				qs,
				verify: `read ${id} with ${email ? 'Registered E-Mail' : 'Letter'} > Get: its status says whether it is cancelled`,
			});
			const json: IDataObject = { ...(data as IDataObject) };
			// The service's status_text is Portuguese: the English meaning goes beside it, as Get does.
			const statusText = meaningOf(email ? EMAIL_STATUSES : ORDER_STATUSES, json.status);
			if (statusText) json.statusText = statusText;
			return [withItem(json, itemIndex)];
		},
	};
}

export function prepare(this: IExecuteFunctions, itemIndex: number, input: ItemInput): ItemWork {
	return prepareCancel(this, itemIndex, input, LETTER_ID);
}
