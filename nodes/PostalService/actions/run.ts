/** One run: every item prepared first (an invalid one stops the run before anything is sent), then their work in a sliding window. */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import {
	callService,
	credentialOf,
	DEFAULT_TIMEOUT_MS,
	notSent,
	outcomeIsUnclear,
	readCredentials,
	type CredentialName,
	type Credentials,
	type Deadline,
} from '../transport';
import { isRefusal } from './item';
import { BATCH, MAX_TIMEOUT_MS } from './options';
import { findOperation } from './resources';
import { pacing, runInSlidingWindow } from './slidingWindow';
import type { RouteName } from '../contract/routes';
import type { ItemInput, OperationModule, ServiceCall, WriteWork } from './types';

type NodeError = NodeApiError | NodeOperationError;
/** What one item came to: its output items, or the error that stopped it. */
type Outcome = { items: INodeExecutionData[] } | { error: NodeError };
type Prepared = { work: WriteWork; deadline: Deadline };

function asNodeError(ctx: IExecuteFunctions, error: unknown, itemIndex: number): NodeError {
	return error instanceof NodeApiError || error instanceof NodeOperationError ? error : new NodeOperationError(ctx.getNode(), error as Error, { itemIndex });
}

function withNote(error: NodeError, note: string): NodeError {
	error.description = [error.description, note].filter(Boolean).join('\n');
	return error;
}

/** The item's deadline in ms; a value out of range is the user's to fix, and nothing is sent. */
function timeoutOf(ctx: IExecuteFunctions, itemIndex: number, value: unknown): number {
	if (value === undefined || value === null || value === '' || value === 0) return DEFAULT_TIMEOUT_MS;
	const ms = Number(value);
	if (Number.isInteger(ms) && ms >= 1 && ms <= MAX_TIMEOUT_MS) return ms;
	throw notSent(ctx, itemIndex, `Options > "Timeout (Ms)" must be a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS}; got ${String(value)}`);
}

function refuseRetryOnFail(ctx: IExecuteFunctions, module: OperationModule): NodeOperationError {
	return new NodeOperationError(
		ctx.getNode(),
		`"Retry On Fail" is on in this node's settings, which ${module.option.action} does not allow: a retry runs the node again over every item and would send again the items that already went through. Nothing was sent.`,
		{
			itemIndex: 0,
			description:
				"Turn off Settings > Retry On Fail for this node. The node repeats a request on its own when the request certainly never reached the service (no connection), and a read after a passing failure; after any other failure its error names the items that went through and says how to check the others before sending again.",
		},
	);
}

/** When a run stops midway, says which items had gone through, which may have and which were not sent, so none is sent twice. */
function withCompletedItems(error: NodeError, outcomes: Outcome[], writes: boolean): NodeError {
	const done: string[] = [];
	const unclear: string[] = [];
	const unsent: string[] = [];
	for (let itemIndex = 0; itemIndex < outcomes.length; itemIndex++) {
		const outcome = outcomes[itemIndex];
		if (outcome && 'items' in outcome) {
			const id = outcome.items[0]?.json.id;
			done.push(`item ${itemIndex + 1}${id ? ` (id ${String(id)})` : ''}`);
		} else if (outcome && outcomeIsUnclear(outcome.error) && !isRefusal(outcome.error)) {
			if (outcome.error !== error) unclear.push(outcome.error.message);
		} else if (outcome?.error !== error) unsent.push(`item ${itemIndex + 1}`);
	}
	if (done.length > 0) {
		withNote(
			error,
			`Before this error the run had already completed ${done.length} item(s), which are not in the output: ${done.join(', ')}.${writes ? ' Do not send them again.' : ''}`,
		);
	}
	if (writes && unclear.length > 0) withNote(error, `These items may have gone through as well; check them before sending them again: ${unclear.join('; ')}.`);
	if (writes && unsent.length > 0) withNote(error, `Nothing was sent for ${unsent.join(', ')}: send them again once the cause is fixed.`);
	return error;
}

export async function runOperation(ctx: IExecuteFunctions, continueOnFail: boolean): Promise<INodeExecutionData[][]> {
	try {
		return await runItems(ctx, continueOnFail);
	} catch (error) {
		const nodeError = asNodeError(ctx, error, 0);
		// n8n passes the input items down the success output when a node set to continue throws: each item fails instead.
		if (!continueOnFail) throw nodeError;
		return [ctx.getInputData().map((_, itemIndex) => errorItem(nodeError, itemIndex))];
	}
}

async function runItems(ctx: IExecuteFunctions, continueOnFail: boolean): Promise<INodeExecutionData[][]> {
	const count = ctx.getInputData().length;
	/** An item's error names the item as n8n and a spreadsheet count them, from 1, and its Tag if it has one. */
	const itemError = (error: unknown, itemIndex: number): NodeError => {
		const nodeError = asNodeError(ctx, error, itemIndex);
		let tag: unknown = '';
		try {
			tag = ctx.getNodeParameter('tag', itemIndex, '');
		} catch {
			// A Tag whose expression fails names nothing.
		}
		const names = [count > 1 ? `item ${itemIndex + 1} of ${count}` : '', tag ? `tag "${String(tag)}"` : ''].filter(Boolean).join(', ');
		if (names) nodeError.message = `${names[0].toUpperCase()}${names.slice(1)}: ${nodeError.message}`;
		return nodeError;
	};
	const resource = ctx.getNodeParameter('resource', 0) as string;
	const operation = ctx.getNodeParameter('operation', 0) as string;
	const module = findOperation(resource, operation);
	if (!module) {
		throw new NodeOperationError(
			ctx.getNode(),
			`The operation "${operation}" of "${resource}" is not known. For a route this node does not offer, use an HTTP Request node with the Postal Service credential (Authentication: Predefined Credential Type).`,
			{ itemIndex: 0 },
		);
	}
	const writes = module.writes === true;
	if (writes && ctx.getNode().retryOnFail) throw refuseRetryOnFail(ctx, module);
	// Without the option items go one at a time; with it, the defaults the editor shows apply.
	const { batch } = (ctx.getNodeParameter('options.batching', 0, {}) ?? {}) as { batch?: { batchSize?: number; batchInterval?: number } };
	const size = batch ? Math.max(1, Math.floor(Number(batch.batchSize ?? BATCH.size)) || 1) : 1;
	const interval = batch ? Math.max(0, Number(batch.batchInterval ?? BATCH.interval) || 0) : 0;

	const outcomes: Outcome[] = new Array(count);
	const prepared: Array<Prepared | undefined> = new Array(count);
	for (let itemIndex = 0; itemIndex < count; itemIndex++) {
		try {
			const options = ctx.getNodeParameter('options', itemIndex, {}) as IDataObject;
			const deadline = { timeoutMs: timeoutOf(ctx, itemIndex, options.timeout), spentMs: 0 };
			const extraParameters = ((options.extraParameters as IDataObject | undefined)?.parameter ?? []) as ItemInput['extraParameters'];
			prepared[itemIndex] = { work: await module.prepare.call(ctx, itemIndex, { itemCount: count, extraParameters }), deadline };
		} catch (error) {
			const nodeError = itemError(error, itemIndex);
			if (!continueOnFail) throw writes ? withNote(nodeError, 'No item of this run was sent.') : nodeError;
			outcomes[itemIndex] = { error: nodeError };
		}
	}

	// Each credential is read once per run, when a request first needs it.
	const credentials = new Map<CredentialName, Promise<Credentials>>();
	const clock = pacing(size, interval);
	/** The first failure without Continue On Fail: once set, no request of the run starts, first attempt or repeat. */
	let stop: NodeError | undefined;
	const callFor =
		(itemIndex: number, deadline: Deadline): ServiceCall<RouteName> =>
		async (route, call = {}) => {
			const name = credentialOf(route);
			if (!credentials.has(name)) credentials.set(name, readCredentials(ctx, name));
			return await callService(ctx, await credentials.get(name)!, route, call, itemIndex, deadline, async (until) => {
				const started = await clock(until);
				if (stop) throw notSent(ctx, itemIndex, 'The run stopped at the failure of another item before this request could start');
				return started;
			});
		};
	/** Runs `task` for each of the items, in the window; true when one failed and the run must stop. */
	const inWindow = async (indexes: number[], task: (work: WriteWork, call: ServiceCall<RouteName>) => Promise<INodeExecutionData[] | void>) => {
		const results = await runInSlidingWindow<Outcome | undefined>(
			indexes.length,
			{ size, stopWhen: () => stop !== undefined },
			async (k) => {
				const itemIndex = indexes[k];
				const { work, deadline } = prepared[itemIndex]!;
				try {
					const items = await task(work, callFor(itemIndex, deadline));
					return items ? { items } : undefined;
				} catch (error) {
					const failure = itemError(error, itemIndex);
					if (!continueOnFail) stop ??= failure;
					return { error: failure };
				}
			},
		);
		results.forEach((outcome, k) => outcome && (outcomes[indexes[k]] = outcome));
		return stop !== undefined;
	};

	// Checks asked before anything of the run is sent keep a batch all-or-nothing for every rule the service checks.
	const checkedFirst = prepared.flatMap((item, itemIndex) => (item?.work.checkFirst && item.work.check ? [itemIndex] : []));
	if (await inWindow(checkedFirst, async (work, call) => await work.check!(call))) throw withNote(stop!, 'No item of this run was sent.');

	const toSend = prepared.flatMap((item, itemIndex) => (item && !outcomes[itemIndex] ? [itemIndex] : []));
	const stopped = await inWindow(toSend, async (work, call) => {
		if (work.check && !work.checkFirst) await work.check(call);
		return await work.send(call);
	});
	if (stopped) throw withCompletedItems(stop!, outcomes, writes);

	return [outcomes.flatMap((outcome, itemIndex) => ('items' in outcome ? outcome.items : [errorItem(outcome.error, itemIndex)]))];
}

/** A failed item under Continue On Fail: `{error, message}` is the one shape every n8n release from 1.85 sends to the error output. */
export function errorItem(error: { message: string; description?: string | null }, itemIndex: number): INodeExecutionData {
	return { json: { error: error.message, ...(error.description ? { message: error.description } : {}) }, pairedItem: { item: itemIndex } };
}
