/**
 * The parameters of Letter > Send (and of Get Price, which sends the same order with test=1): pure
 * description data.
 */
import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

import { AR_TYPES, ENVELOPE_TYPES, SHIP_TYPES } from '../../contract/lists';
import { SHIP_TYPE_RULES } from '../../contract/order';
import { paymentProperties } from '../descriptions';

/** Shown only for the given ship types (and, optionally, other parameters' values). */
const forShipTypes = (types: readonly number[], extra: IDisplayOptions['show'] = {}): IDisplayOptions => ({
	show: { shipType: [...types], ...extra },
});

/** The interface names the electronic letters among its orders for mail and does not say how they reach the recipient. */
const ELECTRONIC = 'as the service lists it, its text written in the node; how it reaches the recipient is not shown';

/** What each ship type needs, shown next to its name. */
const NEEDS: Record<number, string> = {
	1: 'Printed from a PDF, without tracking',
	2: 'Printed from a PDF, with tracking',
	3: 'Printed from a PDF, with tracking; the recipient signs a return receipt',
	4: 'A text message delivered on paper',
	5: 'Advertising mail printed from a PDF',
	6: 'Fast delivery printed from a PDF, with tracking',
	7: 'Fast delivery printed from a PDF; the recipient signs a return receipt',
	8: `An electronic letter, ${ELECTRONIC}`,
	9: `A registered electronic letter, ${ELECTRONIC}`,
	10: `A registered electronic letter with a return receipt, ${ELECTRONIC}`,
};

/** Recipient fields: property in the node, field on the wire, and what the panel shows. */
export const RECIPIENT_FIELDS: Array<{ name: string; wire: string; displayName: string; description: string; placeholder?: string; default?: string }> = [
	{ name: 'recipientName', wire: 'name', displayName: 'Recipient Name', description: 'Full name of the person or company the letter goes to; up to 60 characters' },
	{ name: 'recipientAddr1', wire: 'addr1', displayName: 'Recipient Street', description: 'Street of the recipient without the number (like Avenida Paulista); up to 60 characters' },
	{ name: 'recipientStreetNumber', wire: 'street_number', displayName: 'Recipient Number', description: 'Number of the building in the street (like 1578); up to 15 characters' },
	{ name: 'recipientAddr2', wire: 'addr2', displayName: 'Recipient Complement', description: 'Apartment, suite, district; up to 40 characters' },
	{
		name: 'recipientZip',
		wire: 'zip',
		displayName: 'Recipient Postal Code',
		placeholder: '01310-100',
		description: 'For Brazil the CEP: 8 digits, written NNNNN-NNN or NNNNNNNN (like 01310-100 or 01310100). It must belong to the Recipient State: a CEP of another state is refused.',
	},
	{ name: 'recipientCity', wire: 'city', displayName: 'Recipient City', description: 'City of the recipient (like São Paulo); up to 40 characters' },
	{ name: 'recipientState', wire: 'state', displayName: 'Recipient State', placeholder: 'SP', description: 'For Brazil the 2-letter state code (like SP), the state of the postal code' },
	{ name: 'recipientCountry', wire: 'country', displayName: 'Recipient Country', default: 'Brasil', description: 'Country of the recipient as written on the envelope (like Brasil); up to 60 characters' },
];

/** Sender fields: property name in the node → field name on the wire. */
export const SENDER_FIELDS: Array<{ name: string; wire: string; displayName: string; description: string }> = [
	{ name: 'name', wire: 'name_sender', displayName: 'Name', description: 'Name of the sender as printed on the envelope; up to 60 characters' },
	{ name: 'addr1', wire: 'addr1_sender', displayName: 'Street', description: 'Street of the sender without the number; up to 60 characters' },
	{ name: 'streetNumber', wire: 'street_number_sender', displayName: 'Number', description: 'Number of the building in the street; up to 15 characters' },
	{ name: 'addr2', wire: 'addr2_sender', displayName: 'Complement', description: 'Apartment, suite, district; up to 40 characters' },
	{ name: 'zip', wire: 'zip_sender', displayName: 'Postal Code', description: 'Brazilian CEP: 8 digits, written NNNNN-NNN or NNNNNNNN (like 01310-100)' },
	{ name: 'city', wire: 'city_sender', displayName: 'City', description: 'City of the sender; up to 40 characters' },
	{ name: 'state', wire: 'state_sender', displayName: 'State', description: 'For Brazil the 2-letter state code (like SP)' },
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
		options: SHIP_TYPES.map(({ value, name }) => ({ name, value, description: NEEDS[value] })),
		description:
			'What to send. Letters, direct mail and express parcels are printed from a PDF; a telegram and an electronic letter are written in the node. The number is the service\'s code for it (shipType).',
	},
	...RECIPIENT_FIELDS.map(({ wire, ...property }) => ({ type: 'string' as const, required: wire !== 'addr2', default: '', ...property })),
	{
		displayName: 'PDF Source',
		name: 'pdfSource',
		type: 'options',
		default: 'binary',
		options: [
			{ name: 'File From a Previous Node', value: 'binary', description: 'A PDF in a binary field of the input item' },
			{ name: 'Link', value: 'url', description: 'A public link the service downloads the PDF from' },
			{ name: 'Base64 Text', value: 'base64', description: 'The PDF content encoded as base64 text' },
		],
		description: 'Where the PDF to print comes from. The service refuses more than 150 pages and password-protected PDFs.',
		displayOptions: forShipTypes(SHIP_TYPE_RULES.pdf),
	},
	{
		displayName: 'Input Binary Field',
		name: 'binaryPropertyName',
		type: 'string',
		required: true,
		default: 'data',
		hint: 'The name of the input binary field containing the PDF (at most 150 pages)',
		description: 'The binary field of the input item that holds the PDF; "data" unless a previous node named it otherwise',
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
		description: 'The PDF content encoded as base64 text; at most 150 pages',
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
		displayName: 'Deliver on a Later Date',
		name: 'telegramPostDated',
		type: 'boolean',
		default: false,
		description: 'Whether the telegram is delivered on a date you choose instead of as soon as possible',
		displayOptions: forShipTypes(SHIP_TYPE_RULES.telegram),
	},
	{
		displayName: 'Delivery Date',
		name: 'telegramPostDatedDate',
		type: 'dateTime',
		default: '',
		description: 'The day to deliver the telegram: tomorrow or later, São Paulo time. Only the date counts, not the time.',
		displayOptions: forShipTypes(SHIP_TYPE_RULES.telegram, { telegramPostDated: [true] }),
	},
	{
		displayName: 'Sender Copy',
		name: 'telegramSenderCopy',
		type: 'boolean',
		default: false,
		description: 'Whether to get a copy of the telegram, downloadable afterwards with Download File (Sender Copy)',
		displayOptions: forShipTypes(SHIP_TYPE_RULES.telegram),
	},
	{
		displayName: 'Delivery Confirmation',
		name: 'telegramDeliveryConfirmation',
		type: 'boolean',
		default: false,
		description: "Whether to turn on the service's telegram delivery confirmation (sent as 1); the interface does not say what the service does with it",
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
		description: 'How the signed return receipt comes back: scanned from paper, or electronic',
		displayOptions: forShipTypes(SHIP_TYPE_RULES.returnReceipt),
	},
	{
		displayName: 'Tag',
		name: 'tag',
		type: 'string',
		default: '',
		placeholder: 'invoice-2024-118',
		description:
			'Your own label for the order, like a row or invoice number. The account panel finds the order by it, which tells you whether it went out after an unclear failure.',
	},
	...paymentProperties(),
	{
		displayName: 'Sender',
		name: 'sender',
		type: 'collection',
		placeholder: 'Add Sender Field',
		default: {},
		description: "Sender address printed on the envelope. Fields left out come from the account's profile; with Virtual Box the service's own unit is the sender instead.",
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
		description: 'Optional settings of the letter: printing, envelope, your own postal contract, virtual box',
		options: [
			{
				displayName: 'Address Only (toAddrOnly)',
				name: 'toAddrOnly',
				type: 'boolean',
				default: false,
				description:
					"Whether to send the service's toAddrOnly flag, which it reads for registered letters, express parcels and registered electronic letters with return receipt. Its interface does not say what the flag does: leave it off unless the service's support tells you to turn it on.",
				displayOptions: { show: { '/shipType': [...SHIP_TYPE_RULES.toAddrOnly] } },
			},
			{
				displayName: 'Check With the Service First',
				name: 'checkWithService',
				type: 'options',
				default: 'auto',
				options: [
					{
						name: 'Always',
						value: 'always',
						description: 'Check every item with the service, as Get Price does, before any item of the run is sent',
					},
					{
						name: 'Auto',
						value: 'auto',
						description: 'With more than one item, check every item before any is sent: each PDF goes to the service twice, about twice the time. A single item is sent directly.',
					},
					{
						name: 'Never',
						value: 'never',
						description: 'Send each item directly: an item the service refuses fails after the items before it went out',
					},
				],
				description:
					'Whether the service checks each letter (PDF pages and password, addresses, your plan) before any of the run is sent, so that a batch goes out whole or not at all. A check creates and spends nothing, but sends each letter, its PDF included, once more.',
				displayOptions: { show: { '/operation': ['create'] } },
			},
			{
				displayName: 'Duplex Printing',
				name: 'duplexPrinting',
				type: 'boolean',
				default: true,
				description:
					'Whether to print on both sides of the paper. The service turns it on for single-page PDFs and off with the auto-envelope.',
				displayOptions: { show: { '/shipType': [...SHIP_TYPE_RULES.pdf] } },
			},
			{
				displayName: 'Envelope Type',
				name: 'envelopeType',
				type: 'options',
				default: 'regular',
				description: 'The envelope the letter goes in; the auto-envelope needs a single-page PDF',
				options: ENVELOPE_TYPES.map((type) => ({ ...type })),
				displayOptions: { show: { '/shipType': [...SHIP_TYPE_RULES.pdf] } },
			},
			{
				displayName: 'Maximum Price (BRL)',
				name: 'maxPrice',
				type: 'number',
				typeOptions: { minValue: 0, numberPrecision: 2 },
				default: 50,
				description:
					'Ask the price first and send only when it is at most this many reais; above it, nothing is sent and the item fails saying why. A hard limit, for an AI agent too. A PDF given as a link is refused with it, as the service would download the link again for the send.',
				displayOptions: { show: { '/operation': ['create'] } },
			},
			{
				displayName: 'Use Client Contract',
				name: 'useClientContract',
				type: 'boolean',
				default: false,
				description:
					'Whether to bill the postage to your own contract with the postal operator (business accounts with a contract; not for simple letters and direct mail)',
				displayOptions: { show: { '/shipType': [...SHIP_TYPE_RULES.clientContract] } },
			},
			{
				displayName: 'Virtual Box',
				name: 'virtualBox',
				type: 'boolean',
				default: false,
				description:
					"Whether to send from the service's own unit (virtual box), with its pricing: the unit's address replaces yours as the sender. Express parcels need it unless your sender address is in the unit's city, which the node cannot check.",
			},
		],
	},
];

/** Wire names whose property in the node is not their camelCase form. */
const PROPERTY_OF: Record<string, string> = { pdfFile: 'pdfSource', ar_type: 'returnReceiptType', telegram_msg: 'telegramMessage', ecarta_msg: 'electronicLetterMessage', virtualbox: 'virtualBox' };
/** The order's wire names read from a property of their own (the recipient's and the sender's come from their tables). */
const WIRE_NAMES = [
	'shipType', 'pdfFile', 'ar_type', 'paymentMethod', 'team_member_id', 'use_client_contract', 'tag', 'ecarta_msg', 'toAddrOnly', 'maxPrice',
	'telegram_msg', 'telegram_post_dated', 'telegram_post_dated_date', 'telegram_sender_copy', 'telegram_delivery_confirmation',
	'duplex_printing', 'envelope_type', 'virtualbox',
];
const additional = properties.find(({ name }) => name === 'additionalFields')?.options as INodeProperties[];
const LABELS = Object.fromEntries([...properties, ...additional].map(({ name, displayName }) => [name, displayName]));

/**
 * The node field each wire name of Create / Get Price comes from, so an error names what the user
 * sees next to what the service calls it; each label is read from its property.
 */
export const CREATE_FIELD_NAMES: Record<string, string> = {
	...Object.fromEntries(WIRE_NAMES.map((wire) => [wire, LABELS[PROPERTY_OF[wire] ?? wire.replace(/_(\w)/g, (_, c: string) => c.toUpperCase())]])),
	...Object.fromEntries(RECIPIENT_FIELDS.map(({ wire, displayName }) => [wire, displayName])),
	...Object.fromEntries(SENDER_FIELDS.map(({ wire, displayName }) => [wire, `Sender ${displayName}`])),
};
