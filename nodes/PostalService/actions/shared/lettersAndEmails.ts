/** Letters and registered e-mail share the read, download and cancel routes; the id tells them apart (digits, or E and digits). */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { ASSUMED } from '../../contract/assumptions';
import { byName, CURRENCY, EMAIL_STATUSES, meaningOf, ORDER_STATUSES, type FileType, valuesOf } from '../../contract/lists';
import { outputFileProperty } from '../descriptions';
import { ItemCheck, simplified, withItem } from '../item';
import type { ItemInput, ItemWork, ServiceCall, WriteWork } from '../types';

export interface OrderIdKind {
	property: INodeProperties;
	pattern: { test: RegExp; hint: string };
}

/** The Letter ID or Registered E-Mail ID locator: `regex` for the editor, `pattern` for the run (an expression can give anything). */
function orderIdKind(displayName: string, description: string, placeholder: string, regex: string, errorMessage: string, pattern: OrderIdKind['pattern']): OrderIdKind {
	return {
		property: {
			displayName,
			name: 'orderId',
			type: 'resourceLocator',
			required: true,
			default: { mode: 'id', value: '' },
			description,
			modes: [{ displayName: 'By ID', name: 'id', type: 'string', placeholder, validation: [{ type: 'regex', properties: { regex, errorMessage } }] }],
		},
		pattern,
	};
}

export const LETTER_ID = orderIdKind(
	'Letter ID',
	'ID of the letter, digits only (like 100001), as Letter > Send returns it',
	'123456',
	'^\\s*\\d+\\s*$',
	'A letter ID is made of digits (like 123456); a registered e-mail ID (E123456) belongs to the Registered E-Mail resource',
	{
		test: /^\d+$/,
		hint: 'must be a letter ID made of digits (like 123456); for a registered e-mail (E followed by digits) use the Registered E-Mail resource',
	},
);

export const EMAIL_ID = orderIdKind(
	'Registered E-Mail ID',
	'ID of the registered e-mail: E followed by digits (like E123456)',
	'E123456',
	'^\\s*E\\d+\\s*$',
	'A registered e-mail ID is E followed by digits (like E123456)',
	{ test: /^E\d+$/, hint: 'must be a registered e-mail ID: E followed by digits (like E123456)' },
);

/** The id of an item, checked again at run time: an expression can produce anything the editor did not see. */
export function readOrderId(ctx: IExecuteFunctions, check: ItemCheck, kind: OrderIdKind): string {
	return check.text(ctx.getNodeParameter('orderId', check.itemIndex, '', { extractValue: true }), 'orderId', kind.pattern);
}

/** Which kind of order a read is for, what Simplify keeps of it, and where its status is explained. */
export interface OrderView {
	kind: OrderIdKind;
	statuses: ReadonlyArray<{ value: number; meaning: string }>;
	simpleFields: readonly string[];
}

/** Reads an order by its id (the route serves letters and registered e-mail alike). */
export function prepareOrderRead(ctx: IExecuteFunctions, itemIndex: number, input: ItemInput, view: OrderView): ItemWork {
	const check = new ItemCheck(ctx, itemIndex, { orderId: view.kind.property.displayName });
	const id = readOrderId(ctx, check, view.kind);
	const simplify = ctx.getNodeParameter('simplify', itemIndex, true) as boolean;
	const qs = check.extraParameters(input);
	return {
		send: async (call) => {
			const { data } = await call('getOrder', { params: { id }, qs });
			const order: IDataObject = { ...(data as IDataObject) };
			const statusText = meaningOf(view.statuses, order.status);
			if (statusText) order.statusText = statusText;
			if (typeof order.value === 'number') order.currency = CURRENCY;
			return [withItem(simplified(order, view.simpleFields, simplify), itemIndex)];
		},
	};
}

export type FileTypeOption = { value: FileType; name: string; description: string };

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
		outputFileProperty('The name of the output binary field to put the file in', {
			required: true,
			description: 'The binary field of the output item that receives the file; "data" unless a later node expects another name',
		}),
	];
	const hasReturnReceipts = fileTypes.some(({ value }) => value === 'rr' || value === 'rr_electronic');
	return properties.filter((property) => property.name !== 'returnReceiptFileName' || hasReturnReceipts);
}

/** Downloads one file of an order by its id (the route serves letters and registered e-mail alike). */
export function prepareDownload(ctx: IExecuteFunctions, itemIndex: number, input: ItemInput, kind: OrderIdKind, offered: readonly FileTypeOption[]): ItemWork {
	const check = new ItemCheck(ctx, itemIndex, { orderId: kind.property.displayName, type: 'File Type', binaryPropertyName: 'Put Output File in Field' });
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
			const { data } = await call('downloadOrderFile', { params: { id, type: fileType }, qs }).catch(async (error: Error) => {
				throw await missingFile(call, error, id, fileType, kind, offered);
			});
			const file = data as { file_base64: string; file_name: string; file_type: string; id_job: string };
			const fileName = file.file_name || `${id}-${fileType}.pdf`;
			const json: IDataObject = { id_job: file.id_job || id, file_name: fileName, file_type: file.file_type || fileType };
			// The service sends no type: n8n takes it from the file's name, else its content.
			const binaryData = await ctx.helpers.prepareBinaryData(Buffer.from(file.file_base64, 'base64'), fileName);
			return [{ json, binary: { [property]: binaryData }, pairedItem: { item: itemIndex } }];
		},
	};
}

/** A refused download whose letter, read again, has no file of that type: said in English with the files it has, the service's words after (a registered e-mail's record lists no files). */
async function missingFile(call: ServiceCall, error: Error & { httpCode?: string | null }, id: string, type: string, kind: OrderIdKind, offered: readonly FileTypeOption[]) {
	const said = error.message.indexOf('The service said:');
	if (error.httpCode !== '400' || said < 0 || kind !== LETTER_ID) return error;
	const files = ((await call('getOrder', { params: { id } }).catch(() => undefined))?.data as IDataObject | undefined)?.files;
	const types = Array.isArray(files) ? [...new Set((files as IDataObject[]).map((file) => String(file.type)))] : [type];
	if (types.includes(type)) return error;
	const name = (value: string) => `${offered.find((option) => option.value === value)?.name ?? value} (${value})`;
	const has = types.length ? `its files are ${types.map(name).join(', ')}` : 'it has no file yet';
	error.message = `${kind.property.displayName.replace(/ ID$/, '')} ${id} has no ${name(type)} file: ${has}. Choose one of those in "File Type". ${error.message.slice(said)}`;
	return error;
}

/** Force and reason of a cancellation. */
export const cancelProperties: INodeProperties[] = [
	{
		displayName: 'Force',
		name: 'force',
		type: 'boolean',
		default: false,
		description:
			'Whether to cancel whatever the status. Without it only orders that are still processing (status 0) or waiting for credits (status 2) can be cancelled.',
	},
	{
		displayName: 'Reason',
		name: 'reason',
		type: 'string',
		default: '',
		placeholder: 'Cancelado via API',
		description: 'Why the order is cancelled, stored with the cancellation. Left empty, the service writes "Cancelado via API".',
	},
];

/** Cancels an order by its id (the route serves letters and registered e-mail alike). */
export function prepareCancel(ctx: IExecuteFunctions, itemIndex: number, input: ItemInput, kind: OrderIdKind): WriteWork {
	const check = new ItemCheck(ctx, itemIndex, { orderId: kind.property.displayName });
	const id = readOrderId(ctx, check, kind);
	const qs: IDataObject = {};
	if (ctx.getNodeParameter('force', itemIndex, false)) qs[ASSUMED.cancelForceParam] = 'yes';
	const reason = String(ctx.getNodeParameter('reason', itemIndex, '') ?? '').trim();
	if (reason) qs[ASSUMED.cancelReasonParam] = reason;
	Object.assign(qs, check.extraParameters(input));
	const email = id.startsWith('E');
	return {
		send: async (call) => {
			const { data } = await call('cancelOrder', {
				params: { id },
				qs,
				verify: `read ${id} with ${email ? 'Registered E-Mail' : 'Letter'} > Get: its status says whether it is cancelled`,
			});
			const json: IDataObject = { ...(data as IDataObject) };
			// The service's status_text is Portuguese: the English meaning goes beside it, as Get does.
			const statusText = meaningOf(email ? EMAIL_STATUSES : ORDER_STATUSES, json.status);
			if (statusText) json.statusText = statusText;
			return [withItem(json, itemIndex)];
		},
	};
}
