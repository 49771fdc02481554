/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
/** Whole workflows, one node after a start node, and a node as an agent's tool, through n8n's WorkflowExecute. */
import './env';

import { randomUUID } from 'node:crypto';

import { Container } from '@n8n/di';
import { BinaryDataService, ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';
import type { IDataObject, INode, INodeExecutionData, WorkflowExecuteMode } from 'n8n-workflow';

import { hooksOf } from './host.cjs';
import { additionalDataFor, credentialRefs, ensureBinaryDataService, resultOf, toWorkflow, type CredentialsByType, type RunResult, type WorkflowJson } from './setup';

export interface RunWorkflowOptions {
	workflow: WorkflowJson;
	credentials?: CredentialsByType;
	/** Defaults to the first node without incoming connections. */
	startNode?: string;
	mode?: WorkflowExecuteMode;
	staticData?: IDataObject;
	/** A fresh id by default; `null` runs without one, as some callers of n8n's engine do. */
	executionId?: string | null;
}

/** Runs a whole workflow from its start node and returns the run data of every node. */
export async function runWorkflow(options: RunWorkflowOptions): Promise<RunResult> {
	await ensureBinaryDataService();
	const mode = options.mode ?? 'manual';
	const workflow = toWorkflow(options.workflow, options.staticData);
	const executionId = options.executionId === undefined ? randomUUID() : (options.executionId ?? '');
	const hooks = hooksOf(ExecutionLifecycleHooks, workflow, executionId, mode);
	const additionalData = additionalDataFor(options.credentials ?? {}, hooks, executionId, workflow.id);
	const startNodeName =
		options.startNode ??
		Object.values(workflow.nodes).find((node) => workflow.getParentNodes(node.name).length === 0)?.name;
	const startNode = startNodeName ? workflow.getNode(startNodeName) : null;
	if (!startNode) throw new Error('The workflow has no start node');
	const run = await new WorkflowExecute(additionalData, mode).run({ workflow, startNode });
	return resultOf(run);
}

/** Items given to the test start node: JSON plus optional binary files as raw buffers. */
export interface TestItem {
	json: IDataObject;
	binary?: Record<string, { data: Buffer; fileName?: string; mimeType?: string }>;
	/** This item refers to the files stored for item N (one file, several items, as after a fan-out). */
	binaryOf?: number;
}

/**
 * Runs one node of ours after a start node that emits `items` (binary data is stored through n8n's
 * binary data service, like a real upstream node would). Returns the node's output and the run.
 */
export async function runNode(options: {
	type: string;
	parameters: IDataObject;
	items?: TestItem[];
	credentials?: CredentialsByType;
	/** On Error: Continue, into the regular output or (`'errorOutput'`) the error output. */
	continueOnFail?: boolean | 'errorOutput';
	/** The node's Retry On Fail settings, which n8n's engine applies itself. */
	retry?: Pick<INode, 'maxTries' | 'waitBetweenTries'>;
	executionId?: string | null;
}): Promise<RunResult & { items: INodeExecutionData[] }> {
	const result = await runWorkflow({
		workflow: {
			nodes: [
				{ name: 'Start', type: 'test.items', parameters: { items: JSON.stringify(serializeItems(options.items ?? [{ json: {} }])) } },
				{
					name: 'Node',
					type: options.type,
					parameters: options.parameters as INode['parameters'],
					credentials: credentialRefs(options.credentials),
					onError: options.continueOnFail === 'errorOutput' ? 'continueErrorOutput' : options.continueOnFail ? 'continueRegularOutput' : 'stopWorkflow',
					...(options.retry ? { retryOnFail: true, ...options.retry } : {}),
				},
			],
			connections: { Start: { main: [[{ node: 'Node', type: 'main', index: 0 }]] } },
		},
		credentials: options.credentials,
		executionId: options.executionId,
	});
	return { ...result, items: result.output('Node') };
}

/**
 * Runs one node of ours as an AI agent's tool: a test agent calls it once through n8n's own tool
 * plumbing with `args`, which the node's `$fromAI()` parameters read. Returns what the agent got.
 */
export async function runAsTool(options: { type: string; parameters: IDataObject; args: IDataObject; credentials?: CredentialsByType }) {
	const result = await runWorkflow({
		workflow: {
			nodes: [
				{ name: 'Start', type: 'test.items', parameters: { items: '[{"json":{}}]' } },
				{ name: 'Agent', type: 'test.agent', parameters: { args: JSON.stringify(options.args) } },
				{ name: 'Tool', type: `${options.type}Tool`, parameters: options.parameters as INode['parameters'], credentials: credentialRefs(options.credentials) },
			],
			connections: {
				Start: { main: [[{ node: 'Agent', type: 'main', index: 0 }]] },
				Tool: { ai_tool: [[{ node: 'Agent', type: 'ai_tool', index: 0 }]] },
			},
		},
		credentials: options.credentials,
	});
	const [item] = result.output('Agent');
	return { ...result, answer: item?.json.answer as string | undefined, thrown: item?.json.thrown as string | undefined };
}

/** The items as the start node takes them: each file's bytes as base64. */
function serializeItems(items: TestItem[]) {
	return items.map(({ json, binaryOf, binary }) => ({
		json,
		binaryOf,
		binary: binary && Object.fromEntries(Object.entries(binary).map(([key, { data, fileName, mimeType }]) => [key, { base64: data.toString('base64'), fileName, mimeType }])),
	}));
}

/** Reads a binary property of an output item back as bytes, wherever n8n stored it. */
export async function binaryBuffer(item: INodeExecutionData, property = 'data'): Promise<Buffer> {
	const binary = item.binary?.[property];
	if (!binary) throw new Error(`The item has no binary property "${property}"`);
	return await Container.get(BinaryDataService).getAsBuffer(binary);
}
