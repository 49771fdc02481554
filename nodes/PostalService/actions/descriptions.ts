/** Pieces of the node's description that several operations use. */
import type { INodeProperties } from 'n8n-workflow';

import { PAYMENT_METHODS, type PaymentMethod } from '../contract/lists';

/** Properties shown for one operation only; n8n's updateDisplayOptions does the same with a deep merge that slows the package's load. */
export function forOperation(resource: string, operation: string, properties: INodeProperties[]): INodeProperties[] {
	return properties.map((property) => ({ ...property, displayOptions: { ...property.displayOptions, show: { ...property.displayOptions?.show, resource: [resource], operation: [operation] } } }));
}

/** The notice atop an operation that spends the account's credits: what the item does for real and how to know the cost first. */
export function creditsNotice(text: string): INodeProperties {
	return { displayName: text, name: 'creditsNotice', type: 'notice', default: '' };
}

/** The Simplify switch, alike on every read, naming the fields `simplified()` keeps. */
export function simplifyProperty(keptFields: readonly string[]): INodeProperties {
	return {
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: true,
		description: `Whether to return only the fields most workflows use (${keptFields.join(', ')}) instead of the service's whole answer`,
	};
}

/** Where a download puts its file: `more` adds what one operation says beyond the hint. */
export function outputFileProperty(hint: string, more: Partial<INodeProperties> = {}): INodeProperties {
	return { displayName: 'Put Output File in Field', name: 'binaryPropertyName', type: 'string', default: 'data', hint, ...more };
}

export const returnAllAndLimit: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 50,
		description: 'Max number of results to return',
		displayOptions: { show: { returnAll: [false] } },
	},
];

/** Payment method and, when a team member pays, who; `hints` adds a word to a method's description. */
export function paymentProperties(hints: Partial<Record<PaymentMethod, string>> = {}): INodeProperties[] {
	return [
		{
			displayName: 'Payment Method',
			name: 'paymentMethod',
			type: 'options',
			default: 'service_credits',
			description: 'Who pays for this item',
			options: PAYMENT_METHODS.map(({ value, name, description }) => ({
				name,
				value,
				description: hints[value] ? `${description} ${hints[value]}` : description,
			})),
		},
		{
			displayName: 'Team Member ID',
			name: 'teamMemberId',
			type: 'string',
			required: true,
			default: '',
			placeholder: '12',
			description: 'Numeric ID of the team member who pays, digits only (like 12), as the account panel shows it',
			displayOptions: { show: { paymentMethod: ['team'] } },
		},
	];
}
