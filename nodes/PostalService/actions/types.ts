import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

/** How an operation appears in its resource's Operation list. */
export interface OperationOption {
	name: string;
	value: string;
	description: string;
	/** What an AI agent and the node panel call it: a short sentence. */
	action: string;
}

/** What an `<operation>.operation.ts` file exports. */
export interface OperationModule {
	option: OperationOption;
	/** Its parameters, each shown only for its resource and operation. */
	description: INodeProperties[];
	execute: (this: IExecuteFunctions, itemIndex: number) => Promise<INodeExecutionData[]>;
	/** Checks an item against the contract without sending anything (operations that spend credits). */
	validate?: (this: IExecuteFunctions, itemIndex: number) => Promise<void>;
}
