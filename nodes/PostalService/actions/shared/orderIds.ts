/**
 * Letters, telegrams and electronic letters (Order) and registered e-mail share the routes that
 * read, download and cancel an order; the id tells them apart: digits for the first, E followed
 * by digits for a registered e-mail. Each resource asks for its own kind of id.
 */
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { requireText } from '../common';

export interface OrderIdKind {
	property: INodeProperties;
	pattern: { test: RegExp; hint: string };
}

export const LETTER_ID: OrderIdKind = {
	property: {
		displayName: 'Order ID',
		name: 'orderId',
		type: 'string',
		required: true,
		default: '',
		placeholder: '123456',
		description: 'Visual ID of the order, a string of digits, as returned by Create',
	},
	pattern: {
		test: /^\d+$/,
		hint: 'must be an order id made of digits (like 123456); for a registered e-mail (E followed by digits) use the Registered E-Mail resource',
	},
};

export const EMAIL_ID: OrderIdKind = {
	property: {
		displayName: 'Registered E-Mail ID',
		name: 'orderId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'E123456',
		description: 'ID of the registered e-mail: E followed by digits (like E123456)',
	},
	pattern: { test: /^E\d+$/, hint: 'must be a registered e-mail id: E followed by digits (like E123456)' },
};

export function readOrderId(ctx: IExecuteFunctions, itemIndex: number, kind: OrderIdKind): string {
	return requireText(ctx, itemIndex, ctx.getNodeParameter('orderId', itemIndex, ''), 'orderId', kind.pattern);
}
