/**
 * One delivery, from the bytes received to the item the execution starts with: verify, decode,
 * filter, drop what already ran, extract the return receipt.
 */
import type { IDataObject, INodeExecutionData, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { parseEnvelope, decodeBody } from './body';
import { WEBHOOK_HEADERS } from './contract';
import { deliveryKeys } from './deliveryKeys';
import { type Claim, nodeMemory, type NodeMemory, storedKeys } from './deliveryMemory';
import type { TriggerOptions } from './description';
import { addStatusTexts } from './items';
import { attachReturnReceipt } from './receipt';
import { checkAge, checkSignature, type Refusal, timestampReading } from './verification';

function header(headers: IDataObject, name: string): string | undefined {
	const value = headers[name];
	// Node joins most repeated headers; one it keeps as a list is not a value this node can trust.
	return typeof value === 'string' ? value : undefined;
}

// Values from the request go back in the answer, which the service stores: keep them short.
function clip(value: string): string {
	return value.length > 64 ? `${value.slice(0, 64)}…` : value;
}

/**
 * Settles the request's claim with its answer: a 2xx comes from the trigger's step in the
 * execution, once the delivery is recorded (it ran); an error answer means n8n could not start or
 * finish that step, and a connection closed unanswered that n8n stopped first: the service retries.
 */
function watchAnswer(res: ReturnType<IWebhookFunctions['getResponseObject']>, memory: NodeMemory, keys: string[], claim: Claim): void {
	if (typeof res.once !== 'function') return;
	res.once('finish', () => memory.settle(keys, claim, res.statusCode >= 200 && res.statusCode < 300));
	res.once('close', () => memory.settle(keys, claim, false));
}

export async function receiveDelivery(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const req = this.getRequestObject();
	const options = this.getNodeParameter('options', {}) as TriggerOptions;
	const headers = this.getHeaderData() as IDataObject;

	const answer = ({ status, message }: Refusal): IWebhookResponseData => {
		this.getResponseObject().status(status).json({ message });
		return { noWebhookResponse: true };
	};

	// The signature covers the bytes as sent; nothing may be parsed or trusted before it holds.
	if (req.rawBody === undefined) await req.readRawBody();
	const rawBody: Buffer = req.rawBody ?? Buffer.alloc(0);
	const credentials = await this.getCredentials('postalServiceWebhookApi');
	const secret = typeof credentials.secret === 'string' ? credentials.secret : '';
	const refusal =
		checkSignature(secret, rawBody, headers[WEBHOOK_HEADERS.signature], options.acceptUnsigned === true) ??
		checkAge(header(headers, WEBHOOK_HEADERS.timestamp), options.maxAgeSeconds);
	if (refusal) return answer(refusal);

	const decoded = decodeBody(rawBody, header(headers, 'content-type'));
	if ('unsupportedCharset' in decoded) {
		return answer({
			status: 415,
			message: `Content-Type names charset ${clip(decoded.unsupportedCharset)}, which this node cannot decode (UTF-8, UTF-16LE and ISO-8859-1 are)`,
		});
	}
	const parsed = parseEnvelope(decoded.text);
	if ('problem' in parsed) return answer({ status: 400, message: parsed.problem });
	const { envelope } = parsed;

	const events = this.getNodeParameter('events', []) as string[];
	if (!events.includes(envelope.event)) {
		return answer({ status: 200, message: `Event ${clip(envelope.event)} is not one this workflow listens to; dropped` });
	}
	// The signed body is the one source: the unsigned X-Webhook-Environment header never admits or drops.
	const environment = typeof envelope.environment === 'string' ? envelope.environment : undefined;
	const wanted = this.getNodeParameter('environment', 'production') as string;
	let notTaken: string | undefined;
	if (wanted !== 'both' && environment !== wanted) {
		notTaken =
			environment === undefined
				? 'The signed body names no environment, so only a workflow whose Environment is Both takes it; dropped'
				: `Deliveries from environment ${clip(environment)} are not taken by this workflow (Environment: ${wanted}); dropped`;
		// While the editor listens for a test event the delivery still shows, saying why the active
		// workflow drops it: otherwise nothing at all appears in n8n.
		if (this.getMode() !== 'manual') return answer({ status: 200, message: notTaken });
	}

	// Test executions ("Listen for test event") neither drop nor record deliveries.
	const keys =
		options.deduplicate !== false && this.getMode() !== 'manual' ? deliveryKeys(envelope, options.dropRepeatedEvents !== false) : [];
	const memory = nodeMemory(this.getWorkflow().id, this.getNode().id);
	let claim: Claim | undefined;
	if (keys.length > 0) {
		const label = `Delivery ${clip(String(envelope.delivery_id))} (${clip(environment ?? 'no environment')})`;
		const stored = new Set(storedKeys(this.getWorkflowStaticData('node')));
		if (keys.some((key) => stored.has(key))) {
			return answer({ status: 200, message: `${label} was already processed; dropped` });
		}
		for (;;) {
			if (keys.some((key) => memory.hasRun(key))) return answer({ status: 200, message: `${label} was already processed; dropped` });
			const now = Date.now();
			const held = memory.claimOf(keys, now);
			if (held === undefined) {
				// No await between the check and the claim: a copy arriving at the same moment sees it.
				claim = memory.claim(keys, now);
				watchAnswer(this.getResponseObject(), memory, keys, claim);
				break;
			}
			// A copy on its way already: answer as its own answer tells, or take over when it failed.
			if (await held.outcome) return answer({ status: 200, message: `${label} was already processed; dropped` });
		}
	}

	const item: INodeExecutionData = { json: { ...envelope } };
	addStatusTexts(item.json);
	const reading = timestampReading(header(headers, WEBHOOK_HEADERS.timestamp));
	if (reading !== undefined) item.json.timestampHeaderZone = reading.zone;
	if (notTaken !== undefined) item.json.notTakenWhenActive = notTaken.replace(/; dropped$/, ': the active workflow answers 200 and drops it');
	try {
		if (envelope.event === 'rr.created' && typeof envelope.data === 'object' && envelope.data !== null && !Array.isArray(envelope.data)) {
			await attachReturnReceipt.call(this, item, envelope.data as IDataObject, options.binaryPropertyName || 'data');
		}
	} catch (error) {
		// n8n answers 500 and the service retries: the retry must not be taken for a duplicate.
		if (claim !== undefined) memory.settle(keys, claim, false);
		throw new NodeOperationError(this.getNode(), error as Error, {
			description: 'The return receipt of this delivery could not be stored; the service will retry it.',
		});
	}
	if (options.includeHeaders) item.json.headers = { ...headers };
	return { workflowData: [[item]] };
}
