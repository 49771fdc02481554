import type { IDataObject, ILoadOptionsFunctions } from 'n8n-workflow';

import { callServiceOnce } from '../transport';

export async function fetchSenders(ctx: ILoadOptionsFunctions): Promise<IDataObject[]> {
	return (await callServiceOnce(ctx, 'getChatSenders', {})).data as IDataObject[];
}

export async function fetchTemplates(ctx: ILoadOptionsFunctions): Promise<IDataObject[]> {
	return (await callServiceOnce(ctx, 'getChatTemplates', {})).data as IDataObject[];
}

function currentParameter(ctx: ILoadOptionsFunctions, name: string): unknown {
	try {
		return ctx.getCurrentNodeParameter(name, { extractValue: true });
	} catch {
		return undefined;
	}
}

/** The ID chosen in a locator; undefined while it is empty or an expression the editor cannot resolve. */
export function selectedId(ctx: ILoadOptionsFunctions, name: string): string | undefined {
	const value = currentParameter(ctx, name);
	const id = value && typeof value === 'object' ? (value as IDataObject).value : value;
	if (id === undefined || id === null || id === '') return undefined;
	const text = String(id);
	return text.startsWith('=') ? undefined : text;
}
