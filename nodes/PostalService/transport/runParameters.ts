/**
 * In n8n each `getNodeParameter` resolves the parameter's expressions and validates it against its
 * description; the router and the transport read the same few parameters for every item. A
 * parameter whose stored value holds no expression has one value for the whole run: it is read
 * once per run (an execute context is made for one run and dropped after it) and shared.
 */
import type { IExecuteFunctions, NodeParameterValueType } from 'n8n-workflow';

import { notSent } from './errors';
import type { ServiceContext } from './index';
import { stateOfRun } from './runState';

// Per run: the values read once, and the names that hold an expression (looked up once too, as
// n8n's getNode() returns a deep copy of the node).
const ofRuns = new WeakMap<IExecuteFunctions, { values: Map<string, unknown>; perItem: Set<string> }>();

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
export function cachedParameter<T>(ctx: IExecuteFunctions, name: string, itemIndex: number, fallback?: T): T {
	const read = () => (fallback === undefined ? ctx.getNodeParameter(name, itemIndex) : ctx.getNodeParameter(name, itemIndex, fallback as NodeParameterValueType)) as T;
	const ofRun = stateOfRun(ofRuns, ctx, () => ({ values: new Map<string, unknown>(), perItem: new Set<string>() }));
	// The fallback is part of the key: a caller may read one parameter with two fallbacks.
	const key = fallback === undefined ? name : `${name}\u0000${JSON.stringify(fallback)}`;
	if (ofRun.values.has(key)) return ofRun.values.get(key) as T;
	if (ofRun.perItem.has(name)) return read();
	if (holdsExpression(stored(ctx, name))) {
		ofRun.perItem.add(name);
		return read();
	}
	const value = read();
	ofRun.values.set(key, value);
	return value;
}

const DEFAULT_TIMEOUT_MS = 60_000;
/** The longest Timeout the option accepts (timers hold at most 2^31 - 1 ms). */
const MAX_TIMEOUT_MS = 3_600_000;

/** The operation's deadline in ms; a value out of range is the user's to fix, and nothing is sent. */
export function operationTimeout(ctx: ServiceContext, itemIndex: number, requested?: number): number {
	let value: unknown = requested;
	if (value === undefined) {
		try {
			value = cachedParameter(ctx as IExecuteFunctions, 'options.timeout', itemIndex, 0);
		} catch {
			// A context without node parameters (the editor's lists): the default.
		}
	}
	if (value === undefined || value === null || value === '' || value === 0) return DEFAULT_TIMEOUT_MS;
	const ms = Number(value);
	if (!Number.isInteger(ms) || ms < 1 || ms > MAX_TIMEOUT_MS) {
		throw notSent(ctx, itemIndex, `Options > "Timeout (Ms)" must be a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS}; got ${String(value)}`);
	}
	return ms;
}
