import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { ASSUMED } from '../../contract/assumptions';
import { PAYMENT_METHODS, valuesOf } from '../../contract/lists';
import { serviceRequest } from '../../transport';
import { asObject, extraParameters, invalidItem, readExtraParameters, requireText, showFor, withItem } from '../common';

const show = (extra: IDataObject = {}) => showFor('chatMessage', ['send'], extra);

export const description: INodeProperties[] = [
	{
		displayName: 'Sender Name or ID',
		name: 'senderId',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getSenders' },
		required: true,
		default: '',
		description:
			'Business number that sends the message. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		displayOptions: show(),
	},
	{
		displayName: 'Template Name or ID',
		name: 'templateId',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getTemplates', loadOptionsDependsOn: ['senderId'] },
		required: true,
		default: '',
		description:
			'Approved template of the sender. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		displayOptions: show(),
	},
	{
		displayName: 'Recipient Phone',
		name: 'phone',
		type: 'string',
		required: true,
		default: '',
		placeholder: '+5511999998888',
		description: 'Chat-app number of the recipient, with country and area code. The service refuses numbers not on the chat app.',
		displayOptions: show(),
	},
	{
		displayName: 'Template Variables',
		name: 'variables',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Variable',
		default: {},
		description: 'Values of the template variables, by the names the template declares',
		displayOptions: show(),
		options: [
			{
				displayName: 'Variable',
				name: 'variable',
				values: [
					{
						displayName: 'Name or ID',
						name: 'name',
						type: 'options',
						typeOptions: { loadOptionsMethod: 'getTemplateVariables', loadOptionsDependsOn: ['templateId'] },
						default: '',
						description:
							'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
					},
					{ displayName: 'Value', name: 'value', type: 'string', default: '' },
				],
			},
		],
	},
	{
		displayName: 'Payment Method',
		name: 'paymentMethod',
		type: 'options',
		default: 'service_credits',
		// A message paid with credits can be reprocessed after a top-up; the others cannot.
		options: PAYMENT_METHODS.map(({ value, name, description }) => ({
			name,
			value,
			description: value === 'service_credits' ? `${description} (can be reprocessed after a top-up)` : description,
		})),
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
	extraParameters('chatMessage', ['send'], 'body'),
];

/** The request body of one item, or the error naming what is wrong with it. */
function buildBody(this: IExecuteFunctions, itemIndex: number): IDataObject {
	const names = ASSUMED.chatSend;
	const senderId = requireText(this, itemIndex, this.getNodeParameter('senderId', itemIndex, ''), names.senderId, {
		test: /^\d+$/,
		hint: 'must be the numeric ID of a sender',
	});
	const templateId = requireText(this, itemIndex, this.getNodeParameter('templateId', itemIndex, ''), names.templateId, {
		test: /^\d+$/,
		hint: 'must be the numeric ID of a template',
	});
	const phone = requireText(this, itemIndex, this.getNodeParameter('phone', itemIndex, ''), names.phone, {
		test: /^\+?[\d\s().-]{10,20}$/,
		hint: 'must be a phone number with country and area code (10 to 15 digits, like +5511999998888)',
	});
	const digits = phone.replace(/\D/g, '');
	if (digits.length < 10 || digits.length > 15) {
		throw invalidItem(this, itemIndex, [
			{ field: names.phone, message: `"${names.phone}" must have 10 to 15 digits; got ${digits.length}` },
		]);
	}
	const paymentMethod = String(this.getNodeParameter('paymentMethod', itemIndex, 'service_credits'));
	const paymentMethods: readonly string[] = valuesOf(PAYMENT_METHODS);
	if (!paymentMethods.includes(paymentMethod)) {
		throw invalidItem(this, itemIndex, [
			{ field: names.paymentMethod, message: `"${names.paymentMethod}" must be one of ${paymentMethods.join(', ')}; got "${paymentMethod}"` },
		]);
	}

	const variables: IDataObject = {};
	const rows = this.getNodeParameter('variables.variable', itemIndex, []) as Array<{ name?: string; value?: unknown }>;
	for (const row of rows) {
		const name = String(row.name ?? '').trim();
		if (!name) throw invalidItem(this, itemIndex, [{ field: names.variables, message: 'a template variable has no name' }]);
		variables[name] = row.value === undefined || row.value === null ? '' : String(row.value);
	}

	const body: IDataObject = {
		[names.phone]: phone.startsWith('+') ? `+${digits}` : digits,
		[names.senderId]: Number(senderId),
		[names.templateId]: Number(templateId),
		[names.variables]: variables,
		[names.paymentMethod]: paymentMethod,
	};
	if (paymentMethod === 'team') {
		body[names.teamMemberId] = Number(
			requireText(this, itemIndex, this.getNodeParameter('teamMemberId', itemIndex, ''), names.teamMemberId, {
				test: /^[1-9]\d*$/,
				hint: 'must be the numeric ID of a team member when paying by team',
			}),
		);
	}
	Object.assign(body, readExtraParameters(this, itemIndex));
	return body;
}

export async function validate(this: IExecuteFunctions, itemIndex: number): Promise<void> {
	buildBody.call(this, itemIndex);
}

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const body = buildBody.call(this, itemIndex);
	const { data } = await serviceRequest(
		this,
		{ method: 'POST', path: '/api/chat/v1/post', auth: 'basic', envelope: 'A', body, idempotent: false },
		itemIndex,
	);
	return [withItem(asObject(data), itemIndex)];
}
