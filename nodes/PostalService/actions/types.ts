import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { ROUTES, RouteName } from '../contract/routes';
import type { Call, ServiceResponse } from '../transport';

/** How an operation appears in its resource's Operation list. */
interface OperationOption {
	name: string;
	value: string;
	description: string;
	/** What the node panel, the canvas and an AI agent call it: verb and object, at most 40 characters. */
	action: string;
}

/** The routes a repeat leaves harmless: the only ones an operation not marked `writes` can call. */
export type SafeRoute = { [K in RouteName]: (typeof ROUTES)[K]['idempotent'] extends true ? K : never }[RouteName];

/** One request of an item, spent from the item's deadline. */
export type ServiceCall<R extends RouteName = SafeRoute> = (route: R, call?: Call) => Promise<ServiceResponse>;

/** What the run gives an operation about one item besides its parameters. */
export interface ItemInput {
	/** How many items the run has. */
	itemCount: number;
	/** The item's Options > Extra Parameters, as the run read them. */
	extraParameters: Array<{ name?: unknown; value?: unknown }>;
}

/** The work one item does, built from its parameters before anything of the run is sent; its send calls the routes `R`. */
export interface ItemWork<R extends RouteName = SafeRoute> {
	/** Asked of the service before the send, changing nothing there; with `checkFirst`, before any item of the run is sent. */
	check?: (call: ServiceCall) => Promise<void>;
	checkFirst?: boolean;
	send: (call: ServiceCall<R>) => Promise<INodeExecutionData[]>;
}

/** The work of an operation marked `writes`, whose send may call a route that is not safe to repeat. */
export type WriteWork = ItemWork<RouteName>;

interface OperationFile {
	option: OperationOption;
	/** Its parameters, each shown only for its resource and operation. */
	description: INodeProperties[];
	/** Set on an operation that spends the account's credits: the AI tool's description says so. */
	spendsCredits?: true;
}

type Prepare<W> = (this: IExecuteFunctions, itemIndex: number, input: ItemInput) => Promise<W> | W;

/** What an `<operation>.operation.ts` file exports: only one that says `writes` (Retry On Fail then refused) may call a route not safe to repeat. */
export type OperationModule = OperationFile & ({ writes?: undefined; prepare: Prepare<ItemWork> } | { writes: true; prepare: Prepare<WriteWork> });
