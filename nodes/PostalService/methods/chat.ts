import type { IDataObject, ILoadOptionsFunctions } from 'n8n-workflow';

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
		return ctx.getCurrentNodeParameter(name, { extractValue: true });
	} catch {
		return undefined;
	}
}

/**
 * The ID chosen in a locator, or
 * undefined while it is empty or still an expression the editor cannot resolve.
 */
export function selectedId(ctx: ILoadOptionsFunctions, name: string): string | undefined {
	const value = currentParameter(ctx, name);
	const id = value && typeof value === 'object' ? (value as IDataObject).value : value;
	if (id === undefined || id === null || id === '') return undefined;
	const text = String(id);
	return text.startsWith('=') ? undefined : text;
}
