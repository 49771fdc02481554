import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { ASSUMED } from '../../contract/assumptions';
import { ANSWERS } from '../../contract/wire';
import { serviceRequest } from '../../transport';
import { asObject, mimeTypeOf, readExtraParameters, requireText } from '../common';
import { updateDisplayOptions } from '../descriptions';

export const option = {
	name: 'Get',
	value: 'get',
	description:
		"Get the service's receipt for an order (what was bought and paid), as binary data when it carries a file. Not the return receipt signed by the recipient: that is Letter > Download File.",
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
	{
		displayName: 'Put Output File in Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		hint: 'When the receipt carries a file, the name of the output binary field to put it in',
	},
];

export const description = updateDisplayOptions({ show: { resource: ['receipt'], operation: ['get'] } }, properties);

function first(data: IDataObject, names: readonly string[]): string | undefined {
	for (const name of names) if (typeof data[name] === 'string' && data[name]) return data[name] as string;
	return undefined;
}

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const orderId = requireText(this, itemIndex, this.getNodeParameter('orderId', itemIndex, ''), ASSUMED.receiptOrderIdParam, {
		test: /^E?\d+$/,
		hint: 'must be an order id: digits, or E followed by digits',
	});
	const { data } = await serviceRequest(
		this,
		{
			method: 'GET',
			path: '/api/receipts/v1/get',
			auth: 'header',
			envelope: 'auto',
			answer: ANSWERS.receipt,
			idempotent: true,
			qs: { [ASSUMED.receiptOrderIdParam]: orderId, ...readExtraParameters(this, itemIndex) },
		},
		itemIndex,
	);
	const json = { ...asObject(data) };
	const fields = ASSUMED.receiptFileFields;
	const nested = json.file && typeof json.file === 'object' ? (json.file as IDataObject) : undefined;
	const holder = nested ?? json;
	const base64 = first(holder, fields.base64);
	if (!base64) return [{ json, pairedItem: { item: itemIndex } }];

	const fileName = first(holder, fields.name) ?? `receipt-${orderId}.pdf`;
	for (const name of fields.base64) delete holder[name];
	const property = String(this.getNodeParameter('binaryPropertyName', itemIndex, 'data') || 'data');
	const binary = await this.helpers.prepareBinaryData(Buffer.from(base64, 'base64'), fileName, mimeTypeOf(fileName));
	return [{ json, binary: { [property]: binary }, pairedItem: { item: itemIndex } }];
}
