import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { EMAIL_STATUSES } from '../../contract/lists';
import { forOperation, simplifyProperty } from '../descriptions';
import { EMAIL_ID, prepareOrderRead, type OrderView } from '../shared/lettersAndEmails';
import type { ItemInput, ItemWork } from '../types';

export const option = {
	name: 'Get',
	value: 'get',
	description: 'Read a registered e-mail: its status, whether it was opened, and its cost',
	action: 'Get registered e-mail',
};

// The read shape of a registered e-mail is not shown; Simplify keeps the names its webhooks carry.
const EMAIL_VIEW: OrderView = {
	kind: EMAIL_ID,
	statuses: EMAIL_STATUSES,
	simpleFields: ['id', 'status', 'statusText', 'subject', 'recipient', 'value', 'currency', 'opened', 'date_opened', 'created_at'],
};

const properties: INodeProperties[] = [EMAIL_ID.property, simplifyProperty(EMAIL_VIEW.simpleFields)];

export const description = forOperation('registeredEmail', 'get', properties);

/** The order read route, for an id of a registered e-mail. */
export function prepare(this: IExecuteFunctions, itemIndex: number, input: ItemInput): ItemWork {
	return prepareOrderRead(this, itemIndex, input, EMAIL_VIEW);
}
