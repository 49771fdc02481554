import type { IExecuteFunctions } from 'n8n-workflow';

import { asNodeError } from './itemOutcome';
import { operationOf } from './operationOf';

/**
 * Without "Continue On Fail" the run stops at the first failing item. For operations that spend
 * credits every item is checked first, so that an invalid item stops the run before any letter
 * of it is sent: a corrected re-run then cannot send the valid ones twice.
 */
export async function checkEveryItemFirst(ctx: IExecuteFunctions, count: number): Promise<void> {
	for (let itemIndex = 0; itemIndex < count; itemIndex++) {
		try {
			const module = operationOf(ctx, itemIndex);
			if (module.validate) await module.validate.call(ctx, itemIndex);
		} catch (error) {
			const nodeError = asNodeError(ctx, error, itemIndex);
			nodeError.description = [nodeError.description, 'No item of this run was sent.'].filter(Boolean).join('\n');
			throw nodeError;
		}
	}
}
