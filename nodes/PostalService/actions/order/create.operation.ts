import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { shipTypeName } from '../../contract/lists';
import { applyForcing, SHIP_TYPE_RULES, validateOrder, type PdfSource } from '../../contract/order';
import { Multipart, nothingCarriedOut } from '../../transport';
import { creditsNotice } from '../descriptions';
import { ItemCheck, withItem } from '../fields';
import type { ItemInput, ItemWork, ServiceCall } from '../types';
import { CREATE_FIELD_NAMES, properties, RECIPIENT_FIELDS, SENDER_FIELDS } from './create.description';

export const option = {
	name: 'Send',
	value: 'create',
	description: 'Send a letter, telegram, direct mail, express parcel or electronic letter; spends credits. Sent once, never repeated automatically.',
	action: 'Send letter',
};

export const writes = true;
export const spendsCredits = true;

export const description = updateDisplayOptions({ show: { resource: ['order'], operation: ['create'] } }, [
	creditsNotice(
		"Each item sends real mail, paid from the account's credits unless Payment Method says otherwise. It is sent once and never repeated automatically: Get Price shows the cost without sending anything.",
	),
	...properties,
]);

/** One item's order as it will be sent: its wire fields and where its PDF comes from. */
export interface Order {
	fields: Record<string, string>;
	/** The item's binary field that holds the PDF, read when the request is built. */
	binaryProperty?: string;
	/** Additional Fields as read (Maximum Price and Check With the Service First are among them). */
	additional: IDataObject;
	/** The multipart body, made anew for each request (the PDF's bytes are read then, not kept). */
	form: () => Promise<Multipart>;
}

const flag = (value: unknown) => (value === true || value === 1 || value === '1' || value === 'true' ? '1' : '0');
const text = (value: unknown) => (value === undefined || value === null ? '' : String(value).trim());

/** Fields of a create that Extra Parameters cannot set. */
const ORDER_OWNED = {
	test: 'the operation decides it: Get Price always sends test=1 and creates nothing, Send never sends it',
	pdffile: 'choose the PDF with "PDF Source" (a file from a previous node, a link or base64)',
};

/** The first bytes of the item's file, enough to see a PDF header (readers look within the first 1024). */
async function firstBytes(ctx: IExecuteFunctions, itemIndex: number, property: string): Promise<Buffer> {
	const binary = ctx.helpers.assertBinaryData(itemIndex, property);
	if (!binary.id) return Buffer.from(binary.data.slice(0, 1368), 'base64');
	for await (const chunk of await ctx.helpers.getBinaryStream(binary.id, 1024)) return Buffer.from(chunk as Buffer).subarray(0, 1024);
	return Buffer.alloc(0);
}

const isPdf = (bytes: Buffer) => bytes.subarray(0, 1024).includes('%PDF-');

/** Reads one item's create-order parameters once into wire fields, checks them, and says how to build its body. */
export async function prepareOrder(ctx: IExecuteFunctions, itemIndex: number, input: ItemInput, check: ItemCheck): Promise<Order> {
	const p = <T>(name: string, fallback: T) => ctx.getNodeParameter(name, itemIndex, fallback as never) as T;
	const shipType = Number(p('shipType', 0));
	const has = (list: readonly number[]) => list.includes(shipType);

	const fields: Record<string, string> = { shipType: String(p('shipType', '')) };
	for (const { name, wire } of RECIPIENT_FIELDS) fields[wire] = text(p(name, ''));
	if (!fields.addr2) delete fields.addr2;
	fields.paymentMethod = text(p('paymentMethod', 'service_credits'));
	if (fields.paymentMethod === 'team') fields.team_member_id = text(p('teamMemberId', ''));
	const sender = p<IDataObject>('sender', {});
	for (const { name, wire } of SENDER_FIELDS) if (text(sender[name])) fields[wire] = text(sender[name]);
	const tag = text(p('tag', ''));
	if (tag) fields.tag = tag;
	const additional = p<IDataObject>('additionalFields', {});
	if (additional.virtualBox !== undefined) fields.virtualbox = flag(additional.virtualBox);
	if (additional.useClientContract !== undefined) fields.use_client_contract = flag(additional.useClientContract);
	if (additional.duplexPrinting !== undefined) fields.duplex_printing = flag(additional.duplexPrinting);
	if (additional.envelopeType !== undefined) fields.envelope_type = text(additional.envelopeType);
	// A receipt type left from another ship type (or set by an expression) is still checked.
	const arType = text(p('returnReceiptType', has(SHIP_TYPE_RULES.returnReceipt) ? 'physical' : ''));
	if (has(SHIP_TYPE_RULES.returnReceipt) || (arType && arType !== 'physical')) fields.ar_type = arType;
	const toAddrOnly = p<unknown>('toAddrOnly', null);
	if (toAddrOnly !== null && toAddrOnly !== undefined) fields.toAddrOnly = flag(toAddrOnly);
	if (has(SHIP_TYPE_RULES.telegram)) {
		fields.telegram_msg = text(p('telegramMessage', ''));
		fields.telegram_post_dated = flag(p('telegramPostDated', false));
		if (fields.telegram_post_dated === '1') {
			// A date-time parameter arrives as an ISO string (or a Date from an expression); the service takes the date alone.
			const raw = p<unknown>('telegramPostDatedDate', '');
			const date = raw instanceof Date ? raw.toISOString() : text(raw);
			fields.telegram_post_dated_date = /^\d{4}-\d{2}-\d{2}/.test(date) ? date.slice(0, 10) : date;
		}
		fields.telegram_sender_copy = flag(p('telegramSenderCopy', false));
		fields.telegram_delivery_confirmation = flag(p('telegramDeliveryConfirmation', false));
	}
	if (has(SHIP_TYPE_RULES.electronicLetter)) fields.ecarta_msg = String(p('electronicLetterMessage', '') ?? '');

	let pdf: PdfSource = { kind: 'none' };
	let binaryProperty: string | undefined;
	if (has(SHIP_TYPE_RULES.pdf)) {
		const source = p<string>('pdfSource', 'binary');
		if (source === 'url') {
			const url = text(p('pdfUrl', ''));
			if (url) pdf = { kind: 'url', url };
			if (url) fields.pdfFile = url;
		} else if (source === 'base64') {
			// The text is sent as given; its first characters only tell whether it is a PDF.
			const base64 = text(p('pdfBase64', '')).replace(/^data:[^,]*,/, '');
			if (base64) pdf = { kind: 'base64', notPdf: !isPdf(Buffer.from(base64.slice(0, 1368), 'base64')) };
			if (base64) fields.pdfFile = base64;
		} else {
			const property = text(p('binaryPropertyName', 'data'));
			if (!property || !ctx.getInputData()[itemIndex]?.binary?.[property]) {
				throw check.invalid([
					{ field: 'pdfFile', message: `"pdfFile" is required for ${shipTypeName(shipType)}, but the input item has no binary field "${property}"` },
				]);
			}
			binaryProperty = property;
			pdf = { kind: 'binary', notPdf: !isPdf(await firstBytes(ctx, itemIndex, property)) };
		}
	}

	// What is checked is what will be sent: the extras are merged first.
	const wire = applyForcing({ ...fields, ...check.extraParameters(input, ORDER_OWNED) });
	const problems = validateOrder(wire, pdf);
	if (problems.length) throw check.invalid(problems);
	return {
		fields: wire,
		binaryProperty,
		additional,
		form: async () => {
			const fields: Multipart['fields'] = Object.entries(wire);
			if (binaryProperty) {
				const { fileName } = ctx.helpers.assertBinaryData(itemIndex, binaryProperty);
				const bytes = await ctx.helpers.getBinaryDataBuffer(itemIndex, binaryProperty);
				fields.push(['pdfFile', { bytes, fileName: fileName ?? 'letter.pdf', type: 'application/pdf' }]);
			}
			return new Multipart(fields);
		},
	};
}

/** The price of the order (test=1: the service checks it and creates nothing). */
export async function priceOf(call: ServiceCall, order: Order): Promise<{ price: IDataObject; message: string }> {
	const { data, body } = await call('priceOrder', { body: await order.form(), labels: CREATE_FIELD_NAMES });
	return { price: data as IDataObject, message: body.status_message as string };
}

export async function prepare(this: IExecuteFunctions, itemIndex: number, input: ItemInput): Promise<ItemWork> {
	const check = new ItemCheck(this, itemIndex, CREATE_FIELD_NAMES);
	const order = await prepareOrder(this, itemIndex, input, check);
	const { additional } = order;
	const max = additional.maxPrice === undefined || additional.maxPrice === null || additional.maxPrice === '' ? undefined : Number(additional.maxPrice);
	if (max !== undefined && order.fields.pdfFile && !order.binaryProperty && /^https?:/i.test(order.fields.pdfFile)) {
		// The service fetches a link at each request: the priced document need not be the one sent.
		throw check.invalid([
			{
				field: 'pdfFile',
				message:
					'"pdfFile" is a link, which "Maximum Price (BRL)" cannot hold to: the service downloads it again for the send, and it may serve another document than the one priced. Download the PDF first (an HTTP Request node set to return a file) and choose "File From a Previous Node"',
			},
		]);
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
						throw nothingCarriedOut(
							new NodeOperationError(
								this.getNode(),
								typeof price.value === 'number'
									? `The price of this letter, R$ ${price.value.toFixed(2)}, is above "Maximum Price (BRL)" (R$ ${max.toFixed(2)}). Nothing was sent.`
									: 'The service gave no price for this letter, so "Maximum Price (BRL)" cannot be checked. Nothing was sent.',
								{ itemIndex, description: 'Raise "Maximum Price (BRL)" under Additional Fields, or remove it, to send this letter.' },
							),
						);
					}
				: undefined,
		send: async (call): Promise<INodeExecutionData[]> => {
			const { data, body } = await call('createOrder', {
				body: await order.form(),
				labels: CREATE_FIELD_NAMES,
				verify: `look for the order in the account panel (search by its tag${tagHint}), or read it with Letter > Get if you have its id; Account > Get Balance shows whether it was paid`,
			});
			const json: IDataObject = { id: data as string, message: body.status_message as string, shipType: Number(order.fields.shipType) };
			if (order.fields.tag) json.tag = order.fields.tag;
			return [withItem(json, itemIndex)];
		},
	};
}
