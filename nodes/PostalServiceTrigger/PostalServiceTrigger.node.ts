import type {
	IExecuteFunctions,
	IHookFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { ANSWER, ANSWER_FIELD, RESPONSE_MODE } from './answer';
import { signingSecretTest } from './credentialTest';
import { triggerProperties, type TriggerOptions } from './description';
import { confirmFirstDeliveries, keepFirstDeliveries } from './executionMemory';
import { settingsThatRunDuplicates } from './settings';
import { receiveDelivery } from './webhook';

export class PostalServiceTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Postal Service Trigger',
		name: 'postalServiceTrigger',
		icon: { light: 'file:../../icons/postalService.svg', dark: 'file:../../icons/postalService.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{$parameter["events"].join(", ")}}',
		// n8n's node panel merges this node with the action node into one entry that shows this text.
		description: 'Send registered letters, telegrams, registered e-mail and chat messages through the postal-mail service',
		defaults: { name: 'Postal Service Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'postalServiceWebhookApi', required: true, testedBy: 'signingSecretTest' }],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				// Chosen by the user (see answer.ts): the trigger's first step in the execution answers
				// once the delivery is recorded there, or n8n answers once the execution is stored and
				// queued, which in queue mode does not wait for a worker.
				responseMode: RESPONSE_MODE,
				// Empty, so that n8n's own answer carries what webhook() returns (its default names a mode).
				responseData: '',
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
				// Checked when the workflow is activated or listens for a test event, before any delivery.
				const problem = settingsThatRunDuplicates(this.getNode());
				if (problem) throw new NodeOperationError(this.getNode(), `This trigger's settings would run duplicates: ${problem}`);
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
	 * another execution already recorded leaves with no item (see executionMemory.ts). Then it
	 * answers the delivery, unless n8n already did.
	 */
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const options = this.getNodeParameter('options', 0, {}) as TriggerOptions;
		let kept =
			options.deduplicate === false || this.getMode() === 'manual'
				? items.map((item, index) => ({ item, index }))
				: await keepFirstDeliveries.call(this, items);
		const message = kept.length > 0 ? 'Accepted' : 'Already processed; nothing runs again for this delivery';
		if (this.getNodeParameter(ANSWER_FIELD, 0, ANSWER.fromExecution) !== ANSWER.whenQueued) {
			await this.sendResponse({ body: { message }, statusCode: 200 });
		}
		// After the answer, so that no webhook process waits for it.
		const deduplicating = options.deduplicate !== false && this.getMode() !== 'manual';
		if (deduplicating) kept = await confirmFirstDeliveries.call(this, kept, options.crossWorkerWaitMs ?? 0);
		if (kept.length === 0 && items.length > 0 && this.getNode().alwaysOutputData) {
			// n8n would hand the next node an empty item; activation refuses the setting, this stops a run the editor started.
			throw new NodeOperationError(this.getNode(), 'This delivery already ran: the workflow stops here', {
				description: settingsThatRunDuplicates(this.getNode()) ?? undefined,
			});
		}
		return [kept.map(({ item, index }) => ({ ...item, pairedItem: { item: index } }))];
	}

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const received = await receiveDelivery.call(this);
		// n8n answers this one itself once the execution is queued: with this body.
		if (received.workflowData && this.getNodeParameter(ANSWER_FIELD, ANSWER.fromExecution) === ANSWER.whenQueued) {
			return { ...received, webhookResponse: { message: 'Accepted' } };
		}
		return received;
	}
}
