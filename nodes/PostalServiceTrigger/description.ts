import type { INodeProperties } from 'n8n-workflow';

import { byName } from '../PostalService/contract/lists';
import { ENVIRONMENTS, WEBHOOK_EVENT_NAMES, WEBHOOK_EVENTS } from './webhookLists';

/** The options the trigger offers (its Options collection). */
export interface TriggerOptions {
	acceptUnsigned?: boolean;
	binaryPropertyName?: string;
	deduplicate?: boolean;
	dropRepeatedEvents?: boolean;
	includeHeaders?: boolean;
	maxAgeSeconds?: number;
}

export const triggerProperties: INodeProperties[] = [
	{
		displayName:
			"The interface shows no API to register webhooks: in the service's panel open the Webhooks section, add an endpoint with this node's Production URL, choose the same events, and give it the signing secret you keep in this node's credential. Activate (publish) the workflow, then press the panel's test button.",
		name: 'setupNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Events',
		name: 'events',
		type: 'multiOptions',
		required: true,
		options: [...WEBHOOK_EVENTS].sort(byName).map(({ name, value, description }) => ({ name, value, description })),
		default: [...WEBHOOK_EVENT_NAMES],
		description:
			'Events that start the workflow. Other events are acknowledged (200) and dropped, so the service does not retry them.',
	},
	{
		displayName: 'Environment',
		name: 'environment',
		type: 'options',
		// Listed, not mapped, so that n8n's lint can check the default; a test holds them to the contract.
		options: [
			{ name: ENVIRONMENTS[0].name, value: ENVIRONMENTS[0].value },
			{ name: ENVIRONMENTS[1].name, value: ENVIRONMENTS[1].value },
			{ name: 'Both', value: 'both' },
		],
		default: 'production',
		description:
			'Which environment\'s deliveries start the workflow, as the signed body names it. Deliveries from the other one are acknowledged (200) and dropped, and nothing shows in the n8n executions list; while the editor listens for a test event they still show, saying why the active workflow would drop them. The local sandbox and the test environment send Test Environment (Homolog) deliveries. A delivery whose body names no environment starts the workflow only with Both.',
	},
	{
		displayName:
			'Only production deliveries start this workflow. Test Environment (Homolog) deliveries, which the local sandbox and the test environment send, are answered 200 and dropped without a trace in the n8n executions list (a test event the editor listens for still shows, flagged): to run the workflow on them, choose Test Environment (Homolog) or Both.',
		name: 'productionOnlyNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { environment: ['production'] } },
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
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
					'Whether a delivery whose delivery_id (in its environment) already ran runs nothing after the trigger: its execution ends at the trigger with no item. The service delivers at least once and retries.',
			},
			{
				displayName: 'Drop Repeats Under a New Delivery ID',
				name: 'dropRepeatedEvents',
				type: 'boolean',
				default: true,
				displayOptions: { hide: { deduplicate: [false] } },
				description:
					"Whether a delivery is also dropped when its body, delivery_id aside, is one that already ran: a retry repeats the event's timestamp (when it was generated) and its data, whether or not it keeps its delivery_id. Events generated in the same second with the same data count as one. Test events are never dropped this way.",
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
					'Refuse (401) a delivery whose X-Webhook-Timestamp is further than this from the current time, in either direction. The header is read as São Paulo time or as UTC, whichever is nearer (the item says which, in timestampHeaderZone). That header is not signed, so this stops stale or naively replayed deliveries, not a determined replay; duplicate dropping does that.',
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
];
