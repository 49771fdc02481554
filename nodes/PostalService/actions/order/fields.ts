import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { PdfSource, ValidationProblem } from '../../contract/order';
import { applyForcing, SHIP_TYPE_RULES, SHIP_TYPES, validateOrder } from '../../contract/order';
import { pageProblems } from '../../contract/pdfPages';
import { invalidItem, readExtraParameters } from '../common';

const OPERATIONS = ['create', 'getPrice'];
const show = (extra: IDataObject = {}): INodeProperties['displayOptions'] =>
	({ show: { resource: ['order'], operation: OPERATIONS, ...extra } }) as INodeProperties['displayOptions'];
const forShipTypes = (types: readonly number[], extra: IDataObject = {}) => show({ shipType: [...types], ...extra });

/** Sender fields: property name in the node → field name on the wire. */
const SENDER_FIELDS: Array<{ name: string; wire: string; displayName: string; description: string }> = [
	{ name: 'name', wire: 'name_sender', displayName: 'Name', description: 'Sender name, up to 60 characters' },
	{ name: 'addr1', wire: 'addr1_sender', displayName: 'Street', description: 'Street address, up to 60 characters' },
	{ name: 'streetNumber', wire: 'street_number_sender', displayName: 'Number', description: 'Street number, up to 15 characters' },
	{ name: 'addr2', wire: 'addr2_sender', displayName: 'Complement', description: 'Apartment, suite, district; up to 40 characters' },
	{ name: 'zip', wire: 'zip_sender', displayName: 'Postal Code', description: 'Brazilian CEP of 8 digits (like 01310-100)' },
	{ name: 'city', wire: 'city_sender', displayName: 'City', description: 'Up to 40 characters' },
	{ name: 'state', wire: 'state_sender', displayName: 'State', description: 'For Brazil the 2-letter state code (like SP)' },
	{ name: 'country', wire: 'country_sender', displayName: 'Country', description: 'Up to 60 characters' },
];

// Fields that only some ship types need are not marked required: with the ship type set by an
// expression n8n shows every one of them and would refuse to run the workflow. The contract check
// of each item asks for them instead, naming the field.
export const orderFields: INodeProperties[] = [
	{
		displayName: 'Ship Type',
		name: 'shipType',
		type: 'options',
		required: true,
		default: 2,
		options: SHIP_TYPES.map(({ value, name }) => ({ name: `${value}: ${name}`, value })),
		description:
			'What to send. Letters, direct mail and express parcels (1-3, 5-7) need a PDF; a telegram (4) needs its message; electronic letters (8-10) need their message.',
		displayOptions: show(),
	},
	{
		displayName: 'Recipient Name',
		name: 'recipientName',
		type: 'string',
		required: true,
		default: '',
		description: 'Up to 60 characters',
		displayOptions: show(),
	},
	{
		displayName: 'Recipient Street',
		name: 'recipientAddr1',
		type: 'string',
		required: true,
		default: '',
		description: 'Street address, up to 60 characters',
		displayOptions: show(),
	},
	{
		displayName: 'Recipient Number',
		name: 'recipientStreetNumber',
		type: 'string',
		required: true,
		default: '',
		description: 'Street number, up to 15 characters',
		displayOptions: show(),
	},
	{
		displayName: 'Recipient Complement',
		name: 'recipientAddr2',
		type: 'string',
		default: '',
		description: 'Apartment, suite, district; up to 40 characters',
		displayOptions: show(),
	},
	{
		displayName: 'Recipient Postal Code',
		name: 'recipientZip',
		type: 'string',
		required: true,
		default: '',
		placeholder: '01310-100',
		description: 'For Brazil the CEP: 8 digits, with or without the hyphen. It must belong to the state.',
		displayOptions: show(),
	},
	{
		displayName: 'Recipient City',
		name: 'recipientCity',
		type: 'string',
		required: true,
		default: '',
		description: 'Up to 40 characters',
		displayOptions: show(),
	},
	{
		displayName: 'Recipient State',
		name: 'recipientState',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'SP',
		description: 'For Brazil the 2-letter state code',
		displayOptions: show(),
	},
	{
		displayName: 'Recipient Country',
		name: 'recipientCountry',
		type: 'string',
		required: true,
		default: 'Brasil',
		description: 'Up to 60 characters',
		displayOptions: show(),
	},
	{
		displayName: 'PDF Source',
		name: 'pdfSource',
		type: 'options',
		default: 'binary',
		options: [
			{ name: 'Binary Property of the Input Item', value: 'binary', description: 'A file from a previous node' },
			{ name: 'URL', value: 'url', description: 'A public link the service downloads' },
			{ name: 'Base64', value: 'base64', description: 'The PDF content encoded as base64 text' },
		],
		description: 'Where the letter content comes from. At most 150 pages; password-protected PDFs are refused.',
		displayOptions: forShipTypes(SHIP_TYPE_RULES.pdf),
	},
	{
		displayName: 'Input Binary Field',
		name: 'binaryPropertyName',
		type: 'string',
		required: true,
		default: 'data',
		hint: 'The name of the input binary field containing the PDF',
		displayOptions: forShipTypes(SHIP_TYPE_RULES.pdf, { pdfSource: ['binary'] }),
	},
	{
		displayName: 'PDF URL',
		name: 'pdfUrl',
		type: 'string',
		default: '',
		placeholder: 'https://example.com/letter.pdf',
		description: 'Public link to the PDF; a public link of an online document-sharing service works too',
		displayOptions: forShipTypes(SHIP_TYPE_RULES.pdf, { pdfSource: ['url'] }),
	},
	{
		displayName: 'PDF Base64',
		name: 'pdfBase64',
		type: 'string',
		typeOptions: { rows: 3 },
		default: '',
		description: 'The PDF content encoded as base64',
		displayOptions: forShipTypes(SHIP_TYPE_RULES.pdf, { pdfSource: ['base64'] }),
	},
	{
		displayName: 'Telegram Message',
		name: 'telegramMessage',
		type: 'string',
		typeOptions: { rows: 5 },
		default: '',
		description: 'Text of the telegram: at least 10 characters, at most 10 rendered pages',
		displayOptions: forShipTypes(SHIP_TYPE_RULES.telegram),
	},
	{
		displayName: 'Post-Dated',
		name: 'telegramPostDated',
		type: 'boolean',
		default: false,
		description: 'Whether the telegram is delivered on a later date',
		displayOptions: forShipTypes(SHIP_TYPE_RULES.telegram),
	},
	{
		displayName: 'Delivery Date',
		name: 'telegramPostDatedDate',
		type: 'dateTime',
		default: '',
		description: 'Tomorrow or later (São Paulo time); only the date part is sent',
		displayOptions: forShipTypes(SHIP_TYPE_RULES.telegram, { telegramPostDated: [true] }),
	},
	{
		displayName: 'Sender Copy',
		name: 'telegramSenderCopy',
		type: 'boolean',
		default: false,
		description: 'Whether to get a copy of the telegram',
		displayOptions: forShipTypes(SHIP_TYPE_RULES.telegram),
	},
	{
		displayName: 'Delivery Confirmation',
		name: 'telegramDeliveryConfirmation',
		type: 'boolean',
		default: false,
		description: 'Whether to get a confirmation of delivery',
		displayOptions: forShipTypes(SHIP_TYPE_RULES.telegram),
	},
	{
		displayName: 'Electronic Letter Message',
		name: 'electronicLetterMessage',
		type: 'string',
		typeOptions: { rows: 6 },
		default: '',
		description: 'Content of the electronic letter: at least 10 characters, HTML allowed, at most 10 rendered pages',
		displayOptions: forShipTypes(SHIP_TYPE_RULES.electronicLetter),
	},
	{
		displayName: 'Return Receipt Type',
		name: 'returnReceiptType',
		type: 'options',
		default: 'physical',
		options: [
			{ name: 'Physical', value: 'physical', description: 'A scanned paper receipt' },
			{ name: 'Electronic', value: 'electronic', description: 'A receipt returned digitally' },
		],
		displayOptions: forShipTypes(SHIP_TYPE_RULES.returnReceipt),
	},
	{
		displayName: 'Recipient Address Only',
		name: 'toAddrOnly',
		type: 'boolean',
		default: false,
		description:
			'Whether to set the service\'s "address only" flag (toAddrOnly=1). The service considers it only for ship types 2, 3, 6, 7 and 10 and forces it to 0 otherwise.',
		displayOptions: forShipTypes(SHIP_TYPE_RULES.toAddrOnly),
	},
	{
		displayName: 'Payment Method',
		name: 'paymentMethod',
		type: 'options',
		default: 'service_credits',
		options: [
			{ name: 'Credits', value: 'service_credits', description: 'Pay from the account balance' },
			{ name: 'Invoice', value: 'invoice', description: 'Bill the account' },
			{ name: 'Team', value: 'team', description: 'Charge a team member' },
		],
		displayOptions: show(),
	},
	{
		displayName: 'Team Member ID',
		name: 'teamMemberId',
		type: 'number',
		required: true,
		default: 0,
		description: 'ID of the team member who pays',
		displayOptions: show({ paymentMethod: ['team'] }),
	},
	{
		displayName: 'Sender',
		name: 'sender',
		type: 'collection',
		placeholder: 'Add Sender Field',
		default: {},
		description: 'Sender address. Fields left out are taken from the account profile. Ignored with Virtual Box.',
		displayOptions: show(),
		options: SENDER_FIELDS.map(({ name, displayName, description }) => ({
			displayName,
			name,
			type: 'string' as const,
			default: '',
			description,
		})),
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: show(),
		options: [
			{
				displayName: 'Duplex Printing',
				name: 'duplexPrinting',
				type: 'boolean',
				default: true,
				description:
					'Whether to print on both sides. The service forces it on for single-page PDFs and off for the auto-envelope.',
				displayOptions: { show: { '/shipType': [...SHIP_TYPE_RULES.pdf] } },
			},
			{
				displayName: 'Envelope Type',
				name: 'envelopeType',
				type: 'options',
				default: 'regular',
				options: [
					{ name: 'Regular', value: 'regular' },
					{ name: 'Auto-Envelope', value: 'autoenvelope', description: 'Needs a single-page PDF' },
				],
				displayOptions: { show: { '/shipType': [...SHIP_TYPE_RULES.pdf] } },
			},
			{
				displayName: 'Tag',
				name: 'tag',
				type: 'string',
				default: '',
				description: 'A free label, useful to find the order again',
			},
			{
				displayName: 'Use Client Contract',
				name: 'useClientContract',
				type: 'boolean',
				default: false,
				description:
					'Whether to bill the shipment to your own postal-operator contract (business accounts with a contract; not for ship types 1 and 5)',
				displayOptions: { show: { '/shipType': [...SHIP_TYPE_RULES.clientContract] } },
			},
			{
				displayName: 'Virtual Box',
				name: 'virtualBox',
				type: 'boolean',
				default: false,
				description:
					'Whether to use the service unit as sender (virtual-box pricing). Express parcels (6, 7) need it unless your sender address is in the city of the service unit, which the node cannot check.',
			},
		],
	},
];

export interface OrderRequest {
	fields: Record<string, string>;
	pdf: PdfSource;
	binary?: { buffer: Buffer; fileName: string; mimeType: string };
}

const flag = (value: unknown) => (value === true || value === 1 || value === '1' || value === 'true' ? '1' : '0');
const text = (value: unknown) => (value === undefined || value === null ? '' : String(value).trim());

/** Reads one item's create-order parameters into wire fields, checks them, and builds the PDF part. */
export async function readOrder(ctx: IExecuteFunctions, itemIndex: number, test: boolean): Promise<OrderRequest> {
	const p = <T>(name: string, fallback: T) => ctx.getNodeParameter(name, itemIndex, fallback) as T;
	const shipType = Number(p('shipType', 0));
	const has = (list: readonly number[]) => list.includes(shipType);

	const fields: Record<string, string> = {
		shipType: String(p('shipType', '')),
		name: text(p('recipientName', '')),
		addr1: text(p('recipientAddr1', '')),
		street_number: text(p('recipientStreetNumber', '')),
		addr2: text(p('recipientAddr2', '')),
		zip: text(p('recipientZip', '')),
		city: text(p('recipientCity', '')),
		state: text(p('recipientState', '')),
		country: text(p('recipientCountry', '')),
		paymentMethod: text(p('paymentMethod', 'service_credits')),
	};
	if (!fields.addr2) delete fields.addr2;
	if (fields.paymentMethod === 'team') fields.team_member_id = text(p('teamMemberId', ''));
	if (test) fields.test = '1';

	const sender = p<IDataObject>('sender', {});
	for (const { name, wire } of SENDER_FIELDS) {
		if (text(sender[name])) fields[wire] = text(sender[name]);
	}

	const additional = p<IDataObject>('additionalFields', {});
	if (additional.tag !== undefined && text(additional.tag)) fields.tag = text(additional.tag);
	if (additional.virtualBox !== undefined) fields.virtualbox = flag(additional.virtualBox);
	if (additional.useClientContract !== undefined) fields.use_client_contract = flag(additional.useClientContract);
	if (additional.duplexPrinting !== undefined) fields.duplex_printing = flag(additional.duplexPrinting);
	if (additional.envelopeType !== undefined) fields.envelope_type = text(additional.envelopeType);

	if (has(SHIP_TYPE_RULES.returnReceipt)) fields.ar_type = text(p('returnReceiptType', 'physical'));
	else {
		// A value left from another ship type (or set by an expression) is still checked: the
		// service refuses electronic receipts for the other types.
		const arType = text(p('returnReceiptType', ''));
		if (arType && arType !== 'physical') fields.ar_type = arType;
	}
	const toAddrOnly = p<unknown>('toAddrOnly', null);
	if (toAddrOnly !== null && toAddrOnly !== undefined) fields.toAddrOnly = flag(toAddrOnly);

	if (has(SHIP_TYPE_RULES.telegram)) {
		fields.telegram_msg = text(p('telegramMessage', ''));
		const postDated = flag(p('telegramPostDated', false));
		fields.telegram_post_dated = postDated;
		if (postDated === '1') {
			// A dateTime parameter arrives as an ISO string (or a date object from an expression); the
			// service takes the date alone.
			const raw = p<unknown>('telegramPostDatedDate', '');
			const date = raw instanceof Date ? raw.toISOString() : text(raw);
			fields.telegram_post_dated_date = /^\d{4}-\d{2}-\d{2}/.test(date) ? date.slice(0, 10) : date;
		}
		fields.telegram_sender_copy = flag(p('telegramSenderCopy', false));
		fields.telegram_delivery_confirmation = flag(p('telegramDeliveryConfirmation', false));
	}
	if (has(SHIP_TYPE_RULES.electronicLetter)) fields.ecarta_msg = String(p('electronicLetterMessage', '') ?? '');

	let pdf: PdfSource = { kind: 'none' };
	let binary: OrderRequest['binary'];
	let missingBinary: ValidationProblem | undefined;
	if (has(SHIP_TYPE_RULES.pdf)) {
		const source = p<string>('pdfSource', 'binary');
		if (source === 'url') {
			const url = text(p('pdfUrl', ''));
			pdf = url ? { kind: 'url', url } : { kind: 'none' };
		} else if (source === 'base64') {
			const base64 = text(p('pdfBase64', '')).replace(/^data:[^,]*,/, '');
			pdf = base64 ? { kind: 'base64', bytes: Buffer.from(base64, 'base64') } : { kind: 'none' };
			if (base64) fields.pdfFile = base64;
		} else {
			const property = text(p('binaryPropertyName', 'data'));
			const item = ctx.getInputData()[itemIndex];
			if (!property || !item?.binary?.[property]) {
				missingBinary = {
					field: 'pdfFile',
					message: `"pdfFile" is required for shipType ${shipType}, but the input item has no binary property "${property}"`,
				};
			} else {
				const meta = ctx.helpers.assertBinaryData(itemIndex, property);
				const buffer = await ctx.helpers.getBinaryDataBuffer(itemIndex, property);
				pdf = { kind: 'binary', bytes: buffer };
				binary = { buffer, fileName: meta.fileName ?? 'letter.pdf', mimeType: meta.mimeType || 'application/pdf' };
			}
		}
		if (pdf.kind === 'url') fields.pdfFile = pdf.url!;
	}

	// What is checked is what will be sent: the extras are merged first.
	const wire = { ...fields, ...readExtraParameters(ctx, itemIndex, ORDER_OWNED) };
	// The missing binary property is reported in place of the generic "pdfFile is required".
	const problems = validateOrder(wire, pdf).filter((p) => !missingBinary || p.field !== 'pdfFile');
	if (missingBinary) problems.unshift(missingBinary);
	if (!problems.length) problems.push(...(await pageProblems(wire, pdf)));
	if (problems.length) throw invalidItem(ctx, itemIndex, problems);
	return { fields: applyForcing(wire), pdf, binary };
}

/** Fields of a create that Extra Parameters cannot set. */
const ORDER_OWNED = {
	test: 'the operation decides it: Get Price always sends test=1 and creates nothing, Create never sends it',
	pdffile: 'choose the PDF with "PDF Source" (binary data, URL or base64)',
};

/** The multipart body of a create (or quote) request. */
export function orderForm(order: OrderRequest): FormData {
	const form = new FormData();
	for (const [name, value] of Object.entries(order.fields)) form.append(name, value);
	if (order.binary) {
		form.append(
			'pdfFile',
			new Blob([new Uint8Array(order.binary.buffer)], { type: order.binary.mimeType }),
			order.binary.fileName,
		);
	}
	return form;
}
