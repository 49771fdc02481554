import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import * as account from './account';

type OperationModule = { execute: (this: IExecuteFunctions, itemIndex: number) => Promise<INodeExecutionData[]> };

const resources: Record<string, Record<string, OperationModule>> = {
	account: { getBalance: account.getBalance },
};

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const output: INodeExecutionData[] = [];

	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		const resource = this.getNodeParameter('resource', itemIndex) as string;
		const operation = this.getNodeParameter('operation', itemIndex) as string;
		const module = resources[resource]?.[operation];
		try {
			if (!module) {
				throw new NodeOperationError(this.getNode(), `The operation "${operation}" of "${resource}" is not known`, {
					itemIndex,
				});
			}
			output.push(...(await module.execute.call(this, itemIndex)));
		} catch (error) {
			const nodeError =
				error instanceof NodeApiError || error instanceof NodeOperationError
					? error
					: new NodeOperationError(this.getNode(), error as Error, { itemIndex });
			if (this.continueOnFail()) {
				output.push({ json: { error: nodeError.message }, pairedItem: { item: itemIndex } });
				continue;
			}
			throw nodeError;
		}
	}
	return [output];
}
