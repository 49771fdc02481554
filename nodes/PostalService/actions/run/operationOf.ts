import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { cachedParameter } from '../../transport/runParameters';
import { findOperation } from '../resources';
import type { OperationModule } from '../types';

/** The operation module the item's Resource and Operation name. */
export function operationOf(ctx: IExecuteFunctions, itemIndex: number): OperationModule {
	const resource = cachedParameter<string>(ctx, 'resource', itemIndex);
	const operation = cachedParameter<string>(ctx, 'operation', itemIndex);
	const module = findOperation(resource, operation);
	if (!module) {
		throw new NodeOperationError(
			ctx.getNode(),
			`The operation "${operation}" of "${resource}" is not known. For a route this node does not offer, use an HTTP Request node with the Postal Service credential (Authentication: Predefined Credential Type).`,
			{ itemIndex },
		);
	}
	return module;
}
