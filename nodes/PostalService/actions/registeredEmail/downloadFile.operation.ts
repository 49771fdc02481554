import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { extraParameters, updateDisplayOptions } from '../descriptions';
import { downloadOrderFile, fileProperties } from '../order/downloadFile.operation';
import { EMAIL_ID, readOrderId } from '../shared/orderIds';

export const option = {
	name: 'Download File',
	value: 'downloadFile',
	description: 'Download a file of a registered e-mail as binary data',
	action: 'Download a registered email file',
};

const properties: INodeProperties[] = [EMAIL_ID.property, ...fileProperties, extraParameters('query')];

export const description = updateDisplayOptions({ show: { resource: ['registeredEmail'], operation: ['downloadFile'] } }, properties);

/** The order download route, for an id of a registered e-mail. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	return await downloadOrderFile(this, itemIndex, readOrderId(this, itemIndex, EMAIL_ID));
}
