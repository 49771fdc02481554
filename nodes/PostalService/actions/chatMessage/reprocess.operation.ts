import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { ASSUMED } from '../../contract/assumptions';
import { creditsNotice, forOperation } from '../descriptions';
import { asObject, ItemCheck, withItem } from '../item';
import type { ItemInput, WriteWork } from '../types';

export const option = {
	name: 'Reprocess',
	value: 'reprocess',
	description: 'Send again a chat message that stopped for lack of credits, after topping up; spends credits',
	action: 'Reprocess chat message',
};

export const writes = true;
export const spendsCredits = true;

const properties: INodeProperties[] = [
	creditsNotice('The message is queued again and its price is taken from the account\'s credits: top up the account first.'),
	{
		displayName: 'Message ID',
		name: 'messageId',
		type: 'string',
		required: true,
		default: '',
		placeholder: '9001',
		description:
			'Numeric ID of the message, digits only (like 9001): a message paid with credits that stopped for lack of credits (status 2)',
	},
];

export const description = forOperation('chatMessage', 'reprocess', properties);

export function prepare(this: IExecuteFunctions, itemIndex: number, input: ItemInput): WriteWork {
	const check = new ItemCheck(this, itemIndex, { message_id: 'Message ID' });
	// What is checked is what will be sent: the extras are merged first.
	const sent: IDataObject = { message_id: this.getNodeParameter('messageId', itemIndex, '') as string, ...check.extraParameters(input) };
	const messageId = check.text(sent.message_id, 'message_id', { test: /^[1-9]\d*$/, hint: 'must be a positive whole number' });
	return {
		send: async (call) => {
			const { data, body } = await call('reprocessChatMessage', {
				body: { ...sent, message_id: Number(messageId) },
				verify: `look at message ${messageId} in the account panel: a reprocessed message is queued or sent, and a second reprocess answers no_change`,
			});
			const json: IDataObject = { ...(data === null ? {} : asObject(data)), message: body.status_message as string };
			// Where `result` sits is not shown: look at the assumed place, then beside `data`.
			let result: unknown = body;
			for (const key of ASSUMED.chatProcessResultPath) result = (result as IDataObject | undefined)?.[key];
			result ??= body.result;
			if (result !== undefined) json.result = result as string;
			return [withItem(json, itemIndex)];
		},
	};
}
