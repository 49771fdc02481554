import type { IDataObject, ILoadOptionsFunctions, INodeListSearchItems, INodeListSearchResult } from 'n8n-workflow';

import { ASSUMED } from '../contract/assumptions';
import { fetchSenders, fetchTemplates, selectedId } from './chat';

/** Why a template that is not approved cannot be sent, shown next to its name in the list. */
const NOT_SENDABLE: Record<string, string> = {
	pending: 'pending: not approved yet',
	rejected: 'rejected: cannot be sent',
	paused: 'paused: cannot be sent until resumed',
	disabled: 'disabled: cannot be sent',
};

function matches(filter: string | undefined, ...texts: unknown[]): boolean {
	if (!filter) return true;
	const needle = filter.toLowerCase();
	return texts.some((text) => text !== undefined && text !== null && String(text).toLowerCase().includes(needle));
}

export async function searchSenders(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	const f = ASSUMED.chatSenderFields;
	const results = (await fetchSenders(this))
		.filter((sender) => matches(filter, sender[f.name], sender[f.phone], sender[f.id]))
		.map((sender) => ({
			name: [sender[f.name], sender[f.phone]].filter(Boolean).join(' · ') || String(sender[f.id]),
			value: String(sender[f.id]),
		}));
	return { results };
}

function templateItem(template: IDataObject): INodeListSearchItems {
	const name = String(template.display_name || template.name);
	const status = String(template.status ?? '');
	const why = status === 'approved' ? undefined : (NOT_SENDABLE[status] ?? `${status}: cannot be sent`);
	return { name: why ? `${name} (${why})` : name, value: String(template.id) };
}

/** Templates of the chosen sender, approved first: the others are listed so the user sees why they are missing. */
export async function searchTemplates(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	const senderId = selectedId(this, 'senderId');
	const templates = (await fetchTemplates(this))
		.filter((t) => !senderId || String(t.sender_id) === senderId)
		.filter((t) => matches(filter, t.display_name, t.name, t.id));
	const approved = templates.filter((t) => t.status === 'approved');
	const others = templates.filter((t) => t.status !== 'approved');
	return { results: [...approved, ...others].map(templateItem) };
}
