/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

interface SerializedItem {
	json: INodeExecutionData['json'];
	binary?: Record<string, { base64: string; fileName?: string; mimeType?: string }>;
	binaryOf?: number;
}

/**
 * Start node of test workflows: emits the items given in its `items` parameter (JSON), storing
 * binary files through n8n's binary helpers so downstream nodes read them as they would in n8n.
 */
export class TestItemsNode implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Test Items',
		name: 'testItems',
		group: ['trigger'],
		version: 1,
		description: 'Emits fixed items (tests only)',
		defaults: { name: 'Start' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		properties: [{ displayName: 'Items', name: 'items', type: 'string', default: '[]' }],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = JSON.parse(this.getNodeParameter('items', 0) as string) as SerializedItem[];
		const output: INodeExecutionData[] = [];
		for (const [index, item] of items.entries()) {
			const out: INodeExecutionData = { json: item.json, pairedItem: { item: index } };
			const shared = item.binaryOf === undefined ? undefined : output[item.binaryOf]?.binary;
			if (shared) {
				out.binary = Object.fromEntries(Object.entries(shared).map(([key, meta]) => [key, { ...meta }]));
			} else if (item.binary) {
				out.binary = {};
				for (const [key, file] of Object.entries(item.binary)) {
					out.binary[key] = await this.helpers.prepareBinaryData(
						Buffer.from(file.base64, 'base64'),
						file.fileName,
						file.mimeType,
					);
				}
			}
			output.push(out);
		}
		return [output];
	}
}

/** A node after the trigger in test workflows: passes its items on, so a test sees whether it ran. */
export class TestPassThroughNode implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Test Pass Through',
		name: 'testPassThrough',
		group: ['transform'],
		version: 1,
		description: 'Passes items on (tests only)',
		defaults: { name: 'After' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [this.getInputData().map((item, index) => ({ ...item, pairedItem: { item: index } }))];
	}
}

/**
 * The tool n8n makes of a node marked `usableAsTool` (its replacements applied, no main input, an
 * AI tool output), as n8n's server registers it beside the node under the name `<name>Tool`.
 */
export function toolVariant(nodeType: INodeType): INodeType {
	const { usableAsTool, ...description } = nodeType.description;
	const replacements = typeof usableAsTool === 'object' ? usableAsTool.replacements : {};
	return {
		description: { ...description, ...replacements, name: `${description.name}Tool`, inputs: [], outputs: [NodeConnectionTypes.AiTool] } as INodeTypeDescription,
		execute: nodeType.execute,
		methods: nodeType.methods,
	};
}

/**
 * An agent of test workflows: takes the tool connected to it through n8n's own tool plumbing and
 * calls it once with the arguments of its `args` parameter (JSON), as a model's tool call would.
 * Outputs what the agent got: the tool's answer, or the error it threw.
 */
export class TestAgentNode implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Test Agent',
		name: 'testAgent',
		group: ['transform'],
		version: 1,
		description: 'Calls its tool once (tests only)',
		defaults: { name: 'Agent' },
		inputs: [NodeConnectionTypes.Main, { type: NodeConnectionTypes.AiTool, displayName: 'Tool', required: true, maxConnections: 1 }],
		outputs: [NodeConnectionTypes.Main],
		properties: [{ displayName: 'Args', name: 'args', type: 'string', default: '{}' }],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const tool = (await this.getInputConnectionData(NodeConnectionTypes.AiTool, 0)) as { invoke(args: unknown): Promise<unknown> };
		try {
			return [[{ json: { answer: (await tool.invoke(JSON.parse(this.getNodeParameter('args', 0) as string))) as string } }]];
		} catch (error) {
			return [[{ json: { thrown: (error as Error).message } }]];
		}
	}
}
