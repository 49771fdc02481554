import type {
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	INodeCredentialTestResult,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';
import { DateTime } from 'luxon';

import { alreadyAccepted, claim, DEDUP_WINDOW, memoryKey, mergeAccepted, release } from './deliveryMemory';
import { isValidSignature } from './signature';

export { DEDUP_WINDOW };

// Timestamps of the service are wall-clock times in Brazil, without an offset.
const SERVICE_ZONE = 'America/Sao_Paulo';
const SERVICE_TIME_FORMAT = 'yyyy-MM-dd HH:mm:ss';

const EVENTS = ['order.created', 'order.status_updated', 'tracking.updated', 'rr.created', 'webhook.test'];

interface TriggerOptions {
	acceptUnsigned?: boolean;
	binaryPropertyName?: string;
	deduplicate?: boolean;
	includeHeaders?: boolean;
	maxAgeSeconds?: number;
}

type Answer = { status: number; message: string };

function header(headers: IDataObject, name: string): string | undefined {
	const value = headers[name];
	if (typeof value === 'string') return value;
	// Node joins most repeated headers; one it keeps as a list is not a value this node can trust.
	return undefined;
}

// Values from the request go back in the answer, which the service stores: keep them short.
function clip(value: string): string {
	return value.length > 64 ? `${value.slice(0, 64)}…` : value;
}

function isPlainObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Seconds between the delivery's own timestamp and now, or undefined when unreadable. */
function deliveryAgeSeconds(timestamp: string | undefined, now: DateTime = DateTime.now()): number | undefined {
	if (!timestamp) return undefined;
	const sent = DateTime.fromFormat(timestamp.trim(), SERVICE_TIME_FORMAT, { zone: SERVICE_ZONE });
	if (!sent.isValid) return undefined;
	return now.diff(sent, 'seconds').seconds;
}

// A file name from the payload becomes the binary's name, never a path.
function safeFileName(name: unknown, fallback: string): string {
	if (typeof name !== 'string') return fallback;
	const base = (name.split(/[\\/]/).pop() ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim();
	return base === '' || base === '.' || base === '..' ? fallback : base;
}

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
		properties: [
			{
				displayName:
					'The service has no API to register webhooks: in its panel open the Webhooks section, add an endpoint with this node\'s Production URL, choose the same events, and give it the signing secret you keep in this node\'s credential. Activate the workflow, then press the panel\'s test button.',
				name: 'setupNotice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				required: true,
				options: [
					{
						name: 'Order Created',
						value: 'order.created',
						description: 'A letter or registered e-mail order is created',
					},
					{
						name: 'Order Status Updated',
						value: 'order.status_updated',
						description: 'An order changes status',
					},
					{
						name: 'Return Receipt Created',
						value: 'rr.created',
						description: 'A return receipt is available; the file comes as binary data',
					},
					{
						name: 'Test Event',
						value: 'webhook.test',
						description: 'Sent only when the test button is pressed in the panel',
					},
					{
						name: 'Tracking Updated',
						value: 'tracking.updated',
						description: 'A tracking code is assigned, or the postal operator reports new events',
					},
				],
				default: [...EVENTS],
				description:
					'Events that start the workflow. Other events are acknowledged (200) and dropped, so the service does not retry them.',
			},
			{
				displayName: 'Environment',
				name: 'environment',
				type: 'options',
				options: [
					{ name: 'Production', value: 'production' },
					{ name: 'Test Environment (Homolog)', value: 'homolog' },
					{ name: 'Both', value: 'both' },
				],
				default: 'production',
				description:
					'Which environment\'s deliveries start the workflow. Deliveries from the other one are acknowledged (200) and dropped.',
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add option',
				default: {},
				options: [
					{
						displayName: 'Accept Unsigned Deliveries',
						name: 'acceptUnsigned',
						type: 'boolean',
						default: false,
						description:
							'Whether a delivery without X-Webhook-Signature starts the workflow (for an endpoint registered without a secret). A delivery with a wrong signature is refused either way.',
					},
					{
						displayName: 'Drop Duplicate Deliveries',
						name: 'deduplicate',
						type: 'boolean',
						default: true,
						description:
							'Whether a delivery whose delivery_id was already processed is acknowledged (200) without starting the workflow again. The service delivers at least once and retries.',
					},
					{
						displayName: 'Include Request Headers',
						name: 'includeHeaders',
						type: 'boolean',
						default: false,
						description: 'Whether to add the HTTP headers of the delivery to the item, under "headers"',
					},
					{
						displayName: 'Maximum Age (Seconds)',
						name: 'maxAgeSeconds',
						type: 'number',
						typeOptions: { minValue: 1 },
						default: 300,
						description:
							'Refuse (401) a delivery whose X-Webhook-Timestamp is further than this from the current time, in either direction. That header is not signed, so this stops stale or naively replayed deliveries, not a determined replay; duplicate dropping does that.',
					},
					{
						displayName: 'Put Return Receipt in Field',
						name: 'binaryPropertyName',
						type: 'string',
						default: 'data',
						description: 'Name of the binary field that receives the return receipt file of rr.created events',
					},
				],
			},
		],
	};

	methods = {
		credentialTest: {
			// The secret never travels to the service, so nothing remote can confirm it. What can be
			// checked is checked here; the message says how to check the rest.
			async signingSecretTest(
				this: ICredentialTestFunctions,
				credential: ICredentialsDecrypted,
			): Promise<INodeCredentialTestResult> {
				const secret = credential.data?.secret;
				if (typeof secret !== 'string' || secret === '') {
					return { status: 'Error', message: 'The signing secret is empty' };
				}
				if (secret !== secret.trim()) {
					return {
						status: 'Error',
						message:
							'The signing secret starts or ends with spaces or a line break; every signature would fail. Paste it again without them.',
					};
				}
				return {
					status: 'OK',
					message:
						'The secret is filled in. The service never sends it back, so only a delivery can confirm it: press the test button of the endpoint in the panel.',
				};
			},
		},
	};

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
	 * Runs inside the execution a delivery starts and passes its items on unchanged. It also writes
	 * the accepted delivery ids into the node's static data, because n8n 2.41 keeps a change made
	 * there during an execution, but not one made by webhook() once static data holds anything
	 * (see deliveryMemory.ts).
	 */
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const options = this.getNodeParameter('options', 0, {}) as TriggerOptions;
		if (options.deduplicate !== false) {
			const ids = items
				.map((item) => item.json.delivery_id)
				.filter((id): id is string | number => typeof id === 'string' || typeof id === 'number')
				.map(String);
			mergeAccepted(memoryKey(this.getWorkflow().id, this.getNode().name), this.getWorkflowStaticData('node'), ids);
		}
		return [items.map((item, index) => ({ ...item, pairedItem: { item: index } }))];
	}

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const req = this.getRequestObject();
		const options = this.getNodeParameter('options', {}) as TriggerOptions;
		const headers = this.getHeaderData() as IDataObject;

		const answer = ({ status, message }: Answer): IWebhookResponseData => {
			const res = this.getResponseObject();
			res.status(status).json({ message });
			return { noWebhookResponse: true };
		};

		// The signature covers the bytes as sent; nothing may be parsed or trusted before it holds.
		if (req.rawBody === undefined) await req.readRawBody();
		const rawBody: Buffer = req.rawBody ?? Buffer.alloc(0);

		const credentials = await this.getCredentials('postalServiceWebhookApi');
		const secret = typeof credentials.secret === 'string' ? credentials.secret : '';
		const signature = headers['x-webhook-signature'];
		if (signature === undefined) {
			if (!options.acceptUnsigned) {
				return answer({
					status: 401,
					message:
						'Missing X-Webhook-Signature: give the endpoint a signing secret in the panel, or turn on "Accept Unsigned Deliveries"',
				});
			}
		} else if (!isValidSignature(secret, rawBody, typeof signature === 'string' ? signature : undefined)) {
			return answer({
				status: 401,
				message: 'Invalid X-Webhook-Signature: check that the n8n credential holds this endpoint\'s signing secret',
			});
		}

		if (options.maxAgeSeconds !== undefined) {
			const age = deliveryAgeSeconds(header(headers, 'x-webhook-timestamp'));
			if (age === undefined) {
				return answer({ status: 401, message: 'Missing or unreadable X-Webhook-Timestamp' });
			}
			if (Math.abs(age) > options.maxAgeSeconds) {
				return answer({
					status: 401,
					message: `X-Webhook-Timestamp is ${Math.round(Math.abs(age))} s away from this server's time; at most ${options.maxAgeSeconds} s is accepted`,
				});
			}
		}

		let envelope: unknown;
		try {
			envelope = JSON.parse(rawBody.toString('utf8'));
		} catch {
			return answer({ status: 400, message: 'The body is not JSON' });
		}
		if (!isPlainObject(envelope) || typeof envelope.event !== 'string' || envelope.event === '') {
			return answer({ status: 400, message: 'The body is not a webhook envelope (an object with "event")' });
		}

		const events = this.getNodeParameter('events', []) as string[];
		if (!events.includes(envelope.event)) {
			return answer({ status: 200, message: `Event ${clip(envelope.event)} is not one this workflow listens to; dropped` });
		}

		const wanted = this.getNodeParameter('environment', 'production') as string;
		const environment =
			typeof envelope.environment === 'string' ? envelope.environment : header(headers, 'x-webhook-environment');
		if (wanted !== 'both' && environment !== wanted) {
			return answer({
				status: 200,
				message: `Deliveries from environment ${clip(environment ?? '(none)')} are not taken by this workflow; dropped`,
			});
		}

		const deliveryId = envelope.delivery_id;
		const dedupKey =
			options.deduplicate !== false && (typeof deliveryId === 'number' || typeof deliveryId === 'string')
				? String(deliveryId)
				: undefined;
		const staticData = this.getWorkflowStaticData('node');
		const key = memoryKey(this.getWorkflow().id, this.getNode().name);
		if (dedupKey !== undefined) {
			if (alreadyAccepted(key, staticData, dedupKey)) {
				return answer({ status: 200, message: `Delivery ${dedupKey} was already processed; dropped` });
			}
			claim(key, dedupKey);
		}

		const item: INodeExecutionData = { json: { ...envelope } };
		try {
			if (envelope.event === 'rr.created' && isPlainObject(envelope.data)) {
				await attachReturnReceipt.call(this, item, envelope.data, options.binaryPropertyName || 'data');
			}
		} catch (error) {
			// n8n answers 500 and the service retries: the retry must not be taken for a duplicate.
			if (dedupKey !== undefined) release(key, dedupKey);
			throw new NodeOperationError(this.getNode(), error as Error, {
				description: 'The return receipt of this delivery could not be stored; the service will retry it.',
			});
		}
		if (options.includeHeaders) item.json.headers = { ...headers };

		if (dedupKey !== undefined) mergeAccepted(key, staticData, [dedupKey]);

		return { workflowData: [[item]] };
	}
}

/** Moves the return receipt from the JSON (base64) to binary data. */
async function attachReturnReceipt(
	this: IWebhookFunctions,
	item: INodeExecutionData,
	data: IDataObject,
	binaryPropertyName: string,
): Promise<void> {
	const file = data.file;
	if (file === null || file === undefined) {
		// The service sends `file: null` when the document could not be read.
		item.json.fileUnreadable = true;
		return;
	}
	if (!isPlainObject(file) || typeof file.base64 !== 'string') return;
	const bytes = Buffer.from(file.base64, 'base64');
	const fallback = `return-receipt-${typeof data.id === 'string' ? data.id : 'file'}.pdf`;
	const fileName = safeFileName(file.name, fallback);
	const isPdf = bytes.subarray(0, 4).toString('latin1') === '%PDF';
	item.binary = {
		[binaryPropertyName]: await this.helpers.prepareBinaryData(bytes, fileName, isPdf ? 'application/pdf' : undefined),
	};
	const { base64: _base64, ...fileWithoutContent } = file;
	item.json.data = { ...data, file: fileWithoutContent };
	item.json.fileUnreadable = false;
}
