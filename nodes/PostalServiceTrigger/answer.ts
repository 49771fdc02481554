/**
 * When the service gets its answer. It waits 30 seconds, pauses the endpoint after 3 failed
 * deliveries and never retries a 2xx, so the answer must come quickly and must mean the delivery
 * will run. Where that point lies depends on how n8n runs, which a node cannot see: the user says.
 */
import type { INodeProperties } from 'n8n-workflow';

export const ANSWER_FIELD = 'answer';

export const ANSWER = {
	/** From the trigger's first step in the execution, once the delivery is recorded there. */
	fromExecution: 'fromExecution',
	/** By n8n, once it has stored the execution (and in queue mode put it in the queue). */
	whenQueued: 'whenQueued',
} as const;

/**
 * n8n's own webhook response mode, read from the node's parameter when a request arrives:
 * "responseNode" holds the request until the execution answers, "onReceived" lets n8n answer.
 */
export const RESPONSE_MODE = `={{$parameter["${ANSWER_FIELD}"] === "${ANSWER.whenQueued}" ? "onReceived" : "responseNode"}}`;

// Literal values, as n8n's linter reads them; they are the values of ANSWER.
export const answerProperties: INodeProperties[] = [
	{
		displayName: 'Answer the Service',
		name: 'answer',
		type: 'options',
		options: [
			{
				name: 'From the Execution (One Process)',
				value: 'fromExecution',
				description:
					'The trigger answers from its first step in the execution, once it has recorded the delivery. In queue mode that waits for a free worker.',
			},
			{
				name: 'When Queued (Queue Mode)',
				value: 'whenQueued',
				description:
					'Answered by n8n as soon as it has stored the execution and put it in the queue, whatever the workers are doing',
			},
		],
		default: 'fromExecution',
		description:
			'When the service gets its 200. It waits 30 seconds and pauses the endpoint after 3 failed deliveries.',
	},
	{
		displayName:
			'Running n8n in queue mode (workers)? Choose "When Queued" above: with "From the Execution" the service waits for a free worker, and busy workers make it give up and pause the endpoint.',
		name: 'queueModeNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { answer: ['fromExecution'] } },
	},
];
