import type { INodeProperties } from 'n8n-workflow';

/** Batching's fields: Items per Batch and Batch Interval. */
const batchValues: INodeProperties[] = [
	{
		displayName: 'Items per Batch',
		name: 'batchSize',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 50,
		description: 'The most requests in flight at once',
	},
	{
		displayName: 'Batch Interval (Ms)',
		name: 'batchInterval',
		type: 'number',
		typeOptions: { minValue: 0 },
		default: 1000,
		description: 'At most "Items per Batch" requests start within any interval this long, whatever they are: a check, a price, a send or a retry. 0 for no pause.',
	},
];

/** Batching's values when added, as the editor shows them; the run applies the same. */
export const BATCH = { size: batchValues[0].default as number, interval: batchValues[1].default as number };

/** The longest Timeout the option accepts (timers hold at most 2^31 - 1 ms). */
export const MAX_TIMEOUT_MS = 3_600_000;

/** Node-wide request options, shown for every operation (like n8n's HTTP Request node). */
export const requestOptions: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	description: 'How the node sends its requests: several items at a time, extra fields, time limit',
	options: [
		{
			displayName: 'Batching',
			name: 'batching',
			placeholder: 'Add Batching',
			type: 'fixedCollection',
			typeOptions: { multipleValues: false },
			default: { batch: {} },
			description:
				'Send several items at a time: at most "Items per Batch" requests are in flight, and the next item starts as soon as one ends. Output order always equals input order. Without batching, items go one after another.',
			options: [
				{
					displayName: 'Batching',
					name: 'batch',
					values: batchValues,
				},
			],
		},
		{
			// Names the spec leaves unnamed, and fields the service may add, sent as they are.
			displayName: 'Extra Parameters',
			name: 'extraParameters',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true },
			placeholder: 'Add Parameter',
			default: {},
			description:
				"Further fields to send, for names this node does not offer: query parameters on reads and cancels, body fields on sends and updates. A name given here replaces the node's own value and is checked like it; the security token cannot be set here.",
			options: [
				{
					displayName: 'Parameter',
					name: 'parameter',
					values: [
						{ displayName: 'Name', name: 'name', type: 'string', default: '', description: 'The field name as the service spells it' },
						{ displayName: 'Value', name: 'value', type: 'string', default: '', description: 'The value to send, as text' },
					],
				},
			],
		},
		{
			displayName: 'Timeout (Ms)',
			name: 'timeout',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: MAX_TIMEOUT_MS },
			default: 60000,
			description:
				'How long the whole operation may take, from sending the request to the last byte of the answer, including any retries of a read and the pauses between them (at most one hour). A write that times out is not sent again: the error tells you how to check whether it went through.',
		},
	],
};
