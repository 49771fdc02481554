import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { ASSUMED } from '../../contract/assumptions';
import { forOperation, outputFileProperty } from '../descriptions';
import { asObject, ItemCheck, withItem } from '../item';
import type { ItemInput, ItemWork } from '../types';

export const option = {
	name: 'Get',
	value: 'get',
	description:
		"Get the service's receipt for an order, as binary data when it carries a file. Not the return receipt signed by the recipient: that is Letter > Download File.",
	action: 'Get order receipt',
};

const properties: INodeProperties[] = [
	{
		displayName: 'Order ID',
		name: 'orderId',
		type: 'string',
		required: true,
		default: '',
		placeholder: '100001',
		description: 'ID of a letter (digits, like 100001) or of a registered e-mail (E followed by digits, like E5001)',
	},
	outputFileProperty('When the receipt carries a file, the name of the output binary field to put it in'),
];

export const description = forOperation('receipt', 'get', properties);

function first(data: IDataObject, names: readonly string[]): string | undefined {
	for (const name of names) if (typeof data[name] === 'string' && data[name]) return data[name] as string;
	return undefined;
}

export function prepare(this: IExecuteFunctions, itemIndex: number, input: ItemInput): ItemWork {
	const check = new ItemCheck(this, itemIndex, { [ASSUMED.receiptOrderIdParam]: 'Order ID' });
	const orderId = check.text(this.getNodeParameter('orderId', itemIndex, ''), ASSUMED.receiptOrderIdParam, {
		test: /^E?\d+$/,
		hint: 'must be an order id: digits, or E followed by digits',
	});
	const property = String(this.getNodeParameter('binaryPropertyName', itemIndex, 'data') || 'data');
	const qs = { [ASSUMED.receiptOrderIdParam]: orderId, ...check.extraParameters(input) };
	return {
		send: async (call): Promise<INodeExecutionData[]> => {
			const json = { ...asObject((await call('getReceipt', { qs })).data) };
			const fields = ASSUMED.receiptFileFields;
			const holder = json.file && typeof json.file === 'object' ? (json.file as IDataObject) : json;
			const base64 = first(holder, fields.base64);
			if (!base64) return [withItem(json, itemIndex)];
			const fileName = first(holder, fields.name) ?? `receipt-${orderId}.pdf`;
			for (const name of fields.base64) delete holder[name];
			const binary = await this.helpers.prepareBinaryData(Buffer.from(base64, 'base64'), fileName);
			return [{ json, binary: { [property]: binary }, pairedItem: { item: itemIndex } }];
		},
	};
}
