/** What the operations do alike with one item: read its fields, refuse what is wrong, shape the output. */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ValidationProblem } from '../contract/order';
import { returnAllAndLimit } from './descriptions';
import type { ItemInput } from './types';

/** The errors an ItemCheck made: each raised before its item was sent, so the service certainly did nothing with it. */
const REFUSALS = new WeakSet<object>();

export const isRefusal = (error: unknown): boolean => typeof error === 'object' && error !== null && REFUSALS.has(error);

/** Names no extra may set: the token is the credential's, and the service reads `userSecurityToken` from the query of header-token routes too. */
const TRANSPORT_OWNED: Record<string, string> = {
	usersecuritytoken: 'the node places the security token itself, from the credential, where each route wants it',
	securitytoken: 'the node places the security token itself, from the credential, where each route wants it',
	authorization: 'the node sends the credentials itself (security token or HTTP Basic)',
};

/** The checks of one item, each naming the field as the panel shows it (`labels`: wire name → label) beside the wire name. */
export class ItemCheck {
	constructor(
		private readonly ctx: IExecuteFunctions,
		readonly itemIndex: number,
		private readonly labels: Record<string, string> = {},
	) {}

	/** The error for an item that breaks the contract: no request is made for it. */
	invalid(...problems: ValidationProblem[]): NodeOperationError {
		const named = (field: string) => (this.labels[field] ? `"${this.labels[field]}" (${field})` : `"${field}"`);
		// Only the message reaches an AI agent: it names the field as the node shows it and says nothing left.
		const messages = problems.map(({ field, message }) => message.replace(`"${field}"`, named(field)));
		const fields = [...new Set(problems.map((p) => named(p.field)))];
		return this.refuse(`${messages.join('; ')}. Nothing was sent.`, `Nothing was sent to the service for this item. Fix ${fields.join(', ')} and run again.`);
	}

	/** The error for an item the node will not send, for a reason other than a field: a run that stops lists it among the items not sent. */
	refuse(message: string, description: string): NodeOperationError {
		const error = new NodeOperationError(this.ctx.getNode(), message, { itemIndex: this.itemIndex, description });
		REFUSALS.add(error);
		return error;
	}

	/** A text the service needs: trimmed, present, and matching `pattern` when given. */
	text(value: unknown, field: string, pattern?: { test: RegExp; hint: string }): string {
		const text = value === undefined || value === null ? '' : String(value).trim();
		if (!text) throw this.invalid({ field, message: `"${field}" is required and is empty` });
		if (pattern && !pattern.test.test(text)) throw this.invalid({ field, message: `"${field}" ${pattern.hint}; got "${text}"` });
		return text;
	}

	/** Options > Extra Parameters as wire fields; a name the node sets itself (`owned`) is refused, as one silently dropped would send other than asked. */
	extraParameters(input: ItemInput, owned: Record<string, string> = {}): Record<string, string> {
		const result: Record<string, string> = {};
		for (const { name, value } of input.extraParameters) {
			const key = name === undefined || name === null ? '' : String(name).trim();
			if (!key) continue;
			const reason = TRANSPORT_OWNED[key.toLowerCase()] ?? owned[key.toLowerCase()];
			if (reason) throw this.invalid({ field: key, message: `Extra Parameters: "${key}" cannot be set here; ${reason}` });
			result[key] = value === undefined || value === null ? '' : String(value);
		}
		return result;
	}
}

export function withItem(json: IDataObject, itemIndex: number): INodeExecutionData {
	return { json, pairedItem: { item: itemIndex } };
}

export function asObject(data: unknown): IDataObject {
	if (data && typeof data === 'object' && !Array.isArray(data)) return data as IDataObject;
	return { data: data as IDataObject[string] };
}

/** A read's record as Simplify asks: only the kept fields, in their order, or the whole record. */
export function simplified(record: IDataObject, keptFields: readonly string[], simplify: boolean): IDataObject {
	if (!simplify) return record;
	const simple: IDataObject = {};
	for (const field of keptFields) if (record[field] !== undefined) simple[field] = record[field];
	return simple;
}

/** Return All and Limit of a list operation, read from the item. */
export function listLimit(ctx: IExecuteFunctions, itemIndex: number): number {
	return ctx.getNodeParameter('returnAll', itemIndex, false) ? Number.POSITIVE_INFINITY : (ctx.getNodeParameter('limit', itemIndex, returnAllAndLimit[1].default) as number);
}
