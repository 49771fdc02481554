import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { ASSUMED } from '../../contract/assumptions';
import { forOperation } from '../descriptions';
import { ItemCheck, withItem } from '../item';
import type { ItemInput, WriteWork } from '../types';

export const writes = true;

export const option = {
	name: 'Update',
	value: 'update',
	description: 'Change some fields of a saved contact; the others keep their value',
	action: 'Update saved contact',
};

/** Each field of a contact as the panel shows it, and what a text field holds (for the editor and an agent); the lists are flags. */
const FIELDS: Record<string, [label: string, help?: string]> = {
	label: ['Label', 'A short label for the contact (like Supplier)'],
	email: ['E-Mail', 'E-mail address of the contact (like maria@example.com)'],
	phone: ['Phone', 'Phone number with country and area code (like +5511987654321)'],
	document: ['Document', 'Tax ID of the contact, digits only (CPF of 11 digits or CNPJ of 14)'],
	addr1: ['Street', 'Street without the number (like Avenida Paulista)'],
	street_number: ['Number', 'Number of the building in the street (like 1578)'],
	addr2: ['Complement', 'Apartment, suite, district'],
	zip: ['Postal Code', 'Postal code; for Brazil the CEP: 8 digits, written NNNNN-NNN or NNNNNNNN (like 01310-100)'],
	city: ['City', 'City of the contact (like São Paulo)'],
	state: ['State', 'For Brazil the 2-letter state code (like SP)'],
	country: ['Country', 'Country of the contact (like Brasil)'],
	list_letter: ['In Letter List'],
	list_email: ['In E-Mail List'],
	list_whatsapp: ['In Chat List'],
};
const isFlag = (field: string) => Object.hasOwn(FIELDS, field) && FIELDS[field][1] === undefined;
const LABELS = Object.fromEntries(Object.entries(FIELDS).map(([field, [label]]) => [field, label]));

const properties: INodeProperties[] = [
	{
		displayName: 'Contact ID',
		name: 'contactId',
		type: 'string',
		required: true,
		default: '',
		placeholder: '1',
		description: 'Numeric ID of the saved contact to change, digits only (like 1)',
	},
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		description: 'Only the fields added here are sent; the others keep their value',
		options: [
			{ displayName: 'Name', name: 'name', type: 'string', default: '', description: 'Name of the contact; it cannot be empty' },
			...ASSUMED.favoriteFields.map((field) =>
				isFlag(field)
					? {
							displayName: LABELS[field],
							name: field,
							type: 'boolean' as const,
							default: false,
							description: `Whether the contact is in the account's ${LABELS[field].replace('In ', '').replace(' List', '').toLowerCase()} list (${field})`,
						}
					: { displayName: LABELS[field], name: field, type: 'string' as const, default: '', description: FIELDS[field][1] },
			),
		],
	},
	{
		displayName: 'Fields to Clear',
		name: 'fieldsToClear',
		type: 'multiOptions',
		default: [],
		description: 'Fields to empty on the contact. The name cannot be cleared.',
		options: ASSUMED.favoriteFields.map((field) => ({ name: LABELS[field], value: field })),
	},
];

export const description = forOperation('savedContact', 'update', properties);

export function prepare(this: IExecuteFunctions, itemIndex: number, input: ItemInput): WriteWork {
	const check = new ItemCheck(this, itemIndex, { id: 'Contact ID', name: 'Name', ...LABELS, updateFields: 'Update Fields' });
	const updates = this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject;
	const toClear = this.getNodeParameter('fieldsToClear', itemIndex, []) as string[];
	const body: IDataObject = { id: this.getNodeParameter('contactId', itemIndex, '') as string };
	for (const [field, value] of Object.entries(updates)) {
		body[field] = isFlag(field) ? (value ? 1 : 0) : value === undefined || value === null ? '' : String(value);
	}
	for (const field of toClear) {
		if (field === 'name') throw check.invalid({ field: 'name', message: '"name" cannot be cleared; the service requires a name' });
		if (field in updates) throw check.invalid({ field, message: `"${field}" is both set and cleared; choose one` });
		body[field] = '';
	}
	// What is checked is what will be sent: the extras are merged first.
	Object.assign(body, check.extraParameters(input));
	body.id = Number(check.text(body.id, 'id', { test: /^[1-9]\d*$/, hint: 'must be a positive whole number' }));
	if ('name' in body && !String(body.name).trim()) throw check.invalid({ field: 'name', message: '"name", when sent, cannot be empty' });
	if (Object.keys(body).length === 1) throw check.invalid({ field: 'updateFields', message: 'nothing to update: add a field to change or to clear' });
	return {
		send: async (call) => {
			const { data } = await call('updateSavedContact', { body, verify: `look at saved contact ${String(body.id)} in the account panel` });
			return [withItem((data as IDataObject).favorite as IDataObject, itemIndex)];
		},
	};
}
