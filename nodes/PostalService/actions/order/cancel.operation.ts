import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { forOperation } from '../descriptions';
import { cancelProperties, LETTER_ID, prepareCancel } from '../shared/lettersAndEmails';
import type { ItemInput, WriteWork } from '../types';

export const option = {
	name: 'Cancel',
	value: 'cancel',
	description: 'Cancel a letter that is still processing or waiting for credits, or any letter with Force',
	action: 'Cancel letter',
};

export const writes = true;

const properties: INodeProperties[] = [LETTER_ID.property, ...cancelProperties];

export const description = forOperation('order', 'cancel', properties);

export function prepare(this: IExecuteFunctions, itemIndex: number, input: ItemInput): WriteWork {
	return prepareCancel(this, itemIndex, input, LETTER_ID);
}
