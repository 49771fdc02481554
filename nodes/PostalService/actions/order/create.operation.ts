import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { readReais } from '../../contract/order';
import { creditsNotice, forOperation } from '../descriptions';
import { ItemCheck, withItem } from '../item';
import { prepareOrder, priceOf } from '../shared/letterOrder';
import { CREATE_FIELD_NAMES, properties } from '../shared/letterOrder.description';
import type { ItemInput, WriteWork } from '../types';

export const option = {
	name: 'Send',
	value: 'create',
	description: 'Send a letter, telegram, direct mail, express parcel or electronic letter; spends credits. Sent once, never repeated automatically.',
	action: 'Send letter',
};

export const writes = true;
export const spendsCredits = true;

export const description = forOperation('order', 'create', [
	creditsNotice(
		"Each item sends real mail, paid from the account's credits unless Payment Method says otherwise. It is sent once and never repeated automatically: Get Price shows the cost without sending anything.",
	),
	...properties,
]);

export async function prepare(this: IExecuteFunctions, itemIndex: number, input: ItemInput): Promise<WriteWork> {
	const check = new ItemCheck(this, itemIndex, CREATE_FIELD_NAMES);
	const order = await prepareOrder(this, itemIndex, input, check);
	const { additional } = order;
	// Once added, the cap must read as an amount for every item: an empty expression is no reason to send unpriced.
	const max = Object.hasOwn(additional, 'maxPrice') ? readReais(additional.maxPrice) : undefined;
	if (Object.hasOwn(additional, 'maxPrice') && max === undefined) {
		const value = additional.maxPrice;
		const got = typeof value === 'string' ? JSON.stringify(value) : value === undefined ? 'no value' : String(value);
		throw check.invalid({ field: 'maxPrice', message: `"maxPrice" must be an amount in reais of 0 or more, like 30 or 30,00; got ${got}. Fix it, or remove the field to send without a cap` });
	}
	if (max !== undefined && order.fields.pdfFile && !order.file && /^https?:/i.test(order.fields.pdfFile)) {
		// The service fetches a link at each request: the priced document need not be the one sent.
		throw check.invalid({
			field: 'pdfFile',
			message:
				'"pdfFile" is a link, which "Maximum Price (BRL)" cannot hold to: the service downloads it again for the send, and it may serve another document than the one priced. Download the PDF first (an HTTP Request node set to return a file) and choose "File From a Previous Node"',
		});
	}
	const checkWith = String(additional.checkWithService ?? 'auto');
	const checkFirst = checkWith === 'always' || (checkWith === 'auto' && input.itemCount > 1);
	const tagHint = order.fields.tag ? ` "${order.fields.tag}"` : '';
	return {
		checkFirst,
		check:
			checkFirst || max !== undefined
				? async (call) => {
						const { price } = await priceOf(call, order);
						if (max === undefined || (typeof price.value === 'number' && price.value <= max)) return;
						throw check.refuse(
							typeof price.value === 'number'
								? `The price of this letter, R$ ${price.value.toFixed(2)}, is above "Maximum Price (BRL)" (R$ ${max.toFixed(2)}). Nothing was sent.`
								: 'The service gave no price for this letter, so "Maximum Price (BRL)" cannot be checked. Nothing was sent.',
							'Raise "Maximum Price (BRL)" under Additional Fields, or remove it, to send this letter.',
						);
					}
				: undefined,
		send: async (call): Promise<INodeExecutionData[]> => {
			const { data, body } = await call('createOrder', {
				form: order.form,
				labels: order.labels,
				verify: `look for the order in the account panel (search by its tag${tagHint}), or read it with Letter > Get if you have its id; Account > Get Balance shows whether it was paid`,
			});
			const json: IDataObject = { id: data as string, message: body.status_message as string, shipType: Number(order.fields.shipType) };
			if (order.fields.tag) json.tag = order.fields.tag;
			return [withItem(json, itemIndex)];
		},
	};
}
