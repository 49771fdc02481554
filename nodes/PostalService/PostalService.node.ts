import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { requestOptions } from './actions/options';
import { RESOURCES, resourceProperties, toolResourceProperties } from './actions/resources';
import { runOperation } from './actions/run';
import { listSearch, resourceMapping } from './methods';

const CHAT_RESOURCES = ['chatMessage', 'chatSender', 'chatTemplate'];

/**
 * The canvas shows the operation's action under the node's name. A chain of comparisons, since n8n's
 * expressions do not index an object by a computed key.
 */
const SUBTITLE = `={{ ${Object.entries(RESOURCES)
	.flatMap(([resource, { operations }]) =>
		Object.entries(operations).map(
			([operation, { option }]) => `$parameter["resource"] + ":" + $parameter["operation"] === "${resource}:${operation}" ? ${JSON.stringify(option.action)} : `,
		),
	)
	.join('')}"" }}`;

/**
 * What n8n changes in the AI tool it makes of this node. Left on "Set Automatically", n8n describes
 * a tool by its operation's action alone, so the tool's actions say which operations spend credits.
 */
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
		// Continue On Fail is applied per item by the run: a failing item becomes an output item. A tool
		// answers its agent with the failure, as n8n 2.41 does by default (older releases stop the
		// execution or lose the reason); an explicit Stop Workflow still stops.
		const { type, onError } = this.getNode();
		return await runOperation(this, this.continueOnFail() || (type.endsWith('Tool') && onError !== 'stopWorkflow'));
	}
}
