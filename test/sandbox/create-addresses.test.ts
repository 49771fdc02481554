/**
 * POST /api/v2/post: the address rules (express parcels from São Paulo, the virtual box's sender,
 * Brazilian zip and state).
 */
import { describe, expect, it } from 'vitest';

import { letter, orderOutcomes, pdfWithPages, useSandbox } from './support';

const { created, refused } = orderOutcomes(useSandbox());

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
