/** CEP ranges per state (first five digits, inclusive), so an obvious state and postal code mismatch is refused before a request. */
export const CEP_RANGES: Record<string, Array<[number, number]>> = {
	SP: [[1000, 19999]],
	RJ: [[20000, 28999]],
	ES: [[29000, 29999]],
	MG: [[30000, 39999]],
	BA: [[40000, 48999]],
	SE: [[49000, 49999]],
	PE: [[50000, 56999]],
	AL: [[57000, 57999]],
	PB: [[58000, 58999]],
	RN: [[59000, 59999]],
	CE: [[60000, 63999]],
	PI: [[64000, 64999]],
	MA: [[65000, 65999]],
	PA: [[66000, 68899]],
	AP: [[68900, 68999]],
	AM: [[69000, 69299], [69400, 69899]],
	RR: [[69300, 69399]],
	AC: [[69900, 69999]],
	DF: [[70000, 72799], [73000, 73699]],
	GO: [[72800, 72999], [73700, 76799]],
	RO: [[76800, 76999]],
	TO: [[77000, 77999]],
	MT: [[78000, 78899]],
	MS: [[79000, 79999]],
	PR: [[80000, 87999]],
	SC: [[88000, 89999]],
	RS: [[90000, 99999]],
};

export const BRAZILIAN_STATES = Object.keys(CEP_RANGES).sort();

/** Digits of a CEP written as `01310-100`, `01310100` or `01.310-100`. */
export function normalizeCep(zip: string): string {
	return zip.replace(/[\s.-]/g, '');
}

export function isCepFormat(zip: string): boolean {
	return /^\d{8}$/.test(normalizeCep(zip));
}

/** The state a CEP belongs to, or undefined when no range holds it. */
export function stateOfCep(zip: string): string | undefined {
	const prefix = Number(normalizeCep(zip).slice(0, 5));
	for (const [state, ranges] of Object.entries(CEP_RANGES)) {
		if (ranges.some(([from, to]) => prefix >= from && prefix <= to)) return state;
	}
	return undefined;
}

const BRAZIL_NAMES = new Set(['br', 'bra', 'brasil', 'brazil']);

/** Whether an address is Brazilian: the country says so, or is left empty (the service is Brazilian). */
export function isBrazil(country: string | undefined): boolean {
	const value = (country ?? '').trim().toLowerCase();
	return value === '' || BRAZIL_NAMES.has(value);
}

/** A Brazilian address's postal code and state (recipient, or sender with `_sender`), checked together. */
export function checkAddress(
	fields: Record<string, string>,
	suffix: '' | '_sender',
	problems: Array<{ field: string; message: string }>,
): void {
	const zipField = `zip${suffix}`;
	const stateField = `state${suffix}`;
	const zip = fields[zipField];
	const state = fields[stateField];
	if (!isBrazil(fields[`country${suffix}`])) return;
	if (zip && !isCepFormat(zip)) {
		problems.push({ field: zipField, message: `"${zipField}" must be a Brazilian postal code of 8 digits (like 01310-100); got "${zip}"` });
		return;
	}
	if (state) {
		const code = state.trim().toUpperCase();
		if (!BRAZILIAN_STATES.includes(code)) {
			problems.push({ field: stateField, message: `"${stateField}" must be the 2-letter code of a Brazilian state (${BRAZILIAN_STATES.join(', ')}); got "${state}"` });
			return;
		}
		const expected = zip ? stateOfCep(zip) : undefined;
		if (expected && expected !== code) {
			problems.push({ field: stateField, message: `"${stateField}" is ${code} but postal code ${zip} belongs to ${expected}` });
		}
	}
}
