/**
 * Read, download and cancel of an order, shared by letters (Order) and registered e-mail: the spec
 * gives both the same routes, told apart by the id (digits, or E followed by digits).
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { ASSUMED } from '../../contract/assumptions';
import { EMAIL_STATUS, FILE_TYPES, ORDER_STATUS } from '../../contract/order';
import { ANSWERS } from '../../contract/wire';
import type { ServiceRequest } from '../../transport';
import { serviceRequest } from '../../transport';
import { EMAIL_ID, extraParameters, mimeTypeOf, ORDER_ID, readExtraParameters, requireText, showFor, withItem } from '../common';
import { sendOnce } from '../sendOnce';

type Kind = 'order' | 'registeredEmail';

const ID_PATTERN = { order: ORDER_ID, registeredEmail: EMAIL_ID };
const ID_LABEL = { order: 'Order ID', registeredEmail: 'Registered E-Mail ID' };
const ID_HINT = {
	order: 'Visual id of the order, a string of digits, as returned by Create',
	registeredEmail: 'ID of the registered e-mail: E followed by digits (like E123456)',
};

function idProperty(resource: Kind, operations: string[]): INodeProperties {
	return {
		displayName: ID_LABEL[resource],
		name: 'orderId',
		type: 'string',
		required: true,
		default: '',
		placeholder: resource === 'order' ? '123456' : 'E123456',
		description: ID_HINT[resource],
		displayOptions: showFor(resource, operations),
	};
}

function readId(ctx: IExecuteFunctions, itemIndex: number, resource: Kind): string {
	return requireText(ctx, itemIndex, ctx.getNodeParameter('orderId', itemIndex, ''), 'orderId', ID_PATTERN[resource]);
}

export function getDescription(resource: Kind): INodeProperties[] {
	return [
		idProperty(resource, ['get']),
		{
			displayName: 'Simplify',
			name: 'simplify',
			type: 'boolean',
			default: true,
			description: 'Whether to return a simplified version of the response instead of the raw data',
			displayOptions: showFor(resource, ['get']),
		},
		extraParameters(resource, ['get'], 'query'),
	];
}

const SIMPLE_FIELDS: Record<Kind, string[]> = {
	order: [
		'id',
		'shipType',
		'status',
		'statusText',
		'status_delivery',
		'tracking',
		'value',
		'tag',
		'numPages',
		'dateSubmit',
		'dateLastChange',
		'pdf_available',
		'rr_available',
		'rr_count',
		'files',
		'name',
		'city',
		'state',
	],
	// The read shape of a registered e-mail is not shown; these are the names its webhooks carry.
	registeredEmail: ['id', 'status', 'statusText', 'subject', 'recipient', 'value', 'opened', 'date_opened', 'created_at', 'files'],
};

export async function get(ctx: IExecuteFunctions, itemIndex: number, resource: Kind): Promise<INodeExecutionData[]> {
	const id = readId(ctx, itemIndex, resource);
	const { data } = await serviceRequest(
		ctx,
		{
			method: 'GET',
			path: `/api/v2/get/{token}/${encodeURIComponent(id)}`,
			auth: 'path',
			envelope: 'A',
			answer: ANSWERS.order,
			idempotent: true,
			qs: readExtraParameters(ctx, itemIndex),
		},
		itemIndex,
	);
	const order: IDataObject = { ...(data as IDataObject) };
	const statuses = resource === 'registeredEmail' ? EMAIL_STATUS : ORDER_STATUS;
	if (typeof order.status === 'number' && statuses[order.status]) order.statusText = statuses[order.status];
	if (!ctx.getNodeParameter('simplify', itemIndex, true)) return [withItem(order, itemIndex)];
	const simple: IDataObject = {};
	for (const field of SIMPLE_FIELDS[resource]) if (order[field] !== undefined) simple[field] = order[field];
	return [withItem(simple, itemIndex)];
}

export function downloadFileDescription(resource: Kind): INodeProperties[] {
	return [
		idProperty(resource, ['downloadFile']),
		{
			displayName: 'File Type',
			name: 'fileType',
			type: 'options',
			default: 'pdf',
			options: [
				{ name: 'Electronic Return Receipt', value: 'rr_electronic', description: 'Return receipt returned digitally' },
				{ name: 'Letter Front', value: 'letter_front', description: 'The front page as printed' },
				{ name: 'PDF', value: 'pdf', description: 'The document that was sent' },
				{ name: 'Return Receipt', value: 'rr', description: 'Scanned paper return receipt' },
				{ name: 'Sender Copy', value: 'sender_copy', description: 'Copy for the sender (telegrams)' },
			],
			displayOptions: showFor(resource, ['downloadFile']),
		},
		{
			displayName: 'Return Receipt File Name',
			name: 'returnReceiptFileName',
			type: 'string',
			default: '',
			description:
				'When the order has several return receipts, the name of the one to download (see "files" of Get). Empty: the most recent.',
			displayOptions: showFor(resource, ['downloadFile'], { fileType: ['rr', 'rr_electronic'] }),
		},
		{
			displayName: 'Put Output File in Field',
			name: 'binaryPropertyName',
			type: 'string',
			required: true,
			default: 'data',
			hint: 'The name of the output binary field to put the file in',
			displayOptions: showFor(resource, ['downloadFile']),
		},
		extraParameters(resource, ['downloadFile'], 'query'),
	];
}

export async function downloadFile(ctx: IExecuteFunctions, itemIndex: number, resource: Kind): Promise<INodeExecutionData[]> {
	const id = readId(ctx, itemIndex, resource);
	const fileType = requireText(ctx, itemIndex, ctx.getNodeParameter('fileType', itemIndex, 'pdf'), 'type', {
		test: new RegExp(`^(${FILE_TYPES.join('|')})$`),
		hint: `must be one of ${FILE_TYPES.join(', ')}`,
	});
	const property = requireText(ctx, itemIndex, ctx.getNodeParameter('binaryPropertyName', itemIndex, 'data'), 'binaryPropertyName');
	const qs: IDataObject = {};
	const rrName = String(ctx.getNodeParameter('returnReceiptFileName', itemIndex, '') ?? '').trim();
	if (rrName && (fileType === 'rr' || fileType === 'rr_electronic')) qs[ASSUMED.downloadFileNameParam] = rrName;
	Object.assign(qs, readExtraParameters(ctx, itemIndex));

	const { data } = await serviceRequest(
		ctx,
		{
			method: 'GET',
			path: `/api/v2/download/{token}/${encodeURIComponent(id)}/${fileType}`,
			auth: 'path',
			envelope: 'A',
			answer: ANSWERS.file,
			idempotent: true,
			qs,
		},
		itemIndex,
	);
	const file = data as { file_base64: string; file_name: string; file_type: string; id_job: string };
	const fileName = file.file_name || `${id}-${fileType}.pdf`;
	const json: IDataObject = { id_job: file.id_job || id, file_name: fileName, file_type: file.file_type || fileType };
	const binaryData = await ctx.helpers.prepareBinaryData(Buffer.from(file.file_base64, 'base64'), fileName, mimeTypeOf(fileName));
	return [{ json, binary: { [property]: binaryData }, pairedItem: { item: itemIndex } }];
}

export function cancelDescription(resource: Kind): INodeProperties[] {
	return [
		idProperty(resource, ['cancel']),
		{
			displayName: 'Force',
			name: 'force',
			type: 'boolean',
			default: false,
			description:
				'Whether to cancel whatever the status. Without it only orders that are processing (0) or lack credits (2) can be cancelled.',
			displayOptions: showFor(resource, ['cancel']),
		},
		{
			displayName: 'Reason',
			name: 'reason',
			type: 'string',
			default: '',
			placeholder: 'Cancelado via API',
			description: 'Note stored with the cancellation. Empty: the service writes "Cancelado via API".',
			displayOptions: showFor(resource, ['cancel']),
		},
		extraParameters(resource, ['cancel'], 'query'),
	];
}

export async function cancel(ctx: IExecuteFunctions, itemIndex: number, resource: Kind): Promise<INodeExecutionData[]> {
	const id = readId(ctx, itemIndex, resource);
	const qs: IDataObject = {};
	if (ctx.getNodeParameter('force', itemIndex, false)) qs[ASSUMED.cancelForceParam] = 'yes';
	const reason = String(ctx.getNodeParameter('reason', itemIndex, '') ?? '').trim();
	if (reason) qs[ASSUMED.cancelReasonParam] = reason;
	Object.assign(qs, readExtraParameters(ctx, itemIndex));
	const request: ServiceRequest = {
		method: 'DELETE',
		path: `/api/v2/delete/{token}/${encodeURIComponent(id)}`,
		auth: 'path',
		envelope: 'A',
		answer: ANSWERS.cancelled,
		// Repeating a cancel that went through would turn into "already cancelled": let the user look.
		idempotent: false,
		qs,
		verify: `read ${id} with ${resource === 'order' ? 'Order' : 'Registered E-Mail'} > Get: its status says whether it is cancelled`,
	};
	return await sendOnce(ctx, itemIndex, request, ({ data }) => [withItem(data as IDataObject, itemIndex)]);
}
