/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
/**
 * n8n's engine as the harness loads it: binary data and the processed-data store started as n8n's
 * server starts them, the node and credential types registered, and a workflow, its execution's
 * additional data and its run result made the way n8n makes them (the parts n8n's server gives
 * its engine come from host.cjs, which the release runner uses too).
 */
import './env';

import { Container } from '@n8n/di';
import { BinaryDataService, DataDeduplicationService, type ExecutionLifecycleHooks } from 'n8n-core';
import type { ICredentialDataDecryptedObject, ICredentialType, IConnections, IDataObject, INode, INodeExecutionData, INodeType, INodeTypes, IRun, ITaskData, IWorkflowExecuteAdditionalData } from 'n8n-workflow';
import { Expression, ICredentialsHelper, NodeHelpers, Workflow } from 'n8n-workflow';

import { MemoryProcessedDataStore } from '../processedData.cjs';
import { loadTypes } from '../registry';
import { additionalDataOf, credentialsHelperOf, nodeTypesOf, workflowOf } from './host.cjs';

export interface WorkflowJson {
	name?: string;
	nodes: Array<Omit<INode, 'id' | 'position' | 'typeVersion'> & Partial<Pick<INode, 'id' | 'position' | 'typeVersion'>>>;
	connections: IConnections;
}

/** Credentials by credential type name, as the user would have filled them in. */
export type CredentialsByType = Record<string, ICredentialDataDecryptedObject>;

export interface RunResult {
	run: IRun;
	/** Items of the first output of a node's last run (empty when it did not run). */
	output(nodeName: string, outputIndex?: number): INodeExecutionData[];
	/** The task data of a node's last run. */
	task(nodeName: string): ITaskData | undefined;
	/** The error of the run, if any. */
	error: IRun['data']['resultData']['error'];
	/** The whole run data, serialized as n8n stores it. */
	serialized: string;
}

/** n8n's processed-data store as the engine reaches it (`this.helpers.checkProcessedAndRecord`). */
export const processedData = new MemoryProcessedDataStore();

let binaryDataReady: Promise<void> | undefined;
/** Starts what n8n's server starts before any run, once per process, and loads the registry. */
export async function ensureBinaryDataService() {
	binaryDataReady ??= (async () => {
		await Container.get(BinaryDataService).init();
		// n8n's server does this at start (`initDataDeduplicationService`) with its database store.
		await DataDeduplicationService.init(processedData);
	})();
	await binaryDataReady;
	await loadRegistry();
}

// In a real n8n every read is a database query and a decryption: benchmarks count them.
let credentialReads = 0;

/** How many times nodes have read credentials through the harness in this process. */
export function credentialReadCount(): number {
	return credentialReads;
}

let registry: { nodeTypes: INodeTypes; credentialTypes: Map<string, ICredentialType> } | undefined;
let registryLoading: Promise<void> | undefined;
async function loadRegistry() {
	registryLoading ??= (async () => {
		const { nodes, credentials } = await loadTypes();
		registry = { nodeTypes: nodeTypesOf(nodes, NodeHelpers), credentialTypes: credentials };
	})();
	await registryLoading;
}
export function getRegistry() {
	if (!registry) throw new Error('The node registry is not loaded yet');
	return registry;
}

/** The node type as the harness registered it (to read descriptions, call methods). */
export async function nodeType(name: string): Promise<INodeType> {
	await loadRegistry();
	return getRegistry().nodeTypes.getByNameAndVersion(name);
}

/** The credential type as the harness registered it. */
export async function credentialType(name: string): Promise<ICredentialType | undefined> {
	await loadRegistry();
	return getRegistry().credentialTypes.get(name);
}

/** A node's references to the test's credentials, one per type, named after it. */
export function credentialRefs(credentials: CredentialsByType = {}): INode['credentials'] {
	return Object.fromEntries(Object.keys(credentials).map((type) => [type, { id: type, name: type }]));
}

/** A workflow of the harness's registry, from the JSON a test writes. */
export function toWorkflow(json: WorkflowJson, staticData?: IDataObject, workflowId?: string): Workflow {
	return workflowOf(Workflow, getRegistry().nodeTypes, json, { id: workflowId, staticData });
}

/** The additional data of one execution, with the test's credentials behind n8n's credentials helper. */
export function additionalDataFor(credentials: CredentialsByType, hooks: ExecutionLifecycleHooks, executionId: string, workflowId: string): IWorkflowExecuteAdditionalData {
	const credentialsHelper = credentialsHelperOf(ICredentialsHelper, getRegistry().credentialTypes, credentials, {
		resolve: (expression, data) => Expression.resolveWithoutWorkflow(expression, { $credentials: data }),
		onRead: () => credentialReads++,
	});
	return additionalDataOf({ credentialsHelper, hooks, executionId, workflowId });
}

export function resultOf(run: IRun): RunResult {
	const runData = run.data.resultData.runData;
	const task = (name: string) => runData[name]?.[runData[name].length - 1];
	return {
		run,
		task,
		output: (name, outputIndex = 0) => task(name)?.data?.main?.[outputIndex] ?? [],
		error: run.data.resultData.error,
		// On demand: with many items or files in memory the string is large, and benchmarks never read it.
		get serialized() {
			return JSON.stringify(run);
		},
	};
}
