import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { ASSUMED } from '../../contract/assumptions';
import { forOperation } from '../descriptions';
import { ItemCheck, withItem } from '../item';
import type { ItemInput, ItemWork } from '../types';

export const option = {
	name: 'Get Balance',
	value: 'getBalance',
	description: 'Read how many credits the account has left, in reais',
	action: 'Get balance',
};

export const description = forOperation('account', 'getBalance', []);

export function prepare(this: IExecuteFunctions, itemIndex: number, input: ItemInput): ItemWork {
	const qs = new ItemCheck(this, itemIndex).extraParameters(input);
	return {
		send: async (call) => {
			const { data } = await call('getBalance', { qs });
			// The answer's fields are not shown: an object is passed on as is, a bare number is named.
			const json: IDataObject =
				data && typeof data === 'object' ? (data as IDataObject) : { [ASSUMED.balanceFields.balance]: data as IDataObject[string] };
			return [withItem(json, itemIndex)];
		},
	};
}
