import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { PRICE_TABLE } from '../../sandbox';
import {
	call,
	createOrder,
	createOrderForm,
	encryptedPdf,
	letter,
	pdfWithPages,
	tomorrow,
	TOKEN,
	useSandbox,
} from './support';

const ctx = useSandbox();

async function created(fields: Record<string, string>, pdf?: Buffer) {
	const answer = await createOrder(ctx.base, fields, pdf);
	expect(answer.body, JSON.stringify(answer.body)).toMatchObject({ status: 200, status_message: 'Sucesso - pedido aceito' });
	return ctx.sandbox.control.order(answer.body.data)!;
}

async function refused(fields: Record<string, string>, pdf: Buffer | undefined, message: RegExp | string) {
	const answer = await createOrder(ctx.base, fields, pdf);
	expect(answer.status).toBe(400);
	expect(answer.body).toMatchObject({ status: 400, data: null });
	if (typeof message === 'string') expect(answer.body.status_message).toContain(message);
	else expect(answer.body.status_message).toMatch(message);
	return answer;
}

describe('Endpoints › POST /api/v2/post › responses', () => {
	it('accepts a multipart order and answers a string of digits with the fixed message', async () => {
		const answer = await createOrder(ctx.base, letter(), await pdfWithPages(1));
		expect(answer.status).toBe(200);
		expect(answer.body).toEqual({ status: 200, status_message: 'Sucesso - pedido aceito', data: expect.stringMatching(/^\d+$/) });
	});

	it('accepts application/x-www-form-urlencoded with the PDF in base64', async () => {
		const pdf = await pdfWithPages(3);
		const answer = await createOrderForm(ctx.base, letter({ pdfFile: pdf.toString('base64') }));
		expect(answer.body.status_message).toBe('Sucesso - pedido aceito');
		expect(ctx.sandbox.control.order(answer.body.data)).toMatchObject({ numPages: 3, pdf_available: true });
	});

	it('refuses other content types with 400', async () => {
		const answer = await call(`${ctx.base}/api/v2/post`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(letter()),
		});
		expect(answer.status).toBe(400);
		expect(answer.body.status_message).toMatch(/^Requisição incompleta/);
	});

	it('answers 401 Token inválido for a wrong or missing userSecurityToken (form field or query)', async () => {
		const pdf = await pdfWithPages(1);
		const wrong = await createOrder(ctx.base, letter({ userSecurityToken: 'nope' }), pdf);
		expect(wrong.status).toBe(401);
		expect(wrong.body).toEqual({ status: 401, status_message: 'Token inválido', data: null });
		const missing = await createOrder(ctx.base, letter({ userSecurityToken: undefined }), pdf);
		expect(missing.status).toBe(401);
		const form = new FormData();
		for (const [k, v] of Object.entries(letter({ userSecurityToken: undefined, test: '1' }))) form.append(k, v);
		form.append('pdfFile', pdf.toString('base64'));
		const byQuery = await call(`${ctx.base}/api/v2/post?userSecurityToken=${TOKEN}`, { method: 'POST', body: form });
		expect(byQuery.status).toBe(200);
	});
});

describe('Endpoints › POST /api/v2/post › rule 8 test=1', () => {
	it('validates, returns {value} and creates nothing', async () => {
		const balance = ctx.sandbox.control.balance();
		const answer = await createOrder(ctx.base, letter({ test: '1' }), await pdfWithPages(1));
		expect(answer.status).toBe(200);
		expect(answer.body.data).toEqual({ value: expect.any(Number) });
		expect(answer.body.status_message).toMatch(/válidos/);
		expect(ctx.sandbox.control.orders()).toHaveLength(0);
		expect(ctx.sandbox.control.balance()).toBe(balance);
	});

	it('still refuses invalid data', async () => {
		await refused(letter({ test: '1', zip: '123' }), await pdfWithPages(1), 'zip');
	});

	it('prices with the sandbox table: shipping plus sheets', async () => {
		const answer = await createOrder(ctx.base, letter({ test: '1', duplex_printing: '0' }), await pdfWithPages(3));
		const expected = PRICE_TABLE.shipping[1] + PRICE_TABLE.firstSheet + 2 * PRICE_TABLE.extraSheet;
		expect(answer.body.data.value).toBeCloseTo(expected, 2);
	});
});

describe('Endpoints › POST /api/v2/post › field table', () => {
	it('names every missing required field', async () => {
		await refused(
			letter({ name: undefined, zip: undefined, country: undefined }),
			await pdfWithPages(1),
			'Requisição incompleta - campos obrigatórios não preenchidos: name, zip, country',
		);
		await refused(letter({ shipType: undefined }), await pdfWithPages(1), 'shipType');
	});

	it.each([
		['name', 60],
		['addr1', 60],
		['street_number', 15],
		['addr2', 40],
		['city', 40],
		['country', 60],
		['name_sender', 60],
		['addr1_sender', 60],
		['street_number_sender', 15],
		['addr2_sender', 40],
		['city_sender', 40],
		['state_sender', 40],
		['country_sender', 60],
	])('limits %s to %i characters', async (field, max) => {
		const pdf = await pdfWithPages(1);
		// A foreign sender keeps the zip rule out of the way of the sender fields.
		const base = field.endsWith('_sender') ? { country_sender: 'Portugal' } : {};
		const ok = await createOrder(ctx.base, letter({ ...base, test: '1', [field]: 'x'.repeat(max) }), pdf);
		expect(ok.status, JSON.stringify(ok.body)).toBe(200);
		await refused(letter({ ...base, [field]: 'x'.repeat(max + 1) }), pdf, `${field}: máximo de ${max} caracteres`);
	});

	it('limits state to 40 characters', async () => {
		await refused(letter({ country: 'Portugal', state: 'x'.repeat(41) }), await pdfWithPages(1), 'state: máximo de 40');
	});

	it.each([
		['shipType', '11'],
		['paymentMethod', 'cash'],
		['ar_type', 'digital'],
		['virtualbox', 'yes'],
		['toAddrOnly', '2'],
		['test', '2'],
		['duplex_printing', 'maybe'],
		['envelope_type', 'window'],
		['use_client_contract', 'true'],
	])('refuses %s=%s outside its enumeration', async (field, value) => {
		await refused(letter({ [field]: value }), await pdfWithPages(1), field);
	});

	it('requires team_member_id when paymentMethod=team', async () => {
		await refused(letter({ paymentMethod: 'team' }), await pdfWithPages(1), 'team_member_id');
		const order = await created(letter({ paymentMethod: 'team', team_member_id: '7' }), await pdfWithPages(1));
		expect(order).toMatchObject({ paymentMethod: 'team', team_member_id: 7, status: 0 });
	});

	it('requires pdfFile for shipType 1, 2, 3, 5, 6, 7', async () => {
		for (const shipType of ['1', '2', '3', '5', '6', '7']) {
			await refused(letter({ shipType, virtualbox: '1' }), undefined, 'pdfFile');
		}
	});
});

describe('Endpoints › POST /api/v2/post › rule 1 express parcels', () => {
	it('refuses shipType 6 and 7 with a sender outside São Paulo and no virtual box', async () => {
		const pdf = await pdfWithPages(1);
		await refused(letter({ shipType: '6' }), pdf, 'virtualbox=1');
		await refused(
			letter({ shipType: '7', addr1_sender: 'Rua X', city_sender: 'Rio de Janeiro', state_sender: 'RJ', zip_sender: '20040-030' }),
			pdf,
			'São Paulo/SP',
		);
	});

	it('accepts them with virtualbox=1 or true, or a sender in São Paulo', async () => {
		const pdf = await pdfWithPages(1);
		await created(letter({ shipType: '6', virtualbox: '1' }), pdf);
		await created(letter({ shipType: '7', virtualbox: 'true' }), pdf);
		await created(
			letter({ shipType: '6', addr1_sender: 'Rua Augusta', street_number_sender: '10', city_sender: 'sao paulo', state_sender: 'SP', zip_sender: '01305-000' }),
			pdf,
		);
	});
});

describe('Endpoints › POST /api/v2/post › rule 2 virtual box', () => {
	it('replaces the sender address with the unit and applies virtual-box pricing', async () => {
		const pdf = await pdfWithPages(1);
		const order = await created(
			letter({ shipType: '2', virtualbox: '1', name_sender: 'Empresa X', addr1_sender: 'Rua Y', city_sender: 'Recife', state_sender: 'PE', zip_sender: '50050-000' }),
			pdf,
		);
		expect(order).toMatchObject({ name_sender: 'Empresa X', addr1_sender: 'Rua da Consolação', city_sender: 'São Paulo', state_sender: 'SP', virtualbox: true });
		const plain = await created(letter({ shipType: '2' }), pdf);
		expect(order.shipping_cost as number).toBeLessThan(plain.shipping_cost as number);
	});

	it('uses the account profile when the sender is omitted', async () => {
		const order = await created(letter(), await pdfWithPages(1));
		expect(order).toMatchObject({ city_sender: 'Campinas', state_sender: 'SP' });
	});
});

describe('Endpoints › POST /api/v2/post › rule 3 Brazilian zip and state', () => {
	it('requires 8 digits', async () => {
		await refused(letter({ zip: '0131020' }), await pdfWithPages(1), 'zip: o CEP deve ter 8 dígitos');
		await created(letter({ zip: '01310200' }), await pdfWithPages(1));
	});

	it('checks the zip against the state', async () => {
		await refused(letter({ state: 'RJ' }), await pdfWithPages(1), 'não pertence ao estado RJ');
		await created(letter({ zip: '70040-010', city: 'Brasília', state: 'DF' }), await pdfWithPages(1));
		await created(letter({ zip: '69301-000', city: 'Boa Vista', state: 'RR' }), await pdfWithPages(1));
	});

	it('wants the 2-letter state code for Brazil', async () => {
		await refused(letter({ state: 'São Paulo' }), await pdfWithPages(1), 'sigla de 2 letras');
	});

	it('checks the sender zip too, and leaves foreign addresses alone', async () => {
		await refused(letter({ addr1_sender: 'Rua', city_sender: 'Curitiba', state_sender: 'PR', zip_sender: '01310-200' }), await pdfWithPages(1), 'zip_sender');
		await created(letter({ country: 'Portugal', zip: '1000-001', state: 'Lisboa', city: 'Lisboa' }), await pdfWithPages(1));
	});
});

describe('Endpoints › POST /api/v2/post › rule 4 pdfFile', () => {
	let server: ReturnType<typeof createServer>;
	let local = '';
	beforeAll(async () => {
		const three = await pdfWithPages(3);
		server = createServer((req, res) => {
			if (req.url === '/doc.pdf') {
				res.writeHead(200, { 'content-type': 'application/pdf' });
				res.end(three);
			} else {
				res.writeHead(404);
				res.end();
			}
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		local = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	});
	afterAll(async () => {
		server.closeAllConnections();
		await new Promise((resolve) => server.close(resolve));
	});

	it('fetches a URL on a loopback host and reads its pages', async () => {
		const answer = await createOrderForm(ctx.base, letter({ pdfFile: `${local}/doc.pdf` }));
		expect(answer.body.status_message).toBe('Sucesso - pedido aceito');
		expect(ctx.sandbox.control.order(answer.body.data)).toMatchObject({ numPages: 3 });
		const missing = await createOrderForm(ctx.base, letter({ pdfFile: `${local}/missing.pdf` }));
		expect(missing.status).toBe(400);
		expect(missing.body.status_message).toContain('HTTP 404');
	});

	it('refuses a URL whose host is not loopback, without fetching it', async () => {
		const answer = await createOrderForm(ctx.base, letter({ pdfFile: 'https://docs.example.com/d/abc/export?format=pdf' }));
		expect(answer.status).toBe(400);
		expect(answer.body.status_message).toContain('pdfFile');
	});

	it('accepts 150 pages and refuses 151', async () => {
		const many = await PDFDocument.create();
		for (let i = 0; i < 150; i++) many.addPage([50, 50]);
		const ok = await createOrder(ctx.base, letter({ test: '1' }), Buffer.from(await many.save()));
		expect(ok.status).toBe(200);
		await refused(letter(), await pdfWithPages(151), 'máximo de 150 páginas');
	});

	it('refuses a password-protected PDF (trailer with /Encrypt, which pdf-lib refuses to load)', async () => {
		const encrypted = await encryptedPdf();
		expect(encrypted.toString('latin1')).toMatch(/\/Encrypt/);
		await expect(PDFDocument.load(encrypted)).rejects.toThrow(/encrypted/);
		await refused(letter(), encrypted, 'protegido por senha');
	});

	it('refuses something that is not a PDF, and bad base64', async () => {
		await refused(letter(), Buffer.from('hello, not a pdf'), 'não é um PDF válido');
		const answer = await createOrderForm(ctx.base, letter({ pdfFile: '***' }));
		expect(answer.status).toBe(400);
		expect(answer.body.status_message).toContain('base64');
	});

	it('takes a data: URL prefix on base64', async () => {
		const pdf = await pdfWithPages(1);
		const answer = await createOrderForm(ctx.base, letter({ pdfFile: `data:application/pdf;base64,${pdf.toString('base64')}` }));
		expect(answer.status).toBe(200);
	});
});

describe('Endpoints › POST /api/v2/post › rule 5 duplex forcing', () => {
	it('forces duplex_printing to 1 for a single-page PDF', async () => {
		const order = await created(letter({ duplex_printing: '0' }), await pdfWithPages(1));
		expect(order.duplex_printing).toBe(1);
	});

	it('keeps the requested duplex for several pages (0, 1, true, false)', async () => {
		const pdf = await pdfWithPages(3);
		expect((await created(letter({ duplex_printing: '0' }), pdf)).duplex_printing).toBe(0);
		expect((await created(letter({ duplex_printing: 'false' }), pdf)).duplex_printing).toBe(0);
		expect((await created(letter({ duplex_printing: 'true' }), pdf)).duplex_printing).toBe(1);
		expect((await created(letter(), pdf)).duplex_printing).toBe(1);
	});

	it('forces 0 for autoenvelope (the autoenvelope rule wins over the single-page one)', async () => {
		const order = await created(letter({ envelope_type: 'autoenvelope', duplex_printing: '1' }), await pdfWithPages(1));
		expect(order).toMatchObject({ duplex_printing: 0, envelope_type: 'autoenvelope' });
	});

	it('refuses autoenvelope with more than one page', async () => {
		await refused(letter({ envelope_type: 'autoenvelope' }), await pdfWithPages(3), 'autoenvelope exige um PDF de uma única página');
	});
});

describe('Endpoints › POST /api/v2/post › telegram (shipType 4)', () => {
	const telegram = (extra: Record<string, string | undefined> = {}) =>
		letter({
			shipType: '4',
			telegram_msg: 'Mensagem do telegrama.',
			telegram_post_dated: '0',
			telegram_sender_copy: '1',
			telegram_delivery_confirmation: '0',
			...extra,
		});

	it('needs its four fields and no PDF', async () => {
		const order = await created(telegram());
		expect(order).toMatchObject({ shipType: 4, pdf_available: false, telegram_info: { sender_copy: 1 } });
		await refused(telegram({ telegram_sender_copy: undefined, telegram_msg: undefined }), undefined, 'telegram_msg, telegram_sender_copy');
	});

	it('wants telegram_msg of at least 10 characters', async () => {
		await refused(telegram({ telegram_msg: 'curta' }), undefined, 'telegram_msg: mínimo de 10 caracteres');
	});

	it('limits the rendered content to 10 pages', async () => {
		await refused(telegram({ telegram_msg: 'x'.repeat(30_001) }), undefined, 'telegram_msg: o conteúdo excede 10 páginas');
	});

	it('post-dated: the date is required and must be tomorrow or later', async () => {
		await refused(telegram({ telegram_post_dated: '1' }), undefined, 'telegram_post_dated_date');
		await refused(telegram({ telegram_post_dated: '1', telegram_post_dated_date: tomorrow(0) }), undefined, 'amanhã ou posterior');
		await refused(telegram({ telegram_post_dated: '1', telegram_post_dated_date: '2030-02-30' }), undefined, 'data inválida');
		const order = await created(telegram({ telegram_post_dated: '1', telegram_post_dated_date: tomorrow(1) }));
		expect(order.telegram_info).toMatchObject({ post_dated: 1, post_dated_date: tomorrow(1) });
	});
});

describe('Endpoints › POST /api/v2/post › electronic letters (shipType 8, 9, 10)', () => {
	it('limit the rendered content to 10 pages (tags not counted)', async () => {
		await refused(letter({ shipType: '8', ecarta_msg: 'x'.repeat(30_001) }), undefined, 'ecarta_msg: o conteúdo excede 10 páginas');
		await created(letter({ shipType: '8', ecarta_msg: `<p>${'x'.repeat(29_990)}</p>` }));
	});

	it('need ecarta_msg of at least 10 characters, HTML allowed', async () => {
		await refused(letter({ shipType: '9' }), undefined, 'ecarta_msg');
		await refused(letter({ shipType: '9', ecarta_msg: '<b>oi</b>' }), undefined, 'ecarta_msg: mínimo de 10 caracteres');
		await created(letter({ shipType: '10', ecarta_msg: '<p>Prezada Ana, segue a notificação.</p>' }));
	});
});

describe('Endpoints › POST /api/v2/post › ar_type, toAddrOnly, use_client_contract', () => {
	it('allows ar_type=electronic only for shipType 3, 7 and 10', async () => {
		const pdf = await pdfWithPages(1);
		await refused(letter({ shipType: '2', ar_type: 'electronic' }), pdf, 'ar_type');
		expect((await created(letter({ shipType: '3', ar_type: 'electronic' }), pdf)).ar_type).toBe('electronic');
		await created(letter({ shipType: '7', ar_type: 'electronic', virtualbox: '1' }), pdf);
		await created(letter({ shipType: '10', ar_type: 'electronic', ecarta_msg: 'Mensagem eletrônica' }));
	});

	it('forces toAddrOnly to 0 outside shipType 2, 3, 6, 7, 10', async () => {
		const pdf = await pdfWithPages(1);
		expect((await created(letter({ shipType: '1', toAddrOnly: '1' }), pdf)).toAddrOnly).toBe(0);
		expect((await created(letter({ shipType: '5', toAddrOnly: '1' }), pdf)).toAddrOnly).toBe(0);
		expect((await created(letter({ shipType: '2', toAddrOnly: '1' }), pdf)).toAddrOnly).toBe(1);
	});

	it('allows use_client_contract only for shipType 2, 3, 4, 6, 7, 8, 9, 10', async () => {
		const pdf = await pdfWithPages(1);
		await refused(letter({ shipType: '1', use_client_contract: '1' }), pdf, 'use_client_contract');
		await refused(letter({ shipType: '5', use_client_contract: '1' }), pdf, 'use_client_contract');
		const order = await created(letter({ shipType: '2', use_client_contract: '1' }), pdf);
		expect(order).toMatchObject({ use_client_contract: true, shipping_cost: 0 });
	});

	it('answers 403 for use_client_contract when the account has no contract of its own', async () => {
		ctx.sandbox.control.setClientContract(false);
		const answer = await createOrder(ctx.base, letter({ shipType: '2', use_client_contract: '1' }), await pdfWithPages(1));
		expect(answer.status).toBe(403);
		expect(answer.body).toMatchObject({ status: 403, data: null, status_message: expect.stringContaining('use_client_contract') });
	});
});

describe('Resources › Order › price and balance', () => {
	it('takes the value from the balance when paid with service_credits', async () => {
		const before = ctx.sandbox.control.balance();
		const order = await created(letter(), await pdfWithPages(1));
		expect(order.status).toBe(0);
		expect(ctx.sandbox.control.balance()).toBeCloseTo(before - (order.value as number), 2);
	});

	it('gives status 2 (insufficient credits) when the balance cannot pay, and charges nothing', async () => {
		ctx.sandbox.control.setBalance(1);
		const order = await created(letter(), await pdfWithPages(1));
		expect(order.status).toBe(2);
		expect(ctx.sandbox.control.balance()).toBe(1);
	});

	it('leaves the balance alone for invoice', async () => {
		const before = ctx.sandbox.control.balance();
		await created(letter({ paymentMethod: 'invoice' }), await pdfWithPages(1));
		expect(ctx.sandbox.control.balance()).toBe(before);
	});
});
