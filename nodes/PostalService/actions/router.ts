import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import * as account from './account';
import * as chatMessage from './chatMessage';
import * as chatSender from './chatSender';
import * as chatTemplate from './chatTemplate';
import * as order from './order';
import * as receipt from './receipt';
import * as registeredEmail from './registeredEmail';
import * as savedContact from './savedContact';

type OperationModule = { execute: (this: IExecuteFunctions, itemIndex: number) => Promise<INodeExecutionData[]> };

const resources: Record<string, Record<string, OperationModule>> = {
	account: { getBalance: account.getBalance, getLogo: account.getLogo },
	chatMessage: { send: chatMessage.send, reprocess: chatMessage.reprocess },
	chatSender: { getMany: chatSender.getMany },
	chatTemplate: { getMany: chatTemplate.getMany },
	order: {
		cancel: order.cancel,
		create: order.create,
		downloadFile: order.downloadFile,
		get: order.get,
		getPrice: order.getPrice,
	},
	receipt: { get: receipt.get },
	registeredEmail: {
		cancel: registeredEmail.cancel,
		downloadFile: registeredEmail.downloadFile,
		get: registeredEmail.get,
	},
	savedContact: { update: savedContact.update },
};

type Outcome = { items: INodeExecutionData[] } | { error: NodeApiError | NodeOperationError };

async function runItem(this: IExecuteFunctions, itemIndex: number): Promise<Outcome> {
	try {
		const resource = this.getNodeParameter('resource', itemIndex) as string;
		const operation = this.getNodeParameter('operation', itemIndex) as string;
		const module = resources[resource]?.[operation];
		if (!module) {
			throw new NodeOperationError(
				this.getNode(),
				`The operation "${operation}" of "${resource}" is not known. For a route this node does not offer, use an HTTP Request node with the Postal Service credential ("Custom API Call").`,
				{ itemIndex },
			);
		}
		return { items: await module.execute.call(this, itemIndex) };
	} catch (error) {
		return {
			error:
				error instanceof NodeApiError || error instanceof NodeOperationError
					? error
					: new NodeOperationError(this.getNode(), error as Error, { itemIndex }),
		};
	}
}

/**
 * Runs every item, in batches when the user asks for them, and keeps the output in input order
 * whatever order the answers arrive in. Each item is validated and sent on its own, so with
 * "Continue On Fail" an invalid or refused item does not stop the others.
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	// Without the option items go one at a time; with it, the defaults the editor shows apply.
	const batching = this.getNodeParameter('options.batching', 0, {}) as { batch?: { batchSize?: number; batchInterval?: number } };
	const batch = batching.batch;
	const batchSize = batch ? Math.max(1, Math.floor(Number(batch.batchSize ?? 50)) || 1) : 1;
	const interval = batch ? Math.max(0, Number(batch.batchInterval ?? 1000) || 0) : 0;
	const outcomes: Outcome[] = new Array(items.length);

	for (let start = 0; start < items.length; start += batchSize) {
		if (start > 0 && interval > 0) await sleep(interval);
		const indexes = Array.from({ length: Math.min(batchSize, items.length - start) }, (_, k) => start + k);
		await Promise.all(
			indexes.map(async (itemIndex) => {
				outcomes[itemIndex] = await runItem.call(this, itemIndex);
			}),
		);
		if (!this.continueOnFail()) {
			const failed = indexes.map((i) => outcomes[i]).find((o): o is { error: NodeOperationError } => 'error' in o);
			if (failed) throw failed.error;
		}
	}

	const output: INodeExecutionData[] = [];
	outcomes.forEach((outcome, itemIndex) => {
		if ('items' in outcome) {
			output.push(...outcome.items);
			return;
		}
		const { message, description } = outcome.error;
		output.push({
			json: { error: message, ...(description ? { description } : {}) },
			pairedItem: { item: itemIndex },
		});
	});
	return [output];
}
