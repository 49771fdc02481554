import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { ASSUMED } from '../../contract/assumptions';
import { creditsNotice, forOperation, paymentProperties } from '../descriptions';
import { asObject, ItemCheck, withItem } from '../item';
import type { ItemInput, WriteWork } from '../types';

export const option = {
	name: 'Send',
	value: 'send',
	description: 'Send an approved template message to a WhatsApp number; spends credits. Sent once, never repeated automatically.',
	action: 'Send chat message',
};

export const writes = true;
export const spendsCredits = true;

/** A sender or a template: chosen from the service's list, or given by its numeric id. */
function numberLocator(displayName: string, name: string, searchListMethod: string, example: string, description: string): INodeProperties {
	const what = displayName.toLowerCase();
	return {
		displayName,
		name,
		type: 'resourceLocator',
		required: true,
		default: { mode: 'list', value: '' },
		description,
		modes: [
			{ displayName: 'From List', name: 'list', type: 'list', placeholder: `Select a ${what}...`, typeOptions: { searchListMethod, searchable: true } },
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: example,
				validation: [{ type: 'regex', properties: { regex: '^\\d+$', errorMessage: `The ${what} ID is a number, like ${example}` } }],
			},
		],
	};
}

const properties: INodeProperties[] = [
	creditsNotice('Each item sends a real chat message, paid from the account\'s credits unless Payment Method says otherwise. It is sent once and never repeated automatically.'),
	numberLocator('Sender', 'senderId', 'searchSenders', '2', 'The business number that sends the message: choose it from the list, or give its numeric ID (like 2) as Chat Sender > Get Many lists it'),
	numberLocator(
		'Template',
		'templateId',
		'searchTemplates',
		'102',
		'The approved message template to send: choose it from the list, or give its numeric ID (like 102) as Chat Template > Get Many lists it. The list shows templates that cannot be sent with the reason next to their name.',
	),
	{
		displayName: 'Recipient Phone',
		name: 'phone',
		type: 'string',
		required: true,
		default: '',
		placeholder: '+5511999998888',
		description:
			'WhatsApp number of the recipient with country and area code: 10 to 15 digits, like +5511999998888. The service refuses numbers that are not on WhatsApp.',
	},
	{
		displayName: 'Template Variables',
		name: 'variables',
		type: 'resourceMapper',
		noDataExpression: true,
		default: { mappingMode: 'defineBelow', value: null },
		required: true,
		description: 'A value for each variable the template declares; each one is required',
		typeOptions: {
			loadOptionsDependsOn: ['templateId.value'],
			resourceMapper: {
				resourceMapperMethod: 'getTemplateVariableFields',
				mode: 'add',
				fieldWords: { singular: 'variable', plural: 'variables' },
				addAllFields: true,
				supportAutoMap: true,
				noFieldsError: 'This template has no variables, or it could not be read: choose the template from the list to map its variables',
			},
		},
	},
	// A message paid with credits can be reprocessed after a top-up; the others cannot.
	...paymentProperties({ service_credits: '(can be reprocessed after a top-up)' }),
];

export const description = forOperation('chatMessage', 'send', properties);

/** What each wire name of a chat message is called in the panel. */
export const CHAT_FIELD_NAMES: Record<string, string> = {
	[ASSUMED.chatSend.senderId]: 'Sender',
	[ASSUMED.chatSend.templateId]: 'Template',
	[ASSUMED.chatSend.phone]: 'Recipient Phone',
	[ASSUMED.chatSend.variables]: 'Template Variables',
	[ASSUMED.chatSend.paymentMethod]: 'Payment Method',
	[ASSUMED.chatSend.teamMemberId]: 'Team Member ID',
};

/** The template variables by name, from the mapper's columns. */
function readVariables(ctx: IExecuteFunctions, check: ItemCheck): IDataObject {
	const name = ASSUMED.chatSend.variables;
	const raw = ctx.getNodeParameter('variables', check.itemIndex, {}) as IDataObject;
	if (raw?.mappingMode === 'autoMapInputData') return variablesFromInput(ctx, check, raw);
	const columns = raw?.value && typeof raw.value === 'object' ? (raw.value as IDataObject) : {};
	const variables: IDataObject = {};
	for (const [key, value] of Object.entries(columns)) {
		if (!key.trim()) throw check.invalid({ field: name, message: 'a template variable has no name' });
		variables[key.trim()] = value === undefined || value === null ? '' : String(value);
	}
	return variables;
}

/** "Map Automatically": each variable the editor loaded from the input field of that name; without them, a guess from the input could send the wrong ones. */
function variablesFromInput(ctx: IExecuteFunctions, check: ItemCheck, raw: IDataObject): IDataObject {
	const field = ASSUMED.chatSend.variables;
	const schema = Array.isArray(raw.schema) ? (raw.schema as Array<{ id?: unknown; removed?: boolean }>) : [];
	const names = schema.filter((column) => column.removed !== true && typeof column.id === 'string').map((column) => column.id as string);
	if (names.length === 0) {
		throw check.invalid({
			field,
			message:
				'"Template Variables" is set to Map Automatically, but the template\'s variables are not known here (the template is an expression, or none was chosen): choose the template from the list, or map each variable below',
		});
	}
	const input = ctx.getInputData()[check.itemIndex]?.json ?? {};
	const missing = names.filter((name) => input[name] === undefined || input[name] === null);
	if (missing.length > 0) {
		throw check.invalid({ field, message: `Map Automatically takes each template variable from the input field of the same name; this item has no ${missing.map((m) => `"${m}"`).join(', ')}` });
	}
	return Object.fromEntries(names.map((name) => [name, typeof input[name] === 'object' ? JSON.stringify(input[name]) : String(input[name])]));
}

export function prepare(this: IExecuteFunctions, itemIndex: number, input: ItemInput): WriteWork {
	const names = ASSUMED.chatSend;
	const check = new ItemCheck(this, itemIndex, CHAT_FIELD_NAMES);
	const variables = readVariables(this, check);
	const paymentMethod = this.getNodeParameter('paymentMethod', itemIndex, 'service_credits') as string;
	const fields: IDataObject = {
		[names.phone]: this.getNodeParameter('phone', itemIndex, '') as string,
		[names.senderId]: this.getNodeParameter('senderId', itemIndex, '', { extractValue: true }) as string,
		[names.templateId]: this.getNodeParameter('templateId', itemIndex, '', { extractValue: true }) as string,
		[names.paymentMethod]: paymentMethod,
	};
	if (paymentMethod === 'team') fields[names.teamMemberId] = this.getNodeParameter('teamMemberId', itemIndex, '') as string;
	// What is checked is what will be sent: the extras are merged first.
	const sent: IDataObject = { ...fields, ...check.extraParameters(input) };
	const senderId = check.text(sent[names.senderId], names.senderId, { test: /^\d+$/, hint: 'must be the numeric ID of a sender' });
	const templateId = check.text(sent[names.templateId], names.templateId, { test: /^\d+$/, hint: 'must be the numeric ID of a template' });
	const phone = check.text(sent[names.phone], names.phone, {
		test: /^\+?[\d\s().-]{10,20}$/,
		hint: 'must be a phone number with country and area code (10 to 15 digits, like +5511999998888)',
	});
	const digits = phone.replace(/\D/g, '');
	if (digits.length < 10 || digits.length > 15) {
		throw check.invalid({ field: names.phone, message: `"${names.phone}" must have 10 to 15 digits; got ${digits.length}` });
	}
	// Which methods a chat message takes is not shown: any the service names can be given through Extra Parameters.
	const payment = check.text(sent[names.paymentMethod], names.paymentMethod);
	const body: IDataObject = {
		...sent,
		[names.phone]: phone.startsWith('+') ? `+${digits}` : digits,
		[names.senderId]: Number(senderId),
		[names.templateId]: Number(templateId),
		[names.variables]: sent[names.variables] ?? variables,
	};
	if (payment === 'team' || sent[names.teamMemberId] !== undefined) {
		const teamMember = check.text(sent[names.teamMemberId], names.teamMemberId, {
			test: /^[1-9]\d*$/,
			hint: 'must be the numeric ID of a team member when paying by team',
		});
		body[names.teamMemberId] = Number(teamMember);
	}
	return {
		send: async (call) => {
			const { data } = await call('sendChatMessage', {
				body,
				labels: CHAT_FIELD_NAMES,
				verify: `look for the message to ${String(body[names.phone])} in the account panel (chat messages), or check the balance with Account > Get Balance`,
			});
			return [withItem(asObject(data), itemIndex)];
		},
	};
}
