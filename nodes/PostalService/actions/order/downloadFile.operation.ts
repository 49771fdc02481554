import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { FILE_TYPES } from '../../contract/lists';
import { forOperation } from '../descriptions';
import { fileProperties, LETTER_ID, prepareDownload } from '../shared/lettersAndEmails';
import type { ItemInput, ItemWork } from '../types';

export const option = {
	name: 'Download File',
	value: 'downloadFile',
	description: 'Download the PDF, printed front, return receipt or sender copy of a letter as binary data',
	action: 'Download letter file',
};

const properties: INodeProperties[] = [
	LETTER_ID.property,
	...fileProperties(FILE_TYPES, 'Which file of the letter to download. The return receipt is the one the recipient signed.'),
];

export const description = forOperation('order', 'downloadFile', properties);

export function prepare(this: IExecuteFunctions, itemIndex: number, input: ItemInput): ItemWork {
	return prepareDownload(this, itemIndex, input, LETTER_ID, FILE_TYPES);
}
