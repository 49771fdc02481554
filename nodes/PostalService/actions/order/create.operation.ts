import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { PdfFacts, PdfSource, ValidationProblem } from '../../contract/order';
import { applyForcing, SHIP_TYPE_RULES, validateOrder } from '../../contract/order';
import { pageProblems, readPdfFacts } from '../../contract/pdfPages';
import { ANSWERS } from '../../contract/wire';
import { serviceRequest, type ServiceRequest } from '../../transport';
import { stateOfRun } from '../../transport/runState';
import { cachedParameter } from '../../transport/runParameters';
import { invalidItem, readExtraParameters, withItem } from '../common';
import { creditsNotice, updateDisplayOptions } from '../descriptions';
import { sendOnce } from '../sendOnce';
import { properties, SENDER_FIELDS } from './create.description';

// Get Price sends the same order with test=1: it takes Create's parameters from here.
export { properties };

export const option = {
	name: 'Send',
	value: 'create',
	description:
		'Send a letter, telegram, direct mail, express parcel or electronic letter; spends credits. Sent once, never repeated automatically.',
	action: 'Send letter',
};

export const spendsCredits = true;

export const description = updateDisplayOptions({ show: { resource: ['order'], operation: ['create'] } }, [
	creditsNotice(
		"Each item sends real mail, paid from the account's credits unless Payment Method says otherwise. It is sent once and never repeated automatically: Get Price shows the cost without sending anything.",
	),
	...properties,
]);

/** The request of one item's order; with `test` the service only validates and prices it. */
export function orderRequest(order: OrderRequest, test: boolean): ServiceRequest {
	return {
		method: 'POST',
		path: '/api/v2/post',
		auth: 'form',
		envelope: 'A',
		answer: test ? ANSWERS.quote : ANSWERS.orderCreated,
		// test=1 set here, so that a request built as a price can never create an order.
		body: orderForm(test ? { ...order, fields: { ...order.fields, test: '1' } } : order),
		// A letter must never be sent twice: no automatic resend on an unclear failure. With test=1
		// nothing is created, so a resend is harmless.
		idempotent: test,
		verify: test
			? undefined
			: `look for the order in the account panel (search by its tag${order.fields.tag ? ` "${order.fields.tag}"` : ''}), or read it with Letter > Get if you have its id; Account > Get Balance shows whether it was paid`,
	};
}

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const order = await readOrder(this, itemIndex);
	await refuseAboveMaximumPrice(this, itemIndex, order);
	return await sendOnce(this, itemIndex, orderRequest(order, false), ({ data, body }) => {
		const json: IDataObject = { id: data as string, message: body.status_message as string, shipType: Number(order.fields.shipType) };
		if (order.fields.tag) json.tag = order.fields.tag;
		return [withItem(json, itemIndex)];
	});
}

/** With "Maximum Price", the same order is priced first (test=1, nothing created) and sent only at or below it. */
async function refuseAboveMaximumPrice(ctx: IExecuteFunctions, itemIndex: number, order: OrderRequest): Promise<void> {
	const max = cachedParameter<IDataObject>(ctx, 'additionalFields', itemIndex, {}).maxPrice;
	if (max === undefined || max === null || max === '') return;
	const { data } = await serviceRequest(ctx, orderRequest(order, true), itemIndex);
	const price = (data as IDataObject)?.value;
	if (typeof price === 'number' && price <= Number(max)) return;
	throw new NodeOperationError(
		ctx.getNode(),
		typeof price === 'number'
			? `The price of this letter, R$ ${price.toFixed(2)}, is above "Maximum Price (BRL)" (R$ ${Number(max).toFixed(2)}). Nothing was sent.`
			: `The service gave no price for this letter, so "Maximum Price (BRL)" cannot be checked. Nothing was sent.`,
		{ itemIndex, description: 'Raise "Maximum Price (BRL)" under Additional Fields, or remove it, to send this letter.' },
	);
}

export async function validate(this: IExecuteFunctions, itemIndex: number): Promise<void> {
	await readOrder(this, itemIndex, true);
}

interface OrderRequest {
	fields: Record<string, string>;
	pdf: PdfSource;
	binary?: { buffer: Buffer; fileName: string; mimeType: string };
}

const flag = (value: unknown) => (value === true || value === 1 || value === '1' || value === 'true' ? '1' : '0');
const text = (value: unknown) => (value === undefined || value === null ? '' : String(value).trim());

/**
 * Each input file of the run, read once: its facts always, and its bytes up to HELD_BYTES in all,
 * so that the send after the validation pass does not read the file from n8n's binary store again
 * while memory allows (beyond the bound the send reads it again). A file in the binary store has an
 * id and is never changed in place; a file in memory mode is known by its item's entry object.
 */
const HELD_BYTES = 128 * 1024 * 1024;
type InputFile = { facts: PdfFacts; buffer?: Buffer };
const filesOfRun = new WeakMap<IExecuteFunctions, { files: Map<string | object, InputFile>; held: number }>();

/** The item's file and its facts; `bytes` false when only the facts are needed and are known. */
async function inputFile(ctx: IExecuteFunctions, itemIndex: number, property: string, bytes: boolean): Promise<InputFile> {
	const meta = ctx.helpers.assertBinaryData(itemIndex, property);
	const run = stateOfRun(filesOfRun, ctx, () => ({ files: new Map<string | object, InputFile>(), held: 0 }));
	const key = meta.id ?? meta;
	const known = run.files.get(key);
	if (known && (known.buffer || !bytes)) return known;
	const buffer = await ctx.helpers.getBinaryDataBuffer(itemIndex, property);
	if (known) return { facts: known.facts, buffer };
	const file: InputFile = { facts: await readPdfFacts(buffer) };
	if (run.held + buffer.length <= HELD_BYTES) {
		file.buffer = buffer;
		run.held += buffer.length;
	}
	run.files.set(key, file);
	return { facts: file.facts, buffer };
}

/**
 * Reads one item's create-order parameters into wire fields, checks them, and builds the PDF part.
 * With `checkOnly` (the validation pass) the PDF's bytes are read only to learn its facts.
 */
export async function readOrder(ctx: IExecuteFunctions, itemIndex: number, checkOnly = false): Promise<OrderRequest> {
	// Read once per run unless an expression makes them differ by item (each read is costly in n8n).
	const p = <T>(name: string, fallback: T) => cachedParameter<T>(ctx, name, itemIndex, fallback);
	const shipType = Number(p('shipType', 0));
	const has = (list: readonly number[]) => list.includes(shipType);

	const fields: Record<string, string> = {
		shipType: String(p('shipType', '')),
		name: text(p('recipientName', '')),
		addr1: text(p('recipientAddr1', '')),
		street_number: text(p('recipientStreetNumber', '')),
		addr2: text(p('recipientAddr2', '')),
		zip: text(p('recipientZip', '')),
		city: text(p('recipientCity', '')),
		state: text(p('recipientState', '')),
		country: text(p('recipientCountry', '')),
		paymentMethod: text(p('paymentMethod', 'service_credits')),
	};
	if (!fields.addr2) delete fields.addr2;
	if (fields.paymentMethod === 'team') fields.team_member_id = text(p('teamMemberId', ''));

	const sender = p<IDataObject>('sender', {});
	for (const { name, wire } of SENDER_FIELDS) {
		if (text(sender[name])) fields[wire] = text(sender[name]);
	}

	const additional = p<IDataObject>('additionalFields', {});
	if (text(p('tag', ''))) fields.tag = text(p('tag', ''));
	if (additional.virtualBox !== undefined) fields.virtualbox = flag(additional.virtualBox);
	if (additional.useClientContract !== undefined) fields.use_client_contract = flag(additional.useClientContract);
	if (additional.duplexPrinting !== undefined) fields.duplex_printing = flag(additional.duplexPrinting);
	if (additional.envelopeType !== undefined) fields.envelope_type = text(additional.envelopeType);

	if (has(SHIP_TYPE_RULES.returnReceipt)) fields.ar_type = text(p('returnReceiptType', 'physical'));
	else {
		// A value left from another ship type (or set by an expression) is still checked: the
		// service refuses electronic receipts for the other types.
		const arType = text(p('returnReceiptType', ''));
		if (arType && arType !== 'physical') fields.ar_type = arType;
	}
	const toAddrOnly = p<unknown>('toAddrOnly', null);
	if (toAddrOnly !== null && toAddrOnly !== undefined) fields.toAddrOnly = flag(toAddrOnly);

	if (has(SHIP_TYPE_RULES.telegram)) {
		fields.telegram_msg = text(p('telegramMessage', ''));
		const postDated = flag(p('telegramPostDated', false));
		fields.telegram_post_dated = postDated;
		if (postDated === '1') {
			// A dateTime parameter arrives as an ISO string (or a date object from an expression); the
			// service takes the date alone.
			const raw = p<unknown>('telegramPostDatedDate', '');
			const date = raw instanceof Date ? raw.toISOString() : text(raw);
			fields.telegram_post_dated_date = /^\d{4}-\d{2}-\d{2}/.test(date) ? date.slice(0, 10) : date;
		}
		fields.telegram_sender_copy = flag(p('telegramSenderCopy', false));
		fields.telegram_delivery_confirmation = flag(p('telegramDeliveryConfirmation', false));
	}
	if (has(SHIP_TYPE_RULES.electronicLetter)) fields.ecarta_msg = String(p('electronicLetterMessage', '') ?? '');

	let pdf: PdfSource = { kind: 'none' };
	let binary: OrderRequest['binary'];
	let missingBinary: ValidationProblem | undefined;
	if (has(SHIP_TYPE_RULES.pdf)) {
		const source = p<string>('pdfSource', 'binary');
		if (source === 'url') {
			const url = text(p('pdfUrl', ''));
			pdf = url ? { kind: 'url', url } : { kind: 'none' };
		} else if (source === 'base64') {
			const base64 = text(p('pdfBase64', '')).replace(/^data:[^,]*,/, '');
			if (base64) {
				// The text is what is sent; the bytes are only for the checks.
				fields.pdfFile = base64;
				pdf = { kind: 'base64', facts: await readPdfFacts(Buffer.from(base64, 'base64')) };
			}
		} else {
			const property = text(p('binaryPropertyName', 'data'));
			const item = ctx.getInputData()[itemIndex];
			if (!property || !item?.binary?.[property]) {
				missingBinary = {
					field: 'pdfFile',
					message: `"pdfFile" is required for shipType ${shipType}, but the input item has no binary property "${property}"`,
				};
			} else {
				const file = await inputFile(ctx, itemIndex, property, !checkOnly);
				pdf = { kind: 'binary', facts: file.facts };
				if (file.buffer && !checkOnly) {
					const meta = ctx.helpers.assertBinaryData(itemIndex, property);
					binary = { buffer: file.buffer, fileName: meta.fileName ?? 'letter.pdf', mimeType: meta.mimeType || 'application/pdf' };
				}
			}
		}
		if (pdf.kind === 'url') fields.pdfFile = pdf.url!;
	}

	// What is checked is what will be sent: the extras are merged first.
	const wire = { ...fields, ...readExtraParameters(ctx, itemIndex, ORDER_OWNED) };
	// The missing binary property is reported in place of the generic "pdfFile is required".
	const problems = validateOrder(wire, pdf).filter((p) => !missingBinary || p.field !== 'pdfFile');
	if (missingBinary) problems.unshift(missingBinary);
	if (!problems.length) problems.push(...pageProblems(wire, pdf.facts));
	if (problems.length) throw invalidItem(ctx, itemIndex, problems);
	return { fields: applyForcing(wire), pdf, binary };
}

/** Fields of a create that Extra Parameters cannot set. */
const ORDER_OWNED = {
	test: 'the operation decides it: Get Price always sends test=1 and creates nothing, Create never sends it',
	pdffile: 'choose the PDF with "PDF Source" (binary data, URL or base64)',
};

/** The multipart body of a create (or quote) request. */
function orderForm(order: OrderRequest): FormData {
	const form = new FormData();
	for (const [name, value] of Object.entries(order.fields)) form.append(name, value);
	if (order.binary) {
		form.append(
			'pdfFile',
			// The Blob takes its own copy of the bytes: no intermediate one.
			new Blob([order.binary.buffer], { type: order.binary.mimeType }),
			order.binary.fileName,
		);
	}
	return form;
}
