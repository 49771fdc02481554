/**
 * POST /api/v2/post, the interface's create-order rules as one table: each row an order the
 * sandbox accepts (and what it records) or refuses (and the words its 400 names). The field lengths
 * are contract.test.ts's; a PDF by URL, 150 pages and bytes that are not a PDF create-pdf.test.ts's.
 */
import { describe, expect, it } from 'vitest';

import { createOrder, letter, orderOutcomes, pdfWithPages, tomorrow, useSandbox } from './support';

const ctx = useSandbox();
const { created, refused } = orderOutcomes(ctx);

type Fields = Record<string, string | undefined>;

const RIO_SENDER = { addr1_sender: 'Rua X', city_sender: 'Rio de Janeiro', state_sender: 'RJ', zip_sender: '20040-030' };
const telegram = (extra: Fields = {}): Fields => ({
	shipType: '4',
	telegram_msg: 'Mensagem do telegrama.',
	telegram_post_dated: '0',
	telegram_sender_copy: '1',
	telegram_delivery_confirmation: '0',
	...extra,
});
const ENUMERATIONS: Array<[string, string]> = [
	['shipType', '11'],
	['paymentMethod', 'cash'],
	['ar_type', 'digital'],
	['virtualbox', 'yes'],
	['toAddrOnly', '2'],
	['test', '2'],
	['duplex_printing', 'maybe'],
	['envelope_type', 'window'],
	['use_client_contract', 'true'],
];

/** `refused`: words the 400 names; `order`: what the accepted order records. `pdf`: a file of one page, or of this many; without it, none. */
const RULES: Array<{ rule: string; fields: Fields; pdf?: true | number; refused?: string; order?: Record<string, unknown> }> = [
	{ rule: 'required fields, each named', fields: { name: undefined, zip: undefined, country: undefined }, pdf: true, refused: 'Requisição incompleta - campos obrigatórios não preenchidos: name, zip, country' },
	{ rule: 'shipType required', fields: { shipType: undefined }, pdf: true, refused: 'shipType' },
	...ENUMERATIONS.map(([field, value]) => ({ rule: `${field}=${value} outside its enumeration`, fields: { [field]: value }, pdf: true as const, refused: field })),
	{ rule: 'team_member_id required with paymentMethod=team', fields: { paymentMethod: 'team' }, pdf: true, refused: 'team_member_id' },
	{ rule: 'paymentMethod=team with team_member_id', fields: { paymentMethod: 'team', team_member_id: '7' }, pdf: true, order: { paymentMethod: 'team', team_member_id: 7, status: 0 } },
	...['1', '2', '3', '5', '6', '7'].map((shipType) => ({ rule: `pdfFile required for shipType ${shipType}`, fields: { shipType, virtualbox: '1' }, refused: 'pdfFile' })),
	{ rule: 'pdfFile as bad base64', fields: { pdfFile: '***' }, refused: 'pdfFile: base64 inválido' },
	{ rule: 'pdfFile as a URL whose host is not loopback, not fetched', fields: { pdfFile: 'https://docs.example.com/d/abc/export?format=pdf' }, refused: 'endereços locais' },
	{ rule: 'rule 5: duplex_printing forced to 1 for a single page', fields: { duplex_printing: '0' }, pdf: true, order: { duplex_printing: 1 } },
	...(['0', 'false', 'true', undefined] as const).map((duplex) => ({ rule: `rule 5: duplex_printing=${duplex} kept for three pages`, fields: { duplex_printing: duplex }, pdf: 3, order: { duplex_printing: duplex === 'true' || duplex === undefined ? 1 : 0 } })),
	{ rule: 'rule 5: autoenvelope forces 0, over the single-page rule', fields: { envelope_type: 'autoenvelope', duplex_printing: '1' }, pdf: true, order: { duplex_printing: 0, envelope_type: 'autoenvelope' } },
	{ rule: 'rule 5: autoenvelope with three pages', fields: { envelope_type: 'autoenvelope' }, pdf: 3, refused: 'autoenvelope exige um PDF de uma única página' },
	{ rule: 'ar_type=electronic refused on shipType 2', fields: { shipType: '2', ar_type: 'electronic' }, pdf: true, refused: 'ar_type' },
	{ rule: 'ar_type=electronic on shipType 3', fields: { shipType: '3', ar_type: 'electronic' }, pdf: true, order: { ar_type: 'electronic' } },
	{ rule: 'ar_type=electronic on shipType 7', fields: { shipType: '7', ar_type: 'electronic', virtualbox: '1' }, pdf: true, order: { ar_type: 'electronic' } },
	{ rule: 'ar_type=electronic on shipType 10', fields: { shipType: '10', ar_type: 'electronic', ecarta_msg: 'Mensagem eletrônica' }, order: { ar_type: 'electronic' } },
	{ rule: 'toAddrOnly forced to 0 on shipType 1', fields: { shipType: '1', toAddrOnly: '1' }, pdf: true, order: { toAddrOnly: 0 } },
	{ rule: 'toAddrOnly forced to 0 on shipType 5', fields: { shipType: '5', toAddrOnly: '1' }, pdf: true, order: { toAddrOnly: 0 } },
	{ rule: 'toAddrOnly kept on shipType 2', fields: { shipType: '2', toAddrOnly: '1' }, pdf: true, order: { toAddrOnly: 1 } },
	{ rule: 'use_client_contract refused on shipType 1', fields: { shipType: '1', use_client_contract: '1' }, pdf: true, refused: 'use_client_contract' },
	{ rule: 'use_client_contract refused on shipType 5', fields: { shipType: '5', use_client_contract: '1' }, pdf: true, refused: 'use_client_contract' },
	{ rule: 'use_client_contract on shipType 2', fields: { shipType: '2', use_client_contract: '1' }, pdf: true, order: { use_client_contract: true, shipping_cost: 0 } },
	{ rule: 'express parcel (6) without a virtual box or a São Paulo sender', fields: { shipType: '6' }, pdf: true, refused: 'virtualbox=1' },
	{ rule: 'express parcel (7) from Rio de Janeiro', fields: { shipType: '7', ...RIO_SENDER }, pdf: true, refused: 'São Paulo/SP' },
	{ rule: 'express parcel (6) with virtualbox=1', fields: { shipType: '6', virtualbox: '1' }, pdf: true, order: { virtualbox: true } },
	{ rule: 'express parcel (7) with virtualbox=true', fields: { shipType: '7', virtualbox: 'true' }, pdf: true, order: { virtualbox: true } },
	{ rule: 'express parcel (6) from São Paulo', fields: { shipType: '6', addr1_sender: 'Rua Augusta', street_number_sender: '10', city_sender: 'sao paulo', state_sender: 'SP', zip_sender: '01305-000' }, pdf: true, order: { state_sender: 'SP' } },
	{ rule: 'sender omitted: the account profile', fields: {}, pdf: true, order: { city_sender: 'Campinas', state_sender: 'SP' } },
	{ rule: 'zip of 7 digits', fields: { zip: '0131020' }, pdf: true, refused: 'zip: o CEP deve ter 8 dígitos' },
	{ rule: 'zip of 3 digits with test=1: the price-only mode refuses as creating does', fields: { test: '1', zip: '123' }, pdf: true, refused: 'zip' },
	{ rule: 'zip of 8 digits without a dash', fields: { zip: '01310200' }, pdf: true, order: {} },
	{ rule: 'zip of another state', fields: { state: 'RJ' }, pdf: true, refused: 'não pertence ao estado RJ' },
	{ rule: 'zip of Brasília (DF)', fields: { zip: '70040-010', city: 'Brasília', state: 'DF' }, pdf: true, order: { state: 'DF' } },
	{ rule: 'zip of Boa Vista (RR)', fields: { zip: '69301-000', city: 'Boa Vista', state: 'RR' }, pdf: true, order: { state: 'RR' } },
	{ rule: 'state written out for Brazil', fields: { state: 'São Paulo' }, pdf: true, refused: 'sigla de 2 letras' },
	{ rule: 'sender zip of another state', fields: { addr1_sender: 'Rua', city_sender: 'Curitiba', state_sender: 'PR', zip_sender: '01310-200' }, pdf: true, refused: 'zip_sender' },
	{ rule: 'foreign address left alone', fields: { country: 'Portugal', zip: '1000-001', state: 'Lisboa', city: 'Lisboa' }, pdf: true, order: { country: 'Portugal' } },
	{ rule: 'telegram: its four fields, no PDF', fields: telegram(), order: { shipType: 4, pdf_available: false, telegram_info: { sender_copy: 1 } } },
	{ rule: 'telegram missing two fields', fields: telegram({ telegram_sender_copy: undefined, telegram_msg: undefined }), refused: 'telegram_msg, telegram_sender_copy' },
	{ rule: 'telegram_msg under 10 characters', fields: telegram({ telegram_msg: 'curta' }), refused: 'telegram_msg: mínimo de 10 caracteres' },
	{ rule: 'telegram over 10 rendered pages', fields: telegram({ telegram_msg: 'x'.repeat(30_001) }), refused: 'telegram_msg: o conteúdo excede 10 páginas' },
	{ rule: 'post-dated telegram without its date', fields: telegram({ telegram_post_dated: '1' }), refused: 'telegram_post_dated_date' },
	{ rule: 'post-dated telegram for today', fields: telegram({ telegram_post_dated: '1', telegram_post_dated_date: tomorrow(0) }), refused: 'amanhã ou posterior' },
	{ rule: 'post-dated telegram on 30 February', fields: telegram({ telegram_post_dated: '1', telegram_post_dated_date: '2030-02-30' }), refused: 'data inválida' },
	{ rule: 'post-dated telegram for tomorrow', fields: telegram({ telegram_post_dated: '1', telegram_post_dated_date: tomorrow(1) }), order: { telegram_info: { post_dated: 1, post_dated_date: tomorrow(1) } } },
	{ rule: 'electronic letter over 10 rendered pages', fields: { shipType: '8', ecarta_msg: 'x'.repeat(30_001) }, refused: 'ecarta_msg: o conteúdo excede 10 páginas' },
	{ rule: 'electronic letter at 10 pages, tags not counted', fields: { shipType: '8', ecarta_msg: `<p>${'x'.repeat(29_990)}</p>` }, order: { shipType: 8 } },
	{ rule: 'electronic letter without ecarta_msg', fields: { shipType: '9' }, refused: 'ecarta_msg' },
	{ rule: 'ecarta_msg under 10 characters', fields: { shipType: '9', ecarta_msg: '<b>oi</b>' }, refused: 'ecarta_msg: mínimo de 10 caracteres' },
	{ rule: 'ecarta_msg in HTML', fields: { shipType: '10', ecarta_msg: '<p>Prezada Ana, segue a notificação.</p>' }, order: { shipType: 10 } },
];

describe('Endpoints › POST /api/v2/post › the create-order rules', () => {
	it.each(RULES)('$rule', async ({ fields, pdf, refused: words, order }) => {
		const file = pdf ? await pdfWithPages(pdf === true ? 1 : pdf) : undefined;
		if (words !== undefined) await refused(letter(fields), file, words);
		else expect(await created(letter(fields), file)).toMatchObject(order ?? {});
	});

	it('virtual box: the sender address becomes the unit, at virtual-box prices', async () => {
		const pdf = await pdfWithPages(1);
		const order = await created(letter({ shipType: '2', virtualbox: '1', name_sender: 'Empresa X', addr1_sender: 'Rua Y', city_sender: 'Recife', state_sender: 'PE', zip_sender: '50050-000' }), pdf);
		expect(order).toMatchObject({ name_sender: 'Empresa X', addr1_sender: 'Rua da Consolação', city_sender: 'São Paulo', state_sender: 'SP', virtualbox: true });
		const plain = await created(letter({ shipType: '2' }), pdf);
		expect(order.shipping_cost as number).toBeLessThan(plain.shipping_cost as number);
	});

	it('answers 403 for use_client_contract when the account has no contract of its own', async () => {
		ctx.sandbox.control.setClientContract(false);
		const answer = await createOrder(ctx.base, letter({ shipType: '2', use_client_contract: '1' }), await pdfWithPages(1));
		expect(answer.status).toBe(403);
		expect(answer.body).toMatchObject({ status: 403, data: null, status_message: expect.stringContaining('use_client_contract') });
	});
});
