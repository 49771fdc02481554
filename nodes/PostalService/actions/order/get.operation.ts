import type { INodeProperties, IExecuteFunctions } from 'n8n-workflow';

import { ORDER_STATUSES } from '../../contract/lists';
import { forOperation, simplifyProperty } from '../descriptions';
import { LETTER_ID, prepareOrderRead, type OrderView } from '../shared/lettersAndEmails';
import type { ItemInput, ItemWork } from '../types';

export const option = {
	name: 'Get',
	value: 'get',
	description: 'Read a letter: its status, tracking code, files and cost',
	action: 'Get letter',
};

const LETTER_VIEW: OrderView = {
	kind: LETTER_ID,
	statuses: ORDER_STATUSES,
	simpleFields: ['id', 'tag', 'shipType', 'status', 'statusText', 'tracking', 'value', 'currency', 'dateLastChange', 'rr_available', 'files'],
};

const properties: INodeProperties[] = [LETTER_ID.property, simplifyProperty(LETTER_VIEW.simpleFields)];

export const description = forOperation('order', 'get', properties);

export function prepare(this: IExecuteFunctions, itemIndex: number, input: ItemInput): ItemWork {
	return prepareOrderRead(this, itemIndex, input, LETTER_VIEW);
}
