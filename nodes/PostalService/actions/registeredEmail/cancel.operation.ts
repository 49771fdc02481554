import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { updateDisplayOptions } from '../descriptions';
import { cancelOrder, cancelProperties } from '../order/cancel.operation';
import { EMAIL_ID, readOrderId } from '../shared/orderIds';

export const option = {
	name: 'Cancel',
	value: 'cancel',
	description: 'Cancel a registered e-mail that has not been sent yet, or any with Force',
	action: 'Cancel registered e-mail',
};

const properties: INodeProperties[] = [EMAIL_ID.property, ...cancelProperties];

export const description = updateDisplayOptions({ show: { resource: ['registeredEmail'], operation: ['cancel'] } }, properties);

/** The order cancel route, for an id of a registered e-mail. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	return await cancelOrder(this, itemIndex, readOrderId(this, itemIndex, EMAIL_ID));
}
