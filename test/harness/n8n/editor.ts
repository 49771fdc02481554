/** What the editor asks of a node (its searches and mappers) and a credential's Test, through n8n-core's contexts. */
import './env';

import { randomUUID } from 'node:crypto';

import { ExecuteContext, ExecutionLifecycleHooks, LoadOptionsContext, RoutingNode } from 'n8n-core';
import type { ICredentialDataDecryptedObject, IDataObject, INode, INodeExecutionData, INodeListSearchResult, INodeType, INodeTypes, ResourceMapperFields } from 'n8n-workflow';
import { createEmptyRunExecutionData, Workflow } from 'n8n-workflow';

import { additionalDataFor, credentialRefs, ensureBinaryDataService, getRegistry, toWorkflow, type CredentialsByType } from './setup';

type EditorCall = { type: string; method: string; parameters: IDataObject; credentials?: CredentialsByType };

/** Calls a node's editor method of `kind` as the editor does, in a LoadOptionsContext over the node's current parameters. */
async function callEditorMethod(kind: 'listSearch' | 'resourceMapping', options: EditorCall, ...args: unknown[]): Promise<unknown> {
	await ensureBinaryDataService();
	const methods = getRegistry().nodeTypes.getByNameAndVersion(options.type).methods?.[kind] as Record<string, (...args: unknown[]) => Promise<unknown>> | undefined;
	const method = methods?.[options.method];
	if (!method) throw new Error(`${options.type} has no ${kind} method "${options.method}"`);
	const workflow = toWorkflow({
		nodes: [{ name: 'Node', type: options.type, parameters: options.parameters as INode['parameters'], credentials: credentialRefs(options.credentials) }],
		connections: {},
	});
	const node = workflow.getNode('Node')!;
	const executionId = randomUUID();
	const hooks = new ExecutionLifecycleHooks('manual', executionId, { id: workflow.id } as never);
	const additionalData = additionalDataFor(options.credentials ?? {}, hooks, executionId, workflow.id);
	additionalData.currentNodeParameters = node.parameters;
	return await method.call(new LoadOptionsContext(workflow, node, additionalData, `parameters.${options.method}`), ...args);
}

/** Calls a resource locator's searchListMethod as the editor does while the user types `filter`. */
export async function listSearch(options: EditorCall & { filter?: string }): Promise<INodeListSearchResult> {
	return (await callEditorMethod('listSearch', options, options.filter)) as INodeListSearchResult;
}

/** Calls a resource mapper's resourceMapperMethod as the editor does when the mapper opens. */
export async function resourceMapping(options: EditorCall): Promise<ResourceMapperFields> {
	return (await callEditorMethod('resourceMapping', options)) as ResourceMapperFields;
}

/**
 * Runs a credential's Test the way n8n 2.41's CredentialsTester does: its test request through
 * n8n-core's RoutingNode (with the credential's authenticate), then its `rules` on the answer.
 */
export async function runCredentialTest(
	typeName: string,
	data: ICredentialDataDecryptedObject,
): Promise<{ status: 'OK' | 'Error'; message: string }> {
	await ensureBinaryDataService();
	const test = getRegistry().credentialTypes.get(typeName)?.test;
	if (!test) throw new Error(`${typeName} has no test request`);
	const testType: INodeType = {
		description: {
			displayName: 'Temp',
			name: 'temp',
			group: ['transform'],
			version: 1,
			description: '',
			defaults: {},
			inputs: [],
			outputs: [],
			credentials: [{ name: typeName, required: true }],
			properties: [{ displayName: 'Temp', name: 'temp', type: 'string', routing: { request: test.request }, default: '' }],
		},
	};
	const node: INode = {
		id: 'temp',
		name: 'Temp-Node',
		type: 'temp',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
		credentials: { [typeName]: { id: typeName, name: typeName } },
	};
	const workflow = new Workflow({
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: { getByName: () => testType, getByNameAndVersion: () => testType, getKnownTypes: () => ({}) } as INodeTypes,
	});
	const executionId = randomUUID();
	const hooks = new ExecutionLifecycleHooks('internal', executionId, { id: workflow.id } as never);
	const additionalData = additionalDataFor({ [typeName]: data }, hooks, executionId, String(workflow.id));
	const context = new ExecuteContext(workflow, node, additionalData, 'internal', createEmptyRunExecutionData(), 0, [], { main: [[{ json: {} }]] }, { node, data: {}, source: null }, []);
	let response: INodeExecutionData[][] | null | undefined;
	try {
		response = (await new RoutingNode(context, testType, { id: typeName, name: typeName, type: typeName, data }).runNode()) as INodeExecutionData[][];
	} catch (error) {
		const status = (error as { cause?: { response?: { status?: number } } }).cause?.response?.status;
		for (const rule of test.rules ?? []) {
			if (rule.type === 'responseCode' && status === rule.properties.value) return { status: 'Error', message: String(rule.properties.message) };
		}
		return { status: 'Error', message: status ? `HTTP ${status}` : (error as Error).message };
	}
	const json = response?.[0]?.[0]?.json as unknown;
	for (const rule of test.rules ?? []) {
		if (rule.type !== 'responseSuccessBody') continue;
		const { key, value, message } = rule.properties as { key: string; value: unknown; message: string };
		const found = key.split('.').reduce<unknown>((at, part) => (at !== null && typeof at === 'object' ? (at as IDataObject)[part] : undefined), json);
		if (found === value) return { status: 'Error', message };
	}
	return { status: 'OK', message: 'Connection successful!' };
}
