import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { forOperation } from '../descriptions';
import { cancelProperties, EMAIL_ID, prepareCancel } from '../shared/lettersAndEmails';
import type { ItemInput, WriteWork } from '../types';

export const writes = true;

export const option = {
	name: 'Cancel',
	value: 'cancel',
	description: 'Cancel a registered e-mail still processing payment or short of credits, or any with Force',
	action: 'Cancel registered e-mail',
};

const properties: INodeProperties[] = [EMAIL_ID.property, ...cancelProperties];

export const description = forOperation('registeredEmail', 'cancel', properties);

/** The order cancel route, for an id of a registered e-mail. */
export function prepare(this: IExecuteFunctions, itemIndex: number, input: ItemInput): WriteWork {
	return prepareCancel(this, itemIndex, input, EMAIL_ID);
}
