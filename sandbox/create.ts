import { z } from 'zod';

import { AR_TYPES, ENVELOPE_TYPES, PAYMENT_METHODS, SHIP_TYPES, valuesOf, type ShipType } from '../nodes/PostalService/contract/lists';
import { authenticated, PLACEMENTS } from './auth';
import type { SandboxCore } from './core';
import { envelopeA, text, type Ctx, type Reply } from './http';
import { storeLetter } from './orders';
import { inspectPdf } from './pdf';
import { ACCOUNT_PROFILE, SERVICE_UNIT, type Address, type LetterOrder, type StoredFile } from './state';
import { BRAZILIAN_STATES, cepDigits, cepMatchesState, isBrazil } from './cep';
import { isLoopbackHost, normalizeText, round2, saoPauloDate, saoPauloDateTime } from './util';

export const MAX_PDF_PAGES = 150;
/** Characters that fit the spec's 10 rendered pages of telegram or electronic-letter text. */
export const MAX_RENDERED_CHARS = 30_000;
const CHARS_PER_PAGE = MAX_RENDERED_CHARS / 10;

// The sandbox's own reading of the ship-type rules (the node has its own in its contract; a test
// holds the two readings together).
export const PDF_SHIP_TYPES = [1, 2, 3, 5, 6, 7];
export const ECARTA_SHIP_TYPES = [8, 9, 10];
export const TO_ADDR_ONLY_SHIP_TYPES = [2, 3, 6, 7, 10];
export const CLIENT_CONTRACT_SHIP_TYPES = [2, 3, 4, 6, 7, 8, 9, 10];
export const ELECTRONIC_AR_SHIP_TYPES = [3, 7, 10];
export const EXPRESS_SHIP_TYPES = [6, 7];

/**
 * The sandbox's own price table (BRL). The service's prices are not part of its interface; these
 * only make `value`, `shipping_cost` and the balance move plausibly.
 */
export const PRICE_TABLE = {
	shipping: { 1: 2.85, 2: 8.75, 3: 13.95, 4: 11.2, 5: 1.9, 6: 24.5, 7: 29.6, 8: 1.5, 9: 5.9, 10: 9.9 } satisfies Record<
		ShipType,
		number
	> as Record<number, number>,
	firstSheet: 1.2,
	extraSheet: 0.45,
	autoenvelope: 0.3,
	electronicReturnReceiptDiscount: 1.5,
	virtualboxShippingFactor: 0.9,
	clientContractFee: 1.0,
	telegramSenderCopy: 2.0,
	telegramDeliveryConfirmation: 3.0,
	telegramPostDated: 1.0,
};

export interface PriceInput {
	shipType: number;
	sheets: number;
	envelopeType: string;
	arType: string;
	virtualbox: boolean;
	useClientContract: boolean;
	telegram?: { senderCopy: boolean; deliveryConfirmation: boolean; postDated: boolean };
}

export function computePrice(input: PriceInput): { value: number; shippingCost: number } {
	let shipping = PRICE_TABLE.shipping[input.shipType];
	if (input.virtualbox) shipping *= PRICE_TABLE.virtualboxShippingFactor;
	if (input.arType === 'electronic') shipping -= PRICE_TABLE.electronicReturnReceiptDiscount;
	let other = 0;
	if (PDF_SHIP_TYPES.includes(input.shipType)) {
		other += PRICE_TABLE.firstSheet + Math.max(0, input.sheets - 1) * PRICE_TABLE.extraSheet;
		if (input.envelopeType === 'autoenvelope') other += PRICE_TABLE.autoenvelope;
	}
	if (input.telegram) {
		if (input.telegram.senderCopy) other += PRICE_TABLE.telegramSenderCopy;
		if (input.telegram.deliveryConfirmation) other += PRICE_TABLE.telegramDeliveryConfirmation;
		if (input.telegram.postDated) other += PRICE_TABLE.telegramPostDated;
	}
	if (input.useClientContract) {
		// The shipment is billed to the account's own postal contract; the service keeps a fee.
		shipping = 0;
		other += PRICE_TABLE.clientContractFee;
	}
	return { value: round2(shipping + other), shippingCost: round2(shipping) };
}

const oneOf = <T extends string>(field: string, values: readonly [T, ...T[]]) =>
	z.enum(values, { errorMap: () => ({ message: `${field}: valor inválido (aceitos: ${values.join(', ')})` }) });
/** One of the values of a list of the contract. */
const inList = <T extends string>(field: string, list: ReadonlyArray<{ readonly value: T }>) =>
	oneOf(field, valuesOf(list) as [T, ...T[]]);
const SHIP_TYPE_VALUES = valuesOf(SHIP_TYPES).map(String);
const maxLen = (field: string, max: number) => z.string().max(max, `${field}: máximo de ${max} caracteres`);
const flag = (field: string) => oneOf(field, ['0', '1']);
const bool = (field: string) => oneOf(field, ['0', '1', 'true', 'false']);

/** Field-level constraints of the create-order table; the rules across fields follow in code. */
export const createSchema = z.object({
	shipType: z
		.string()
		.refine((value) => SHIP_TYPE_VALUES.includes(value), `shipType: use um inteiro de ${SHIP_TYPE_VALUES[0]} a ${SHIP_TYPE_VALUES.at(-1)}`),
	paymentMethod: inList('paymentMethod', PAYMENT_METHODS).optional(),
	team_member_id: z.string().regex(/^\d+$/, 'team_member_id: deve ser um número inteiro').optional(),
	ar_type: inList('ar_type', AR_TYPES).optional(),
	// `0`, `1`, "also accepts true": the table lists no `false` here, as it does for duplex_printing.
	virtualbox: oneOf('virtualbox', ['0', '1', 'true']).optional(),
	name: maxLen('name', 60),
	addr1: maxLen('addr1', 60),
	street_number: maxLen('street_number', 15),
	addr2: maxLen('addr2', 40).optional(),
	zip: z.string(),
	city: maxLen('city', 40),
	state: maxLen('state', 40),
	country: maxLen('country', 60),
	name_sender: maxLen('name_sender', 60).optional(),
	addr1_sender: maxLen('addr1_sender', 60).optional(),
	street_number_sender: maxLen('street_number_sender', 15).optional(),
	addr2_sender: maxLen('addr2_sender', 40).optional(),
	zip_sender: z.string().optional(),
	city_sender: maxLen('city_sender', 40).optional(),
	state_sender: maxLen('state_sender', 40).optional(),
	country_sender: maxLen('country_sender', 60).optional(),
	toAddrOnly: flag('toAddrOnly').optional(),
	tag: z.string().optional(),
	test: flag('test').optional(),
	duplex_printing: bool('duplex_printing').optional(),
	envelope_type: inList('envelope_type', ENVELOPE_TYPES).optional(),
	telegram_msg: z
		.string()
		.min(10, 'telegram_msg: mínimo de 10 caracteres')
		.max(MAX_RENDERED_CHARS, 'telegram_msg: o conteúdo excede 10 páginas')
		.optional(),
	telegram_post_dated: flag('telegram_post_dated').optional(),
	telegram_post_dated_date: z.string().optional(),
	telegram_sender_copy: flag('telegram_sender_copy').optional(),
	telegram_delivery_confirmation: flag('telegram_delivery_confirmation').optional(),
	ecarta_msg: z.string().min(10, 'ecarta_msg: mínimo de 10 caracteres').optional(),
	use_client_contract: flag('use_client_contract').optional(),
});

type CreateFields = z.infer<typeof createSchema>;

function bad(message: string): Reply {
	return envelopeA(400, message);
}

function incomplete(fields: string[]): Reply {
	return bad(
		`Requisição incompleta - ${fields.length > 1 ? 'campos obrigatórios não preenchidos' : 'campo obrigatório não preenchido'}: ${fields.join(', ')}`,
	);
}

function truthy(value: string | undefined): boolean {
	return value === '1' || value === 'true';
}

/** `YYYY-MM-DD` of a date written `YYYY-MM-DD` or `DD/MM/YYYY`, or null. */
function isoDate(value: string): string | null {
	const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value.trim());
	const br = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(value.trim());
	const ymd = iso ? `${iso[1]}-${iso[2]}-${iso[3]}` : br ? `${br[3]}-${br[2]}-${br[1]}` : null;
	if (!ymd) return null;
	const date = new Date(`${ymd}T12:00:00Z`);
	return Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== ymd ? null : ymd;
}

function checkBrazilianAddress(prefix: string, zip: string, state: string, errors: string[]): void {
	const suffix = prefix ? `_${prefix}` : '';
	const uf = state.trim().toUpperCase();
	if (!BRAZILIAN_STATES.includes(uf)) {
		errors.push(`state${suffix}: para endereços no Brasil use a sigla de 2 letras do estado (ex.: SP)`);
		return;
	}
	const digits = cepDigits(zip);
	if (!digits) {
		errors.push(`zip${suffix}: o CEP deve ter 8 dígitos`);
		return;
	}
	if (!cepMatchesState(digits, uf)) errors.push(`zip${suffix}: o CEP ${zip} não pertence ao estado ${uf}`);
}

async function loadPdf(ctx: Ctx): Promise<{ bytes: Buffer; name: string } | { error: string } | null> {
	const file = ctx.files.find((f) => f.field === 'pdfFile');
	if (file) return { bytes: file.data, name: file.fileName || 'documento.pdf' };
	const value = text(ctx.fields.pdfFile)?.trim();
	if (!value) return null;
	if (/^https?:\/\//i.test(value)) {
		let url: URL;
		try {
			url = new URL(value);
		} catch {
			return { error: 'pdfFile: URL inválida' };
		}
		if (!isLoopbackHost(url.hostname)) {
			return { error: 'pdfFile: o sandbox só baixa PDFs de endereços locais (127.0.0.1, localhost)' };
		}
		// A fresh agent per download, closed at once: nothing lingers after the sandbox stops.
		const { Agent, request } = await import('undici');
		const agent = new Agent({ keepAliveTimeout: 10 });
		try {
			const response = await request(url, { dispatcher: agent, headersTimeout: 10_000, bodyTimeout: 10_000 });
			const bytes = Buffer.from(await response.body.arrayBuffer());
			if (response.statusCode < 200 || response.statusCode >= 300) {
				return { error: `pdfFile: não foi possível baixar o arquivo (HTTP ${response.statusCode})` };
			}
			return { bytes, name: decodeURIComponent(url.pathname.split('/').pop() || 'documento.pdf') };
		} catch (error) {
			return { error: `pdfFile: não foi possível baixar o arquivo (${error instanceof Error ? error.message : error})` };
		} finally {
			await agent.close();
		}
	}
	const base64 = value.replace(/^data:[^;,]*;base64,/i, '').replace(/\s+/g, '');
	if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(base64)) return { error: 'pdfFile: base64 inválido (ou URL sem http/https)' };
	return { bytes: Buffer.from(base64, 'base64'), name: 'documento.pdf' };
}

/** POST /api/v2/post: every constraint of the create-order table and rules 1 to 8. */
export async function createOrder(core: SandboxCore, ctx: Ctx): Promise<Reply> {
	const denied = core.checkAuth(ctx, authenticated(core, ctx, PLACEMENTS.write), 'A', 'Token inválido');
	if (denied) return denied;
	if (ctx.bodyKind !== 'form' && ctx.bodyKind !== 'multipart') {
		return bad('Requisição incompleta - envie multipart/form-data ou application/x-www-form-urlencoded');
	}

	// Empty form fields count as absent, as the service's forms treat them.
	const raw: Record<string, string> = {};
	for (const key of Object.keys(createSchema.shape)) {
		const value = text(ctx.fields[key]);
		if (value !== undefined && value !== '') raw[key] = value;
	}
	const hasPdf = ctx.files.some((f) => f.field === 'pdfFile') || !!text(ctx.fields.pdfFile)?.trim();

	const missing = ['shipType', 'name', 'addr1', 'street_number', 'zip', 'city', 'state', 'country'].filter(
		(key) => raw[key] === undefined,
	);
	const shipType = Number(raw.shipType);
	if (PDF_SHIP_TYPES.includes(shipType) && !hasPdf) missing.push('pdfFile');
	if (shipType === 4) {
		for (const key of ['telegram_msg', 'telegram_post_dated', 'telegram_sender_copy', 'telegram_delivery_confirmation']) {
			if (raw[key] === undefined) missing.push(key);
		}
		if (raw.telegram_post_dated === '1' && raw.telegram_post_dated_date === undefined) {
			missing.push('telegram_post_dated_date');
		}
	}
	if (ECARTA_SHIP_TYPES.includes(shipType) && raw.ecarta_msg === undefined) missing.push('ecarta_msg');
	if (raw.paymentMethod === 'team' && raw.team_member_id === undefined) missing.push('team_member_id');
	if (missing.length > 0) return incomplete(missing);

	const parsed = createSchema.safeParse(raw);
	if (!parsed.success) return bad(parsed.error.issues.map((issue) => issue.message).join('; '));
	const f: CreateFields = parsed.data;

	const errors: string[] = [];
	const arType = f.ar_type ?? 'physical';
	if (arType === 'electronic' && !ELECTRONIC_AR_SHIP_TYPES.includes(shipType)) {
		errors.push('ar_type: electronic só é permitido para shipType 3, 7 e 10');
	}
	const useClientContract = f.use_client_contract === '1';
	if (useClientContract && !CLIENT_CONTRACT_SHIP_TYPES.includes(shipType)) {
		errors.push('use_client_contract: permitido apenas para shipType 2, 3, 4, 6, 7, 8, 9 e 10');
	}
	if (useClientContract && errors.length === 0 && !core.state.clientContract) {
		// Authenticated but not allowed: the account has no contract of its own with the operator.
		return envelopeA(403, 'use_client_contract: a conta não tem contrato próprio com o operador postal');
	}
	if (isBrazil(f.country)) checkBrazilianAddress('', f.zip, f.state, errors);

	const virtualbox = truthy(f.virtualbox);
	const senderGiven = [f.addr1_sender, f.zip_sender, f.city_sender, f.state_sender].some((v) => v !== undefined);
	let sender: Address;
	if (virtualbox) {
		sender = { ...SERVICE_UNIT, name: f.name_sender ?? ACCOUNT_PROFILE.name };
	} else if (senderGiven) {
		sender = {
			name: f.name_sender ?? ACCOUNT_PROFILE.name,
			addr1: f.addr1_sender ?? '',
			street_number: f.street_number_sender ?? '',
			addr2: f.addr2_sender ?? '',
			zip: f.zip_sender ?? '',
			city: f.city_sender ?? '',
			state: f.state_sender ?? '',
			country: f.country_sender ?? ACCOUNT_PROFILE.country,
		};
		const brazilianSender =
			f.country_sender === undefined ? core.names.senderWithoutCountryIsBrazilian : isBrazil(f.country_sender);
		if (brazilianSender && f.zip_sender !== undefined && f.state_sender !== undefined) {
			checkBrazilianAddress('sender', sender.zip, sender.state, errors);
		}
	} else {
		sender = { ...ACCOUNT_PROFILE, name: f.name_sender ?? ACCOUNT_PROFILE.name };
	}
	if (EXPRESS_SHIP_TYPES.includes(shipType) && !virtualbox) {
		const inUnitCity =
			normalizeText(sender.city) === normalizeText(SERVICE_UNIT.city) && sender.state.trim().toUpperCase() === SERVICE_UNIT.state;
		if (!inUnitCity) {
			errors.push(
				`shipType ${shipType}: encomenda expressa exige virtualbox=1 ou remetente na cidade da unidade (${SERVICE_UNIT.city}/${SERVICE_UNIT.state})`,
			);
		}
	}

	let telegram: LetterOrder['telegram_info'] = {};
	if (shipType === 4) {
		const postDated = f.telegram_post_dated === '1';
		let postDate = '';
		if (postDated) {
			const date = isoDate(f.telegram_post_dated_date ?? '');
			if (!date) {
				errors.push('telegram_post_dated_date: data inválida (use AAAA-MM-DD)');
			} else if (date <= saoPauloDate()) {
				errors.push('telegram_post_dated_date: a data deve ser amanhã ou posterior');
			} else {
				postDate = date;
			}
		}
		telegram = {
			message: f.telegram_msg,
			post_dated: postDated ? 1 : 0,
			post_dated_date: postDate,
			sender_copy: f.telegram_sender_copy === '1' ? 1 : 0,
			delivery_confirmation: f.telegram_delivery_confirmation === '1' ? 1 : 0,
		};
	}
	if (ECARTA_SHIP_TYPES.includes(shipType) && (f.ecarta_msg ?? '').replace(/<[^>]*>/g, '').length > MAX_RENDERED_CHARS) {
		errors.push('ecarta_msg: o conteúdo excede 10 páginas');
	}
	if (errors.length > 0) return bad(errors.join('; '));

	const envelopeType = f.envelope_type ?? 'regular';
	let duplex = f.duplex_printing === undefined ? 1 : truthy(f.duplex_printing) ? 1 : 0;
	let numPages = 1;
	let pdfFile: StoredFile | null = null;
	if (PDF_SHIP_TYPES.includes(shipType)) {
		const loaded = await loadPdf(ctx);
		if (!loaded) return incomplete(['pdfFile']);
		if ('error' in loaded) return bad(loaded.error);
		const inspection = await inspectPdf(loaded.bytes);
		if (!inspection.ok) {
			return bad(
				inspection.reason === 'encrypted'
					? 'pdfFile: PDF protegido por senha não é aceito'
					: 'pdfFile: o arquivo não é um PDF válido',
			);
		}
		numPages = inspection.pages;
		if (numPages > MAX_PDF_PAGES) {
			return bad(`pdfFile: máximo de ${MAX_PDF_PAGES} páginas (o PDF tem ${numPages})`);
		}
		if (envelopeType === 'autoenvelope' && numPages !== 1) {
			return bad(`envelope_type: autoenvelope exige um PDF de uma única página (o PDF tem ${numPages})`);
		}
		// Both forcing rules apply to a one-page autoenvelope letter; the autoenvelope one wins.
		if (numPages === 1) duplex = 1;
		if (envelopeType === 'autoenvelope') duplex = 0;
		pdfFile = {
			name: loaded.name.toLowerCase().endsWith('.pdf') ? loaded.name : `${loaded.name}.pdf`,
			type: 'pdf',
			created_at: '',
			mimeType: 'application/pdf',
			base64: loaded.bytes.toString('base64'),
		};
	} else {
		const content = shipType === 4 ? (f.telegram_msg ?? '') : (f.ecarta_msg ?? '').replace(/<[^>]*>/g, '');
		numPages = Math.max(1, Math.ceil(content.length / CHARS_PER_PAGE));
	}

	const sheets = duplex ? Math.ceil(numPages / 2) : numPages;
	const { value, shippingCost } = computePrice({
		shipType,
		sheets,
		envelopeType,
		arType,
		virtualbox,
		useClientContract,
		telegram:
			shipType === 4
				? {
						senderCopy: telegram.sender_copy === 1,
						deliveryConfirmation: telegram.delivery_confirmation === 1,
						postDated: telegram.post_dated === 1,
					}
				: undefined,
	});

	if (f.test === '1') {
		return envelopeA(200, 'Dados válidos - o pedido seria aceito', { value });
	}

	const paymentMethod = f.paymentMethod ?? 'service_credits';
	let status = 0;
	if (paymentMethod === 'service_credits') {
		if (core.state.balance >= value) core.state.balance = round2(core.state.balance - value);
		else status = 2;
	}
	const now = saoPauloDateTime();
	const id = String(core.state.nextOrderId++);
	if (pdfFile) {
		pdfFile.created_at = now;
		if (pdfFile.name === 'documento.pdf') pdfFile.name = `${id}.pdf`;
	}
	const order: LetterOrder = {
		kind: 'letter',
		id,
		numPages,
		recipient: {
			name: f.name,
			addr1: f.addr1,
			street_number: f.street_number,
			addr2: f.addr2 ?? '',
			zip: f.zip,
			city: f.city,
			state: f.state,
			country: f.country,
		},
		sender,
		shipType,
		tracking: '',
		status,
		status_delivery: '',
		delivery_suspension: '',
		delivery_suspension_at: '',
		files: pdfFile ? [pdfFile] : [],
		rr_count: 0,
		dateSubmit: now,
		dateLastChange: now,
		value,
		use_client_contract: useClientContract,
		shipping_cost: shippingCost,
		tag: f.tag ?? '',
		tracking_events: [],
		tracking_records_last_update: '',
		telegram_info: telegram,
		paymentMethod,
		team_member_id: f.team_member_id !== undefined ? Number(f.team_member_id) : null,
		ar_type: arType,
		virtualbox,
		toAddrOnly: TO_ADDR_ONLY_SHIP_TYPES.includes(shipType) && f.toAddrOnly === '1' ? 1 : 0,
		duplex_printing: duplex,
		envelope_type: envelopeType,
		tracking_step: 0,
		cancel_reason: '',
	};
	storeLetter(core, order);
	return envelopeA(200, 'Sucesso - pedido aceito', id);
}
