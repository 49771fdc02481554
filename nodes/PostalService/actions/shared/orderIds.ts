/** Letters and registered e-mail share the read, download and cancel routes; the id tells them apart (digits, or E and digits). */
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { ItemCheck } from '../fields';

export interface OrderIdKind {
	property: INodeProperties;
	pattern: { test: RegExp; hint: string };
	/** The id's wire name with its label, for the item's checks. */
	labels: Record<string, string>;
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
		labels: { orderId: displayName },
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
