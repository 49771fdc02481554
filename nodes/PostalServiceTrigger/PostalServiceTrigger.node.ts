import type {
	IExecuteFunctions,
	IHookFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { signingSecretTest } from './credentialTest';
import { DEDUP_WINDOW } from './deliveryMemory';
import { triggerProperties, type TriggerOptions } from './description';
import { firstRuns } from './executionMemory';
import { receiveDelivery } from './webhook';

export { DEDUP_WINDOW };

export class PostalServiceTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Postal Service Trigger',
		name: 'postalServiceTrigger',
		icon: { light: 'file:../../icons/postalService.svg', dark: 'file:../../icons/postalService.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{$parameter["events"].join(", ")}}',
		description:
			'Starts the workflow when the postal-mail service sends a signed webhook: order created, status changed, tracking updated, return receipt available',
		defaults: { name: 'Postal Service Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'postalServiceWebhookApi', required: true, testedBy: 'signingSecretTest' }],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				// The service waits at most 30 seconds and retries otherwise: answer at once, never
				// after the workflow. n8n still answers only once the execution is registered (queued,
				// in queue mode), so a 200 never stands for a delivery that was lost.
				responseMode: 'onReceived',
				// Without it n8n sends the option's default name ("firstEntryJson") as the body, which
				// the service would store and show with the delivery; an empty 200 says no more than
				// it should.
				responseData: 'noData',
				path: 'webhook',
			},
		],
		properties: triggerProperties,
	};

	methods = { credentialTest: { signingSecretTest } };

	// Endpoints of this service are registered by hand in its panel, and it has no API for them.
	// So there is nothing remote to look up, create or delete: these report success and record
	// nothing. The setup notice and the README tell the user to register (and later remove) the
	// endpoint in the panel.
	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return true;
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return true;
			},
		},
	};

	/**
	 * Runs inside the execution a delivery started, with the item webhook() returned. Reaching it
	 * means the execution ran: only here is a delivery recorded as processed, and a delivery that
	 * another execution already recorded leaves with no item (see executionMemory.ts).
	 */
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const options = this.getNodeParameter('options', 0, {}) as TriggerOptions;
		const kept =
			options.deduplicate === false || this.getMode() === 'manual'
				? items.map((item, index) => ({ item, index }))
				: await firstRuns.call(this, items);
		return [kept.map(({ item, index }) => ({ ...item, pairedItem: { item: index } }))];
	}

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await receiveDelivery.call(this);
	}
}
