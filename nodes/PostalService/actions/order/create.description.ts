/**
 * The parameters of Order > Create (and of Get Price, which sends the same order with test=1): pure
 * description data.
 */
import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

import { AR_TYPES, ENVELOPE_TYPES, SHIP_TYPES } from '../../contract/lists';
import { SHIP_TYPE_RULES } from '../../contract/order';
import { extraParameters, paymentProperties } from '../descriptions';

/** Shown only for the given ship types (and, optionally, other parameters' values). */
const forShipTypes = (types: readonly number[], extra: IDisplayOptions['show'] = {}): IDisplayOptions => ({
	show: { shipType: [...types], ...extra },
});

/** Sender fields: property name in the node → field name on the wire. */
export const SENDER_FIELDS: Array<{ name: string; wire: string; displayName: string; description: string }> = [
	{ name: 'name', wire: 'name_sender', displayName: 'Name', description: 'Sender name, up to 60 characters' },
	{ name: 'addr1', wire: 'addr1_sender', displayName: 'Street', description: 'Street address, up to 60 characters' },
	{ name: 'streetNumber', wire: 'street_number_sender', displayName: 'Number', description: 'Street number, up to 15 characters' },
	{ name: 'addr2', wire: 'addr2_sender', displayName: 'Complement', description: 'Apartment, suite, district; up to 40 characters' },
	{ name: 'zip', wire: 'zip_sender', displayName: 'Postal Code', description: 'Brazilian CEP: 8 digits, written NNNNN-NNN or NNNNNNNN (like 01310-100)' },
	{ name: 'city', wire: 'city_sender', displayName: 'City', description: 'City of the sender; up to 40 characters' },
	{ name: 'state', wire: 'state_sender', displayName: 'State', description: 'For Brazil the 2-letter state code (like SP); up to 40 characters' },
	{ name: 'country', wire: 'country_sender', displayName: 'Country', description: 'Country of the sender (like Brasil); up to 60 characters' },
];

// Fields that only some ship types need are not marked required: with the ship type set by an
// expression n8n shows every one of them and would refuse to run the workflow. The contract check
// of each item asks for them instead, naming the field.
export const properties: INodeProperties[] = [
	{
		displayName: 'Ship Type',
		name: 'shipType',
		type: 'options',
		required: true,
		default: 2,
		options: SHIP_TYPES.map(({ value, name }) => ({ name: `${value}: ${name}`, value })),
		description:
			'What to send. Letters, direct mail and express parcels (1-3, 5-7) need a PDF; a telegram (4) needs its message; electronic letters (8-10) need their message.',
	},
	{
		displayName: 'Recipient Name',
		name: 'recipientName',
		type: 'string',
		required: true,
		default: '',
		description: 'Full name of the person or company the letter goes to; up to 60 characters',
	},
	{
		displayName: 'Recipient Street',
		name: 'recipientAddr1',
		type: 'string',
		required: true,
		default: '',
		description: 'Street of the recipient without the number (like Avenida Paulista); up to 60 characters',
	},
	{
		displayName: 'Recipient Number',
		name: 'recipientStreetNumber',
		type: 'string',
		required: true,
		default: '',
		description: 'Number of the building in the street (like 1578); up to 15 characters',
	},
	{
		displayName: 'Recipient Complement',
		name: 'recipientAddr2',
		type: 'string',
		default: '',
		description: 'Apartment, suite, district; up to 40 characters',
	},
	{
		displayName: 'Recipient Postal Code',
		name: 'recipientZip',
		type: 'string',
		required: true,
		default: '',
		placeholder: '01310-100',
		description:
			'For Brazil the CEP: 8 digits, written NNNNN-NNN or NNNNNNNN (like 01310-100 or 01310100). It must belong to the Recipient State: a CEP of another state is refused.',
	},
	{
		displayName: 'Recipient City',
		name: 'recipientCity',
		type: 'string',
		required: true,
		default: '',
		description: 'City of the recipient (like São Paulo); up to 40 characters',
	},
	{
		displayName: 'Recipient State',
		name: 'recipientState',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'SP',
		description: 'For Brazil the 2-letter state code (like SP), the state of the postal code; up to 40 characters',
	},
	{
		displayName: 'Recipient Country',
		name: 'recipientCountry',
		type: 'string',
		required: true,
		default: 'Brasil',
		description: 'Country of the recipient as written on the envelope (like Brasil); up to 60 characters',
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
		hint: 'The name of the input binary field containing the PDF (at most 150 pages)',
		displayOptions: forShipTypes(SHIP_TYPE_RULES.pdf, { pdfSource: ['binary'] }),
	},
	{
		displayName: 'PDF URL',
		name: 'pdfUrl',
		type: 'string',
		default: '',
		placeholder: 'https://example.com/letter.pdf',
		description:
			'Public http or https link to the PDF, which the service downloads: at most 150 pages, not password-protected; a public link of an online document-sharing service works too',
		displayOptions: forShipTypes(SHIP_TYPE_RULES.pdf, { pdfSource: ['url'] }),
	},
	{
		displayName: 'PDF Base64',
		name: 'pdfBase64',
		type: 'string',
		typeOptions: { rows: 3 },
		default: '',
		description: 'The PDF content encoded as base64; at most 150 pages',
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
		description: 'Tomorrow or later (São Paulo time); only the date part is sent, as YYYY-MM-DD',
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
		options: AR_TYPES.map(({ value, name, description }) => ({ name, value, description })),
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
	...paymentProperties(),
	{
		displayName: 'Sender',
		name: 'sender',
		type: 'collection',
		placeholder: 'Add Sender Field',
		default: {},
		description: 'Sender address. Fields left out are taken from the account profile. Ignored with Virtual Box.',
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
				options: ENVELOPE_TYPES.map((type) => ({ ...type })),
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
	extraParameters('body'),
];

/**
 * The node field each wire name of Create / Get Price comes from, so an error names what the user
 * sees next to what the service calls it.
 */
export const CREATE_FIELD_NAMES: Record<string, string> = {
	shipType: 'Ship Type',
	name: 'Recipient Name',
	addr1: 'Recipient Street',
	street_number: 'Recipient Number',
	addr2: 'Recipient Complement',
	zip: 'Recipient Postal Code',
	city: 'Recipient City',
	state: 'Recipient State',
	country: 'Recipient Country',
	pdfFile: 'PDF Source',
	ar_type: 'Return Receipt Type',
	paymentMethod: 'Payment Method',
	team_member_id: 'Team Member ID',
	use_client_contract: 'Use Client Contract',
	tag: 'Tag',
	telegram_msg: 'Telegram Message',
	telegram_post_dated_date: 'Delivery Date',
	ecarta_msg: 'Electronic Letter Message',
	duplex_printing: 'Duplex Printing',
	envelope_type: 'Envelope Type',
	virtualbox: 'Virtual Box',
	...Object.fromEntries(SENDER_FIELDS.map(({ wire, displayName }) => [wire, `Sender ${displayName}`])),
};
