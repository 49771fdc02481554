import type { SandboxCore } from './core';
import { envelopeA, text, type Ctx, type Reply } from './http';
import { storeLetter } from './orders';
import { inspectPdf, loadPdf } from './pdf';
import {
	CLIENT_CONTRACT_SHIP_TYPES,
	computePrice,
	createSchema,
	ECARTA_SHIP_TYPES,
	ELECTRONIC_AR_SHIP_TYPES,
	EXPRESS_SHIP_TYPES,
	MAX_PDF_PAGES,
	MAX_RENDERED_CHARS,
	PDF_SHIP_TYPES,
	TO_ADDR_ONLY_SHIP_TYPES,
	type CreateFields,
} from './rules';
import { ACCOUNT_PROFILE, SERVICE_UNIT, type Address, type LetterOrder, type StoredFile } from './state';
import { BRAZILIAN_STATES, cepDigits, cepMatchesState, isBrazil } from './cep';
import { normalizeText, round2, saoPauloDate, saoPauloDateTime } from './util';
import { READ_ADDRESS_KEYS } from './views';

export { createSchema } from './rules';

const CHARS_PER_PAGE = MAX_RENDERED_CHARS / 10;

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

/** The address a create request gives in the fields named `<key><suffix>`, those it leaves out empty. */
function addressOf(f: CreateFields, suffix: '' | '_sender'): Address {
	const given = f as Record<string, string | undefined>;
	return Object.fromEntries(READ_ADDRESS_KEYS.map((key) => [key, given[`${key}${suffix}`] ?? ''])) as unknown as Address;
}

/** POST /api/v2/post: every constraint of the create-order table and rules 1 to 8. */
export async function createOrder(core: SandboxCore, ctx: Ctx): Promise<Reply> {
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

	// The fields the schema requires, each named, before any of their values is read.
	const missing = Object.entries(createSchema.shape)
		.filter(([key, field]) => !field.isOptional() && raw[key] === undefined)
		.map(([key]) => key);
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
			...addressOf(f, '_sender'),
			name: f.name_sender ?? ACCOUNT_PROFILE.name,
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
		telegram,
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
		recipient: addressOf(f, ''),
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
