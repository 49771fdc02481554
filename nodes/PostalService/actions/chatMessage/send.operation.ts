import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { ASSUMED } from '../../contract/assumptions';
import { PAYMENT_METHODS, valuesOf } from '../../contract/lists';
import { ANSWERS } from '../../contract/wire';
import type { ServiceRequest } from '../../transport';
import { asObject, invalidItem, readExtraParameters, requireText, withItem } from '../common';
import { creditsNotice, paymentProperties, updateDisplayOptions } from '../descriptions';
import { sendOnce } from '../sendOnce';

export const option = {
	name: 'Send',
	value: 'send',
	description: 'Send an approved template message to a chat-app number; spends credits. Sent once, never repeated automatically.',
	action: 'Send chat message',
};

export const spendsCredits = true;

const properties: INodeProperties[] = [
	creditsNotice('Each item sends a real chat message, paid from the account\'s credits unless Payment Method says otherwise. It is sent once and never repeated automatically.'),
	{
		displayName: 'Sender',
		name: 'senderId',
		type: 'resourceLocator',
		required: true,
		default: { mode: 'list', value: '' },
		description: 'The business number that sends the message: choose it from the list, or give its numeric ID (like 2) as Chat Sender > Get Many lists it',
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: 'Select a sender...',
				typeOptions: { searchListMethod: 'searchSenders', searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: '2',
				validation: [{ type: 'regex', properties: { regex: '^\\d+$', errorMessage: 'The sender ID is a number, like 2' } }],
			},
		],
	},
	{
		displayName: 'Template',
		name: 'templateId',
		type: 'resourceLocator',
		required: true,
		default: { mode: 'list', value: '' },
		description:
			'The approved message template to send: choose it from the list, or give its numeric ID (like 102) as Chat Template > Get Many lists it. The list shows templates that cannot be sent with the reason next to their name.',
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: 'Select a template...',
				typeOptions: { searchListMethod: 'searchTemplates', searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: '102',
				validation: [{ type: 'regex', properties: { regex: '^\\d+$', errorMessage: 'The template ID is a number, like 102' } }],
			},
		],
	},
	{
		displayName: 'Recipient Phone',
		name: 'phone',
		type: 'string',
		required: true,
		default: '',
		placeholder: '+5511999998888',
		description:
			'Chat-app number of the recipient with country and area code: 10 to 15 digits, like +5511999998888. The service refuses numbers that are not on the chat app.',
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

export const description = updateDisplayOptions({ show: { resource: ['chatMessage'], operation: ['send'] } }, properties);

/** The template variables by name, from the mapper's columns. */
function readVariables(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	const name = ASSUMED.chatSend.variables;
	const raw = ctx.getNodeParameter('variables', itemIndex, {}) as IDataObject;
	if (raw?.mappingMode === 'autoMapInputData') return variablesFromInput(ctx, itemIndex, raw);
	const columns = raw?.value && typeof raw.value === 'object' ? (raw.value as IDataObject) : {};
	const variables: IDataObject = {};
	for (const [key, value] of Object.entries(columns)) {
		if (!key.trim()) throw invalidItem(ctx, itemIndex, [{ field: name, message: 'a template variable has no name' }]);
		variables[key.trim()] = value === undefined || value === null ? '' : String(value);
	}
	return variables;
}

/**
 * "Map Automatically": each of the template's variables (as the editor loaded them) from the input
 * field of the same name. Without the template's variables (the template is an expression) there
 * is nothing to match, and guessing from the input's fields could send the wrong ones.
 */
function variablesFromInput(ctx: IExecuteFunctions, itemIndex: number, raw: IDataObject): IDataObject {
	const field = ASSUMED.chatSend.variables;
	const schema = Array.isArray(raw.schema) ? (raw.schema as Array<{ id?: unknown; removed?: boolean }>) : [];
	const names = schema.filter((column) => column.removed !== true && typeof column.id === 'string').map((column) => column.id as string);
	if (names.length === 0) {
		throw invalidItem(ctx, itemIndex, [
			{
				field,
				message:
					'"Template Variables" is set to Map Automatically, but the template\'s variables are not known here (the template is an expression, or none was chosen): choose the template from the list, or map each variable below',
			},
		]);
	}
	const input = ctx.getInputData()[itemIndex]?.json ?? {};
	const missing = names.filter((name) => input[name] === undefined || input[name] === null);
	if (missing.length > 0) {
		throw invalidItem(ctx, itemIndex, [
			{
				field,
				message: `Map Automatically takes each template variable from the input field of the same name; this item has no ${missing.map((m) => `"${m}"`).join(', ')}`,
			},
		]);
	}
	return Object.fromEntries(names.map((name) => [name, typeof input[name] === 'object' ? JSON.stringify(input[name]) : String(input[name])]));
}

/** The request body of one item as it will be sent (extras included), or the error naming what is wrong with it. */
function buildBody(this: IExecuteFunctions, itemIndex: number): IDataObject {
	const names = ASSUMED.chatSend;
	const variables = readVariables(this, itemIndex);
	const paymentMethod = this.getNodeParameter('paymentMethod', itemIndex, 'service_credits');
	const fields: IDataObject = {
		[names.phone]: this.getNodeParameter('phone', itemIndex, '') as string,
		[names.senderId]: this.getNodeParameter('senderId', itemIndex, '', { extractValue: true }) as string,
		[names.templateId]: this.getNodeParameter('templateId', itemIndex, '', { extractValue: true }) as string,
		[names.paymentMethod]: paymentMethod as string,
	};
	if (paymentMethod === 'team') fields[names.teamMemberId] = this.getNodeParameter('teamMemberId', itemIndex, '') as string;
	// What is checked is what will be sent: the extras are merged first.
	const sent: IDataObject = { ...fields, ...readExtraParameters(this, itemIndex) };

	const senderId = requireText(this, itemIndex, sent[names.senderId], names.senderId, {
		test: /^\d+$/,
		hint: 'must be the numeric ID of a sender',
	});
	const templateId = requireText(this, itemIndex, sent[names.templateId], names.templateId, {
		test: /^\d+$/,
		hint: 'must be the numeric ID of a template',
	});
	const phone = requireText(this, itemIndex, sent[names.phone], names.phone, {
		test: /^\+?[\d\s().-]{10,20}$/,
		hint: 'must be a phone number with country and area code (10 to 15 digits, like +5511999998888)',
	});
	const digits = phone.replace(/\D/g, '');
	if (digits.length < 10 || digits.length > 15) {
		throw invalidItem(this, itemIndex, [
			{ field: names.phone, message: `"${names.phone}" must have 10 to 15 digits; got ${digits.length}` },
		]);
	}
	const payment = String(sent[names.paymentMethod] ?? '');
	const paymentMethods: readonly string[] = valuesOf(PAYMENT_METHODS);
	if (!paymentMethods.includes(payment)) {
		throw invalidItem(this, itemIndex, [
			{ field: names.paymentMethod, message: `"${names.paymentMethod}" must be one of ${paymentMethods.join(', ')}; got "${payment}"` },
		]);
	}
	const body: IDataObject = {
		...sent,
		[names.phone]: phone.startsWith('+') ? `+${digits}` : digits,
		[names.senderId]: Number(senderId),
		[names.templateId]: Number(templateId),
		[names.variables]: sent[names.variables] ?? variables,
	};
	if (payment === 'team' || sent[names.teamMemberId] !== undefined) {
		body[names.teamMemberId] = Number(
			requireText(this, itemIndex, sent[names.teamMemberId], names.teamMemberId, {
				test: /^[1-9]\d*$/,
				hint: 'must be the numeric ID of a team member when paying by team',
			}),
		);
	}
	return body;
}

export async function validate(this: IExecuteFunctions, itemIndex: number): Promise<void> {
	buildBody.call(this, itemIndex);
}

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const body = buildBody.call(this, itemIndex);
	const request: ServiceRequest = {
		method: 'POST',
		path: '/api/chat/v1/post',
		auth: 'basic',
		envelope: 'A',
		answer: ANSWERS.chatMessage,
		body,
		idempotent: false,
		verify: `look for the message to ${String(body[ASSUMED.chatSend.phone])} in the account panel (chat messages), or check the balance with Account > Get Balance`,
	};
	return await sendOnce(this, itemIndex, request, ({ data }) => [withItem(asObject(data), itemIndex)]);
}
