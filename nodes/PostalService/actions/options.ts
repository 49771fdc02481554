import type { INodeProperties } from 'n8n-workflow';

/** Node-wide request options, shown for every operation (like n8n's HTTP Request node). */
export const requestOptions: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
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
					values: [
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
							description: 'Measured between starts: each item starts at least this many milliseconds after the item "Items per Batch" places before it started, so no more than "Items per Batch" requests start within any such interval. 0 for no pause.',
						},
					],
				},
			],
		},
		{
			displayName: 'Timeout (Ms)',
			name: 'timeout',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 3600000 },
			default: 60000,
			description:
				'How long the whole operation may take, from sending the request to the last byte of the answer, including any retries of a read and the pauses between them (at most one hour). A write that times out is not sent again: the error tells you how to check whether it went through.',
		},
	],
};
