/** Letter > Send and Get Price build the same order from an item: its wire fields, checked, and its body. */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { shipTypeName } from '../../contract/lists';
import { applyForcing, SHIP_TYPE_RULES, validateOrder, type PdfSource } from '../../contract/order';
import type { FilePart, FormField } from '../../transport';
import type { ItemCheck } from '../item';
import type { ItemInput, ServiceCall } from '../types';
import { CREATE_FIELD_NAMES, RECIPIENT_FIELDS, SENDER_FIELDS } from './letterOrder.description';

/** One item's order as it will be sent: its wire fields and where its PDF comes from. */
export interface Order {
	fields: Record<string, string>;
	/** The item's PDF from n8n's binary store, read again when each request is built. */
	file?: FilePart;
	/** Additional Fields as read (Maximum Price and Check With the Service First are among them). */
	additional: IDataObject;
	/** Wire name → the field of the panel to fix, for the service's refusals: `pdfFile` is the one its PDF Source shows. */
	labels: Record<string, string>;
	/** The multipart body's fields (the PDF's bytes are read at each request, not kept). */
	form: FormField[];
}

const flag = (value: unknown) => (value === true || value === 1 || value === '1' || value === 'true' ? '1' : '0');
const text = (value: unknown) => (value === undefined || value === null ? '' : String(value).trim());

/** Fields of a create that Extra Parameters cannot set. */
const ORDER_OWNED = {
	test: 'the operation decides it: Get Price always sends test=1 and creates nothing, Send never sends it',
	pdffile: 'choose the PDF with "PDF Source" (a file from a previous node, a link or base64)',
};

/** The field that gives the PDF, by its source. */
const PDF_FIELDS: Partial<Record<PdfSource['kind'], string>> = { url: 'PDF URL', base64: 'PDF Base64', binary: 'Input Binary Field' };

/** Bytes of a file read from n8n's binary store at a time. */
const STREAM_CHUNK = 65_536;

const isPdf = (bytes: Buffer) => bytes.subarray(0, 1024).includes('%PDF-');

/** The item's PDF as a part of the body, streamed from n8n's binary store (or the item, when n8n keeps files in memory) while it is sent; read through once first for its header and size, since a file n8n copied (from a sub-workflow) may have no metadata. */
async function pdfPart(ctx: IExecuteFunctions, itemIndex: number, property: string): Promise<FilePart & { head: Buffer }> {
	const binary = ctx.helpers.assertBinaryData(itemIndex, property);
	const id = binary.id;
	const read = async () => (id ? await ctx.helpers.getBinaryStream(id, STREAM_CHUNK) : [Buffer.from(binary.data, 'base64')]);
	let [size, head] = [0, Buffer.alloc(0)];
	// Only the first 1024 bytes are kept (copied), never a reference into the whole file.
	for await (const chunk of await read()) [size, head] = [size + chunk.length, Buffer.concat([head, chunk.subarray(0, 1024 - head.length)])];
	return { fileName: binary.fileName ?? 'letter.pdf', type: 'application/pdf', size, read, head };
}

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
	// n8n fills in Physical wherever the panel shows the field, so on a ship type without a receipt only an expression or Electronic is the user's choice, and checked.
	const arType = text(p('returnReceiptType', '')) || (has(SHIP_TYPE_RULES.returnReceipt) ? 'physical' : '');
	const byExpression = String(ctx.getNodeParameter('returnReceiptType', itemIndex, '', { rawExpressions: true })).startsWith('=');
	if (arType && (has(SHIP_TYPE_RULES.returnReceipt) || byExpression || arType !== 'physical')) fields.ar_type = arType;
	if (additional.toAddrOnly !== undefined && additional.toAddrOnly !== null) fields.toAddrOnly = flag(additional.toAddrOnly);
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
	let file: FilePart | undefined;
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
				throw check.invalid({ field: 'pdfFile', message: `"pdfFile" is required for ${shipTypeName(shipType)}, but the input item has no binary field "${property}"` });
			}
			const part = await pdfPart(ctx, itemIndex, property).catch((error: Error) => {
				throw check.invalid({ field: 'pdfFile', message: `"pdfFile" could not be read from the input binary field "${property}" (${error.message})` });
			});
			[file, pdf] = [part, { kind: 'binary', notPdf: !isPdf(part.head) }];
		}
	}

	// What is checked is what will be sent: the extras are merged first.
	const wire = applyForcing({ ...fields, ...check.extraParameters(input, ORDER_OWNED) });
	const problems = validateOrder(wire, pdf);
	if (problems.length) throw check.invalid(...problems);
	return {
		fields: wire,
		file,
		additional,
		labels: { ...CREATE_FIELD_NAMES, pdfFile: PDF_FIELDS[pdf.kind] ?? CREATE_FIELD_NAMES.pdfFile },
		form: [...Object.entries(wire), ...(file ? [['pdfFile', file] as FormField] : [])],
	};
}

/** The price of the order (test=1: the service checks it and creates nothing). */
export async function priceOf(call: ServiceCall, order: Order): Promise<{ price: IDataObject; message: string }> {
	const { data, body } = await call('priceOrder', { form: order.form, labels: order.labels });
	return { price: data as IDataObject, message: body.status_message as string };
}
