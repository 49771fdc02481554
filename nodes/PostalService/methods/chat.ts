import type { IDataObject, ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { ASSUMED } from '../contract/assumptions';
import { ANSWERS } from '../contract/wire';
import type { ServiceContext } from '../transport';
import { serviceRequest } from '../transport';

/** A list answer, whether the list is `data` itself or the one array inside `data`. */
export function listOf(data: unknown): IDataObject[] {
	if (Array.isArray(data)) return data as IDataObject[];
	if (data && typeof data === 'object') {
		const arrays = Object.values(data as IDataObject).filter(Array.isArray);
		if (arrays.length === 1) return arrays[0] as IDataObject[];
	}
	return [];
}

export async function fetchSenders(ctx: ServiceContext, itemIndex = 0, qs: IDataObject = {}): Promise<IDataObject[]> {
	const { data } = await serviceRequest(
		ctx,
		{ method: 'GET', path: '/api/chat/v1/senders/get', auth: 'basic', envelope: 'auto', answer: ANSWERS.senders, idempotent: true, qs },
		itemIndex,
	);
	return listOf(data);
}

export async function fetchTemplates(ctx: ServiceContext, itemIndex = 0, qs: IDataObject = {}): Promise<IDataObject[]> {
	const { data } = await serviceRequest(
		ctx,
		{ method: 'GET', path: '/api/chat/v1/templates/get', auth: 'basic', envelope: 'B', answer: ANSWERS.templates, idempotent: true, qs },
		itemIndex,
	);
	return listOf(data);
}

function currentParameter(ctx: ILoadOptionsFunctions, name: string): unknown {
	try {
		return ctx.getCurrentNodeParameter(name);
	} catch {
		return undefined;
	}
}

export async function getSenders(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const f = ASSUMED.chatSenderFields;
	return (await fetchSenders(this)).map((sender) => ({
		name: [sender[f.name], sender[f.phone]].filter(Boolean).join(' · ') || String(sender[f.id]),
		value: sender[f.id] as number,
	}));
}

export async function getTemplates(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const senderId = currentParameter(this, 'senderId');
	const templates = await fetchTemplates(this, 0, { [ASSUMED.templatesQuery.status]: 'approved' });
	return templates
		.filter((t) => !senderId || String(senderId).startsWith('=') || String(t.sender_id) === String(senderId))
		.map((t) => ({
			name: String(t.display_name || t.name),
			value: t.id as number,
			description: [t.language, t.category, `${t.variables_count ?? 0} variables`].filter(Boolean).join(' · '),
		}));
}

export async function getTemplateVariables(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const templateId = currentParameter(this, 'templateId');
	if (templateId === undefined || templateId === '') return [];
	const template = (await fetchTemplates(this)).find((t) => String(t.id) === String(templateId));
	const names = Array.isArray(template?.variable_names) ? (template.variable_names as string[]) : [];
	return names.map((name) => ({ name, value: name }));
}
