/** A valid Brazilian address the sandbox and the tests agree on (its zip lies in its state). */
export const SAMPLE_RECIPIENT = {
	name: 'Maria da Silva',
	addr1: 'Avenida Paulista',
	street_number: '1578',
	zip: '01310-200',
	city: 'São Paulo',
	state: 'SP',
	country: 'Brasil',
};
