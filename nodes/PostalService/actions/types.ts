import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

/** How an operation appears in its resource's Operation list. */
interface OperationOption {
	name: string;
	value: string;
	description: string;
	/** What the node panel, the canvas and an AI agent call it: verb and object, at most 40 characters. */
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
	/** Set on an operation that spends the account's credits: the AI tool's description says so. */
	spendsCredits?: true;
}
