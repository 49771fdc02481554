/** POST /api/v2/post: the orders written as a message instead of a PDF, telegrams and electronic letters. */
import { describe, expect, it } from 'vitest';

import { letter, orderOutcomes, tomorrow, useSandbox } from './support';

const { created, refused } = orderOutcomes(useSandbox());

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
