/**
 * In n8n each `getNodeParameter` resolves the parameter's expressions and validates it against its
 * description; the router and the transport read the same few parameters for every item. A
 * parameter whose stored value holds no expression has one value for the whole run: it is read
 * once per run (an execute context is made for one run and dropped after it) and shared.
 */
import type { IExecuteFunctions, NodeParameterValueType } from 'n8n-workflow';

const readOnce = new WeakMap<IExecuteFunctions, Map<string, unknown>>();

function holdsExpression(value: unknown): boolean {
	if (typeof value === 'string') return value.startsWith('=');
	if (Array.isArray(value)) return value.some(holdsExpression);
	if (value !== null && typeof value === 'object') return Object.values(value).some(holdsExpression);
	return false;
}

function stored(ctx: IExecuteFunctions, name: string): unknown {
	let value: unknown = ctx.getNode().parameters;
	for (const key of name.split('.')) {
		if (value === null || typeof value !== 'object') return undefined;
		value = (value as Record<string, unknown>)[key];
	}
	return value;
}

/**
 * `getNodeParameter(name, itemIndex, fallback)`, read once per run when the parameter holds no
 * expression. An object it returns is shared by every item of the run: callers only read it.
 */
export function itemParameter<T>(ctx: IExecuteFunctions, name: string, itemIndex: number, fallback?: T): T {
	const read = () => (fallback === undefined ? ctx.getNodeParameter(name, itemIndex) : ctx.getNodeParameter(name, itemIndex, fallback as NodeParameterValueType)) as T;
	if (holdsExpression(stored(ctx, name))) return read();
	// The fallback is part of the key: a caller may read one parameter with two fallbacks.
	const key = fallback === undefined ? name : `${name}\u0000${JSON.stringify(fallback)}`;
	let ofRun = readOnce.get(ctx);
	if (!ofRun) readOnce.set(ctx, (ofRun = new Map()));
	if (!ofRun.has(key)) ofRun.set(key, read());
	return ofRun.get(key) as T;
}
