/** What the operations do alike at run time: read parameters, refuse bad items, shape output. */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ValidationProblem } from '../contract/order';
import { fieldNamesOf } from './fieldNames';

/**
 * Names an extra can never set, whatever the operation: the token and where it travels belong to
 * the credential and the transport (the service also reads `userSecurityToken` from the query of
 * every route that takes the header forms).
 */
const TRANSPORT_OWNED: Record<string, string> = {
	usersecuritytoken: 'the node places the security token itself, from the credential, where each route wants it',
	securitytoken: 'the node places the security token itself, from the credential, where each route wants it',
	authorization: 'the node sends the credentials itself (security token or HTTP Basic)',
};

/** Names an operation owns besides the transport's, with why (see `readExtraParameters`). */
type OwnedNames = Record<string, string>;

export function readExtraParameters(ctx: IExecuteFunctions, itemIndex: number, owned: OwnedNames = {}): Record<string, string> {
	const raw = ctx.getNodeParameter('options.extraParameters.parameter', itemIndex, []) as Array<{ name?: string; value?: unknown }>;
	const result: Record<string, string> = {};
	for (const { name, value } of raw) {
		const key = name === undefined || name === null ? '' : String(name).trim();
		if (!key) continue;
		const reason = TRANSPORT_OWNED[key.toLowerCase()] ?? owned[key.toLowerCase()];
		if (reason) {
			// Refused rather than dropped: a silently ignored parameter would send something else than asked.
			throw invalidItem(ctx, itemIndex, [{ field: key, message: `Extra Parameters: "${key}" cannot be set here; ${reason}` }]);
		}
		result[key] = value === undefined || value === null ? '' : String(value);
	}
	return result;
}

/** The error for an item that breaks the contract: no request is made for it. */
export function invalidItem(ctx: IExecuteFunctions, itemIndex: number, problems: ValidationProblem[]): NodeOperationError {
	const fields = [...new Set(problems.map((p) => p.field))];
	const labels = fieldNamesOf(ctx.getNodeParameter('resource', itemIndex, ''), ctx.getNodeParameter('operation', itemIndex, ''));
	// Only the message reaches an AI agent: it names the field as the node shows it and says nothing left.
	const messages = problems.map(({ field, message }) =>
		labels[field] ? message.replace(`"${field}"`, `"${labels[field]}" (${field})`) : message,
	);
	return new NodeOperationError(
		ctx.getNode(),
		`Item ${itemIndex}: ${messages.join('; ')}. Nothing was sent.`,
		{
			itemIndex,
			description: `Nothing was sent to the service for this item. Fix ${fields.map((f) => `"${f}"`).join(', ')} and run again.`,
		},
	);
}

export function requireText(
	ctx: IExecuteFunctions,
	itemIndex: number,
	value: unknown,
	field: string,
	pattern?: { test: RegExp; hint: string },
): string {
	const text = value === undefined || value === null ? '' : String(value).trim();
	if (!text) throw invalidItem(ctx, itemIndex, [{ field, message: `"${field}" is required and is empty` }]);
	if (pattern && !pattern.test.test(text)) {
		throw invalidItem(ctx, itemIndex, [{ field, message: `"${field}" ${pattern.hint}; got "${text}"` }]);
	}
	return text;
}

export function withItem(json: IDataObject, itemIndex: number): INodeExecutionData {
	return { json, pairedItem: { item: itemIndex } };
}

export function asObject(data: unknown): IDataObject {
	if (data && typeof data === 'object' && !Array.isArray(data)) return data as IDataObject;
	return { data: data as IDataObject[string] };
}

/**
 * A read's record as Simplify asks: with it on (the default) only the kept fields, in their order
 * and where present; off, the record as the service sent it (plus what the node adds, like statusText).
 */
export function simplify(ctx: IExecuteFunctions, itemIndex: number, record: IDataObject, keptFields: readonly string[]): IDataObject {
	if (!ctx.getNodeParameter('simplify', itemIndex, true)) return record;
	const simple: IDataObject = {};
	for (const field of keptFields) if (record[field] !== undefined) simple[field] = record[field];
	return simple;
}

/** Picks the returned entries of a list operation according to Return All / Limit. */
export function limitList<T>(ctx: IExecuteFunctions, itemIndex: number, list: T[]): T[] {
	const returnAll = ctx.getNodeParameter('returnAll', itemIndex, false) as boolean;
	if (returnAll) return list;
	const limit = ctx.getNodeParameter('limit', itemIndex, 50) as number;
	return list.slice(0, limit);
}

/** MIME type of a downloaded file, from its name (the service sends base64 without a type). */
export function mimeTypeOf(fileName: string): string {
	const ext = fileName.toLowerCase().split('.').pop() ?? '';
	const types: Record<string, string> = {
		pdf: 'application/pdf',
		png: 'image/png',
		jpg: 'image/jpeg',
		jpeg: 'image/jpeg',
		gif: 'image/gif',
		svg: 'image/svg+xml',
		html: 'text/html',
		txt: 'text/plain',
		xml: 'application/xml',
		zip: 'application/zip',
	};
	return types[ext] ?? 'application/pdf';
}
