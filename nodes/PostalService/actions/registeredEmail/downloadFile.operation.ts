import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { FILE_TYPES } from '../../contract/lists';
import { forOperation } from '../descriptions';
import { EMAIL_ID, fileProperties, prepareDownload } from '../shared/lettersAndEmails';
import type { ItemInput, ItemWork } from '../types';

export const option = {
	name: 'Download File',
	value: 'downloadFile',
	description: 'Download the PDF of a registered e-mail as binary data',
	action: 'Download registered e-mail file',
};

/** The interface lists no files of a registered e-mail: the PDF, the one the route is known to serve, is the only one offered. */
const EMAIL_FILE_TYPES = FILE_TYPES.filter(({ value }) => value === 'pdf');

const properties: INodeProperties[] = [
	EMAIL_ID.property,
	...fileProperties(EMAIL_FILE_TYPES, "Which file of the registered e-mail to download. The service does not say which files a registered e-mail has; the node asks for the PDF."),
];

export const description = forOperation('registeredEmail', 'downloadFile', properties);

/** The order download route, for an id of a registered e-mail. */
export function prepare(this: IExecuteFunctions, itemIndex: number, input: ItemInput): ItemWork {
	return prepareDownload(this, itemIndex, input, EMAIL_ID, EMAIL_FILE_TYPES);
}
