import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { RouteName } from '../contract/routes';
import type { Call, ServiceResponse } from '../transport';

/** How an operation appears in its resource's Operation list. */
interface OperationOption {
	name: string;
	value: string;
	description: string;
	/** What the node panel, the canvas and an AI agent call it: verb and object, at most 40 characters. */
	action: string;
}

/** One request of an item, spent from the item's deadline. */
export type ServiceCall = (route: RouteName, call?: Call) => Promise<ServiceResponse>;

/** What the run gives an operation about one item besides its parameters. */
export interface ItemInput {
	/** How many items the run has. */
	itemCount: number;
	/** The item's Options > Extra Parameters, as the run read them. */
	extraParameters: Array<{ name?: unknown; value?: unknown }>;
}

/** The work one item does, built from its parameters before anything of the run is sent. */
export interface ItemWork {
	/** Asked of the service before the send, changing nothing there; with `checkFirst`, before any item of the run is sent. */
	check?: (call: ServiceCall) => Promise<void>;
	checkFirst?: boolean;
	send: (call: ServiceCall) => Promise<INodeExecutionData[]>;
}

/** What an `<operation>.operation.ts` file exports. */
export interface OperationModule {
	option: OperationOption;
	/** Its parameters, each shown only for its resource and operation. */
	description: INodeProperties[];
	/** Reads the item's parameters once and checks them; throws what is wrong, naming the field as the panel shows it. */
	prepare: (this: IExecuteFunctions, itemIndex: number, input: ItemInput) => Promise<ItemWork> | ItemWork;
	/** Set on an operation that changes something at the service: n8n's Retry On Fail is refused, and a failed run names what went through. */
	writes?: true;
	/** Set on an operation that spends the account's credits: the AI tool's description says so. */
	spendsCredits?: true;
}
