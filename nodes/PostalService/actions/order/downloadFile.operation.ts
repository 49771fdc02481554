import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { ASSUMED } from '../../contract/assumptions';
import { byName, FILE_TYPES, type FileType, valuesOf } from '../../contract/lists';
import { ItemCheck } from '../fields';
import { LETTER_ID, readOrderId, type OrderIdKind } from '../shared/orderIds';
import type { ItemInput, ItemWork } from '../types';

export const option = {
	name: 'Download File',
	value: 'downloadFile',
	description: 'Download the PDF, printed front, return receipt or sender copy of a letter as binary data',
	action: 'Download letter file',
};

/** The files of a letter the download route serves. */
const LETTER_FILE_TYPES: readonly FileTypeOption[] = FILE_TYPES;

type FileTypeOption = { value: FileType; name: string; description: string };

/** Which file of the order (among those its resource has), and where it goes. */
export function fileProperties(fileTypes: readonly FileTypeOption[], description: string): INodeProperties[] {
	const properties: INodeProperties[] = [
		{
			displayName: 'File Type',
			name: 'fileType',
			type: 'options',
			default: 'pdf',
			description,
			// In alphabetical order, as n8n lists options.
			options: fileTypes.map((type) => ({ ...type })).sort(byName),
		},
		{
			displayName: 'Return Receipt File Name',
			name: 'returnReceiptFileName',
			type: 'string',
			default: '',
			description:
				'When the letter has several return receipts, the name of the one to download, as listed in the files of Letter > Get. Left empty, the most recent.',
			displayOptions: { show: { fileType: ['rr', 'rr_electronic'] } },
		},
		{
			displayName: 'Put Output File in Field',
			name: 'binaryPropertyName',
			type: 'string',
			required: true,
			default: 'data',
			hint: 'The name of the output binary field to put the file in',
			description: 'The binary field of the output item that receives the file; "data" unless a later node expects another name',
		},
	];
	const hasReturnReceipts = fileTypes.some(({ value }) => value === 'rr' || value === 'rr_electronic');
	return properties.filter((property) => property.name !== 'returnReceiptFileName' || hasReturnReceipts);
}

const properties: INodeProperties[] = [
	LETTER_ID.property,
	...fileProperties(LETTER_FILE_TYPES, 'Which file of the letter to download. The return receipt is the one the recipient signed.'),
];

export const description = updateDisplayOptions({ show: { resource: ['order'], operation: ['downloadFile'] } }, properties);

/** Downloads one file of an order by its id (the route serves letters and registered e-mail alike). */
export function prepareDownload(ctx: IExecuteFunctions, itemIndex: number, input: ItemInput, kind: OrderIdKind, offered: readonly FileTypeOption[]): ItemWork {
	const check = new ItemCheck(ctx, itemIndex, { ...kind.labels, type: 'File Type', binaryPropertyName: 'Put Output File in Field' });
	const id = readOrderId(ctx, check, kind);
	const fileTypes = valuesOf(offered);
	const fileType = check.text(ctx.getNodeParameter('fileType', itemIndex, 'pdf'), 'type', {
		test: new RegExp(`^(${fileTypes.join('|')})$`),
		hint: `must be one of ${fileTypes.join(', ')}`,
	});
	const property = check.text(ctx.getNodeParameter('binaryPropertyName', itemIndex, 'data'), 'binaryPropertyName');
	const qs: IDataObject = {};
	const rrName = String(ctx.getNodeParameter('returnReceiptFileName', itemIndex, '') ?? '').trim();
	if (rrName && (fileType === 'rr' || fileType === 'rr_electronic')) qs[ASSUMED.downloadFileNameParam] = rrName;
	Object.assign(qs, check.extraParameters(input));
	return {
		send: async (call) => {
			const { data } = await call('downloadOrderFile', { params: { id, type: fileType }, qs });
			const file = data as { file_base64: string; file_name: string; file_type: string; id_job: string };
			const fileName = file.file_name || `${id}-${fileType}.pdf`;
			const json: IDataObject = { id_job: file.id_job || id, file_name: fileName, file_type: file.file_type || fileType };
			// The service sends no type: n8n takes it from the file's name, else its content.
			const binaryData = await ctx.helpers.prepareBinaryData(Buffer.from(file.file_base64, 'base64'), fileName);
			return [{ json, binary: { [property]: binaryData }, pairedItem: { item: itemIndex } }];
		},
	};
}

export function prepare(this: IExecuteFunctions, itemIndex: number, input: ItemInput): ItemWork {
	return prepareDownload(this, itemIndex, input, LETTER_ID, LETTER_FILE_TYPES);
}
