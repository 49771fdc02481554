import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { requestOptions } from './actions/options';
import { RESOURCES, resourceProperties, toolResourceProperties } from './actions/resources';
import { runOperation } from './actions/run';
import { listSearch, resourceMapping } from './methods';

const CHAT_RESOURCES = ['chatMessage', 'chatSender', 'chatTemplate'];

/** The operation's action under the node's name: a chain of comparisons, since n8n's expressions do not index an object by a computed key. */
const SUBTITLE = `={{ ${Object.entries(RESOURCES)
	.flatMap(([resource, { operations }]) =>
		Object.entries(operations).map(
			([operation, { option }]) => `$parameter["resource"] + ":" + $parameter["operation"] === "${resource}:${operation}" ? ${JSON.stringify(option.action)} : `,
		),
	)
	.join('')}"" }}`;

/** The AI tool n8n makes of this node, which "Set Automatically" describes by its action alone: so its actions say what spends credits. */
const TOOL = {
	description:
		"Send registered letters, telegrams and chat messages through the postal-mail service, and read or cancel registered e-mail. Sending a letter or a chat message spends the account's credits; Get Price spends nothing.",
	properties: [...toolResourceProperties, requestOptions],
};

export class PostalService implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Postal Service',
		name: 'postalService',
		icon: { light: 'file:../../icons/postalService.svg', dark: 'file:../../icons/postalService.dark.svg' },
		group: ['output'],
		version: 1,
		subtitle: SUBTITLE,
		description: 'Send registered letters, telegrams and chat messages through the postal-mail service, and track them',
		defaults: { name: 'Postal Service' },
		usableAsTool: { replacements: TOOL },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: 'postalServiceApi',
				required: true,
				displayOptions: { hide: { resource: CHAT_RESOURCES } },
			},
			{
				name: 'postalServiceChatApi',
				required: true,
				displayOptions: { show: { resource: CHAT_RESOURCES } },
			},
		],
		properties: [...resourceProperties, requestOptions],
	};

	methods = { listSearch, resourceMapping };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		// A tool answers its agent with the failure unless Stop Workflow is set, as n8n 2.41 does (older releases stop or lose the reason).
		const { type, onError } = this.getNode();
		return await runOperation(this, this.continueOnFail() || (type.endsWith('Tool') && onError !== 'stopWorkflow'));
	}
}
