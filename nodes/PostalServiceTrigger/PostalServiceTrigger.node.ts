import type {
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { clip, readDelivery } from './delivery';
import { WEBHOOK_EVENTS } from './webhookLists';
import { signingSecretTest } from './credentialTest';
import { triggerProperties, type TriggerOptions } from './description';
import { keepFirstDeliveries, KEYS_FIELD } from './processedDeliveries';
import { attachReturnReceipt } from './receipt';
import { settingsThatRunDuplicates } from './settings';
import { addStatusTexts } from './statusTexts';
import { checkAge, checkSignature, SIGNATURE_HEADER, TIMESTAMP_HEADER, timestampReading, type Refusal } from './verification';

export class PostalServiceTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Postal Service Trigger',
		name: 'postalServiceTrigger',
		icon: { light: 'file:../../icons/postalService.svg', dark: 'file:../../icons/postalService.dark.svg' },
		group: ['trigger'],
		version: 1,
		// The events as the Events list names them; a chain of comparisons, since n8n's expressions do not index an object by a computed key.
		subtitle: `={{ $parameter["events"].map((event) => ${WEBHOOK_EVENTS.map(({ value, name }) => `event === ${JSON.stringify(value)} ? ${JSON.stringify(name)} : `).join('')}event).join(", ") }}`,
		// n8n's node panel merges this node with the action node into one entry that shows this text.
		description: 'Send registered letters, telegrams and chat messages through the postal-mail service, and track them',
		defaults: { name: 'Postal Service Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'postalServiceWebhookApi', required: true, testedBy: 'signingSecretTest' }],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				// n8n answers once it has stored (or queued) the execution, so a 2xx means the delivery will run, well within the service's 30 s.
				responseMode: 'onReceived',
				// Empty, so that n8n's answer carries what webhook() returns (its default names a mode).
				responseData: '',
				path: 'webhook',
			},
		],
		properties: triggerProperties,
	};

	methods = { credentialTest: { signingSecretTest } };

	// The service has no API for endpoints, which are registered by hand in its panel: nothing remote to look up, create or delete.
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

	/** One request: verify, read, filter, and the item the execution starts with. */
	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const options = this.getNodeParameter('options', {}) as TriggerOptions;
		const headers = this.getHeaderData() as IDataObject;
		// Node joins most repeated headers; one it keeps as a list is not a value this node can trust.
		const header = (name: string) => (typeof headers[name] === 'string' ? headers[name] : undefined);
		const answer = ({ status, message }: Refusal): IWebhookResponseData => {
			this.getResponseObject().status(status).json({ message });
			return { noWebhookResponse: true };
		};

		// Receive: the signature covers the bytes as sent, so nothing is parsed or trusted before it holds.
		const req = this.getRequestObject();
		if (req.rawBody === undefined) await req.readRawBody();
		const rawBody: Buffer = req.rawBody ?? Buffer.alloc(0);
		const { secret } = await this.getCredentials('postalServiceWebhookApi');
		const refusal =
			checkSignature(typeof secret === 'string' ? secret : '', rawBody, headers[SIGNATURE_HEADER], options.acceptUnsigned === true) ??
			checkAge(header(TIMESTAMP_HEADER), options.maxAgeSeconds);
		if (refusal) return answer(refusal);

		const delivery = readDelivery(rawBody, header('content-type'));
		if ('status' in delivery) return answer(delivery);
		const { envelope } = delivery;

		// Filter. Other events and environments are answered 200: an error would make the service retry them.
		const events = this.getNodeParameter('events', []) as string[];
		if (!events.includes(envelope.event)) {
			return answer({ status: 200, message: `Event ${clip(envelope.event)} is not one this workflow listens to; dropped` });
		}
		// The signed body is the one source: the unsigned X-Webhook-Environment header never admits or drops.
		const environment = typeof envelope.environment === 'string' ? envelope.environment : undefined;
		const wanted = this.getNodeParameter('environment', 'production') as string;
		const notTaken =
			wanted === 'both' || environment === wanted
				? undefined
				: environment === undefined
					? 'The signed body names no environment, so only a workflow whose Environment is Both takes it'
					: `Deliveries from environment ${clip(environment)} are not taken by this workflow (Environment: ${wanted})`;
		// A test event the editor listens for still shows, saying why the active workflow drops it: otherwise nothing appears in n8n.
		if (notTaken !== undefined && this.getMode() !== 'manual') return answer({ status: 200, message: `${notTaken}; dropped` });

		// The item. Its keys come from the signed body before the return receipt leaves the JSON.
		const item: INodeExecutionData = { json: { ...envelope } };
		if (options.deduplicate !== false && this.getMode() === 'webhook') {
			const eventKey = options.dropRepeatedEvents === false ? undefined : delivery.eventKey();
			item[KEYS_FIELD] = { id: delivery.deliveryKey(), event: eventKey };
		}
		addStatusTexts(item.json);
		const reading = timestampReading(header(TIMESTAMP_HEADER));
		if (reading !== undefined) item.json.timestampHeaderZone = reading.zone;
		if (notTaken !== undefined) item.json.notTakenWhenActive = `${notTaken}: the active workflow answers 200 and drops it`;
		if (envelope.event === 'rr.created' && typeof envelope.data === 'object' && envelope.data !== null && !Array.isArray(envelope.data)) {
			try {
				await attachReturnReceipt.call(this, item, envelope.data as IDataObject, options.binaryPropertyName || 'data');
			} catch (error) {
				// n8n answers 500, and the service's retry runs.
				throw new NodeOperationError(this.getNode(), error as Error, {
					description: 'The return receipt of this delivery could not be stored; the service will retry it.',
				});
			}
		}
		if (options.includeHeaders) item.json.headers = { ...headers };
		return { workflowData: [[item]], webhookResponse: { message: 'Accepted' } };
	}

	/** Inside the execution a delivery started: only here is it checked against, and recorded in, n8n's processed-data store. */
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [await keepFirstDeliveries.call(this)];
	}
}
