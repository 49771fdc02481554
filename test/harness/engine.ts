/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
/**
 * Runs workflows through n8n's own engine (n8n-core's WorkflowExecute) in this process, with our
 * node types registered and credentials supplied by the test. A webhook node can be started through
 * a real WebhookContext. Nothing of our code is mocked: the nodes make real HTTP requests.
 *
 * n8n-workflow must be one copy for n8n-core and for our nodes (instanceof checks, the expression
 * engine); vitest.config.ts aliases it to the CommonJS build n8n-core requires.
 */
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

// Every execution context writes $N8N_USER_FOLDER/.n8n/config: keep it out of the home folder.
// The test run's global setup provides one folder (and removes it); this is the fallback for
// other callers such as benchmarks, which remove their own.
// The reliability runner provides its own (postal-reliability-).
if (!/postal-(harness|reliability)-/.test(process.env.N8N_USER_FOLDER ?? '')) {
	process.env.N8N_USER_FOLDER = mkdtempSync(path.join(tmpdir(), 'postal-harness-'));
}
process.env.N8N_RUNNERS_ENABLED ??= 'false';
// Files on disk, as n8n 3 keeps them (its in-memory mode is gone); a benchmark may ask for another.
process.env.N8N_DEFAULT_BINARY_DATA_MODE ??= 'filesystem';

import { Container } from '@n8n/di';
import {
	BinaryDataService,
	DataDeduplicationService,
	ExecuteContext,
	ExecutionLifecycleHooks,
	LoadOptionsContext,
	RoutingNode,
	WebhookContext,
	WorkflowExecute,
} from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	IConnections,
	IDataObject,
	IHttpRequestOptions,
	INode,
	INodeExecutionData,
	INodeListSearchResult,
	INodePropertyOptions,
	INodeType,
	INodeTypes,
	IRun,
	IRunExecutionData,
	ITaskData,
	IVersionedNodeType,
	IWebhookData,
	IWebhookResponseData,
	IWorkflowExecuteAdditionalData,
	ResourceMapperFields,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import {
	createEmptyRunExecutionData,
	createRunExecutionData,
	Expression,
	ICredentialsHelper,
	NodeHelpers,
	Workflow,
} from 'n8n-workflow';

import { MemoryProcessedDataStore } from './processedData';
import { loadCredentialTypes, loadNodeTypes } from './registry';

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
async function ensureBinaryDataService() {
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

class TestCredentialsHelper extends ICredentialsHelper {
	constructor(
		private readonly credentials: CredentialsByType,
		private readonly types: Map<string, ICredentialType>,
	) {
		super();
	}

	getParentTypes(name: string): string[] {
		const type = this.types.get(name);
		return type?.extends ?? [];
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	/** Applies the credential type's `authenticate` the way n8n does: a function, or generic properties. */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const type = this.types.get(typeName);
		const authenticate = type?.authenticate;
		if (!authenticate) return requestOptions;
		if (typeof authenticate === 'function') return await authenticate(credentials, requestOptions);
		if (authenticate.type !== 'generic') return requestOptions;
		const resolve = (value: unknown) =>
			typeof value === 'string' && value.startsWith('=')
				? Expression.resolveWithoutWorkflow(value.slice(1), { $credentials: credentials })
				: value;
		const target = requestOptions as unknown as Record<string, Record<string, unknown>>;
		for (const [where, entries] of Object.entries(authenticate.properties)) {
			if (where === 'auth') {
				const auth = entries as Record<string, unknown>;
				requestOptions.auth = {
					username: String(resolve(auth.username) ?? ''),
					password: String(resolve(auth.password) ?? ''),
				};
				continue;
			}
			target[where] = { ...(target[where] ?? {}) };
			for (const [key, value] of Object.entries(entries as Record<string, unknown>)) {
				target[where][key] = resolve(value);
			}
		}
		return requestOptions;
	}

	async preAuthentication() {
		return undefined;
	}

	async runPreAuthentication() {
		return undefined;
	}

	async getCredentials(): Promise<never> {
		throw new Error('getCredentials is not used by the harness');
	}

	async getDecrypted(
		_additionalData: IWorkflowExecuteAdditionalData,
		_nodeCredentials: unknown,
		type: string,
	): Promise<ICredentialDataDecryptedObject> {
		credentialReads++;
		const data = this.credentials[type];
		if (!data) throw new Error(`The test gave no credentials of type "${type}"`);
		return { ...data };
	}

	async updateCredentials() {}

	async updateCredentialsOauthTokenData() {}

	getCredentialsProperties(type: string) {
		return this.types.get(type)?.properties ?? [];
	}
}

class NodeTypes implements INodeTypes {
	constructor(private readonly types: Map<string, INodeType | IVersionedNodeType>) {}

	getByName(nodeType: string) {
		const type = this.types.get(nodeType);
		if (!type) throw new Error(`Unknown node type "${nodeType}"`);
		return type;
	}

	getByNameAndVersion(nodeType: string, version?: number): INodeType {
		return NodeHelpers.getVersionedNodeType(this.getByName(nodeType), version);
	}

	getKnownTypes() {
		return {};
	}
}

let registry: { nodeTypes: NodeTypes; credentialTypes: Map<string, ICredentialType> } | undefined;
let registryLoading: Promise<void> | undefined;
async function loadRegistry() {
	registryLoading ??= (async () => {
		registry = { nodeTypes: new NodeTypes(await loadNodeTypes()), credentialTypes: await loadCredentialTypes() };
	})();
	await registryLoading;
}
function getRegistry() {
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

function toWorkflow(json: WorkflowJson, staticData?: IDataObject, workflowId?: string): Workflow {
	const nodes: INode[] = json.nodes.map((node, index) => ({
		id: node.id ?? randomUUID(),
		position: node.position ?? [index * 220, 0],
		typeVersion: node.typeVersion ?? 1,
		...node,
		// Every credential a node names is resolved by type through the test's credentials.
		credentials: node.credentials,
	})) as INode[];
	return new Workflow({
		id: workflowId ?? randomUUID(),
		name: json.name ?? 'test workflow',
		nodes,
		connections: json.connections,
		active: false,
		nodeTypes: getRegistry().nodeTypes,
		staticData: staticData ?? {},
		settings: { executionOrder: 'v1' },
	});
}

function additionalDataFor(
	credentials: CredentialsByType,
	hooks: ExecutionLifecycleHooks,
	executionId: string,
	workflowId: string,
): IWorkflowExecuteAdditionalData {
	const base = 'http://127.0.0.1:5678';
	return {
		credentialsHelper: new TestCredentialsHelper(credentials, getRegistry().credentialTypes),
		hooks,
		executionId,
		workflowId,
		executeWorkflow: async () => {
			throw new Error('Sub-workflows are not used in these tests');
		},
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		currentNodeExecutionIndex: 0,
		restApiUrl: `${base}/rest`,
		instanceBaseUrl: base,
		formBaseUrl: `${base}/form`,
		formWaitingBaseUrl: `${base}/form-waiting`,
		formTestBaseUrl: `${base}/form-test`,
		webhookBaseUrl: `${base}/webhook`,
		webhookWaitingBaseUrl: `${base}/webhook-waiting`,
		webhookTestBaseUrl: `${base}/webhook-test`,
		mcpBaseUrl: `${base}/mcp`,
		mcpTestBaseUrl: `${base}/mcp-test`,
		variables: {},
		logAiEvent: () => {},
		startRunnerTask: async () => {
			throw new Error('Task runners are not used in these tests');
		},
	} as unknown as IWorkflowExecuteAdditionalData;
}

function resultOf(run: IRun): RunResult {
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
	const hooks = new ExecutionLifecycleHooks(mode, executionId, {
		id: workflow.id,
		name: workflow.name,
		nodes: Object.values(workflow.nodes),
		connections: workflow.connectionsBySourceNode,
		active: false,
		isArchived: false,
		activeVersionId: null,
		createdAt: new Date(),
		updatedAt: new Date(),
	} as never);
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
	credentialNames?: Record<string, string>;
	/** The node's Retry On Fail settings, which n8n's engine applies itself. */
	retry?: Pick<INode, 'maxTries' | 'waitBetweenTries'>;
	executionId?: string | null;
}): Promise<RunResult & { items: INodeExecutionData[] }> {
	const credentialRefs = Object.fromEntries(
		Object.keys(options.credentials ?? {}).map((type) => [type, { id: type, name: options.credentialNames?.[type] ?? type }]),
	);
	const result = await runWorkflow({
		workflow: {
			nodes: [
				{ name: 'Start', type: 'test.items', parameters: { items: JSON.stringify(serializeItems(options.items ?? [{ json: {} }])) } },
				{
					name: 'Node',
					type: options.type,
					parameters: options.parameters as INode['parameters'],
					credentials: credentialRefs,
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
	const credentialRefs = Object.fromEntries(Object.keys(options.credentials ?? {}).map((type) => [type, { id: type, name: type }]));
	const result = await runWorkflow({
		workflow: {
			nodes: [
				{ name: 'Start', type: 'test.items', parameters: { items: '[{"json":{}}]' } },
				{ name: 'Agent', type: 'test.agent', parameters: { args: JSON.stringify(options.args) } },
				{ name: 'Tool', type: `${options.type}Tool`, parameters: options.parameters as INode['parameters'], credentials: credentialRefs },
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

function serializeItems(items: TestItem[]) {
	return items.map((item) => ({
		json: item.json,
		binaryOf: item.binaryOf,
		binary: item.binary
			? Object.fromEntries(
					Object.entries(item.binary).map(([key, file]) => [
						key,
						{ base64: file.data.toString('base64'), fileName: file.fileName, mimeType: file.mimeType },
					]),
				)
			: undefined,
	}));
}

/** A LoadOptionsContext over the node's current parameters, the one the editor's lists and mappers run in. */
async function editorContext(
	options: { type: string; parameters: IDataObject; credentials?: CredentialsByType },
	path: string,
): Promise<LoadOptionsContext> {
	await ensureBinaryDataService();
	const credentialRefs = Object.fromEntries(Object.keys(options.credentials ?? {}).map((type) => [type, { id: type, name: type }]));
	const workflow = toWorkflow({
		nodes: [{ name: 'Node', type: options.type, parameters: options.parameters as INode['parameters'], credentials: credentialRefs }],
		connections: {},
	});
	const node = workflow.getNode('Node')!;
	const executionId = randomUUID();
	const hooks = new ExecutionLifecycleHooks('manual', executionId, { id: workflow.id } as never);
	const additionalData = additionalDataFor(options.credentials ?? {}, hooks, executionId, workflow.id);
	additionalData.currentNodeParameters = node.parameters;
	return new LoadOptionsContext(workflow, node, additionalData, path);
}

type EditorMethodKind = 'loadOptions' | 'listSearch' | 'resourceMapping';

function editorMethod(type: string, kind: EditorMethodKind, method: string): (...args: unknown[]) => Promise<unknown> {
	const methods = getRegistry().nodeTypes.getByNameAndVersion(type).methods?.[kind] as
		| Record<string, (...args: unknown[]) => Promise<unknown>>
		| undefined;
	const found = methods?.[method];
	if (!found) throw new Error(`${type} has no ${kind} method "${method}"`);
	return found;
}

/**
 * Calls a node's loadOptions method through n8n-core's LoadOptionsContext, the way the editor does
 * when a list opens: `parameters` are the node's current parameters (what the user has set so far).
 */
export async function loadOptions(options: {
	type: string;
	method: string;
	parameters: IDataObject;
	credentials?: CredentialsByType;
}): Promise<INodePropertyOptions[]> {
	const context = await editorContext(options, `parameters.${options.method}`);
	return (await editorMethod(options.type, 'loadOptions', options.method).call(context)) as INodePropertyOptions[];
}

/** Calls a resource locator's searchListMethod as the editor does while the user types `filter`. */
export async function listSearch(options: {
	type: string;
	method: string;
	parameters: IDataObject;
	credentials?: CredentialsByType;
	filter?: string;
}): Promise<INodeListSearchResult> {
	const context = await editorContext(options, `parameters.${options.method}`);
	return (await editorMethod(options.type, 'listSearch', options.method).call(context, options.filter)) as INodeListSearchResult;
}

/** Calls a resource mapper's resourceMapperMethod as the editor does when the mapper opens. */
export async function resourceMapping(options: {
	type: string;
	method: string;
	parameters: IDataObject;
	credentials?: CredentialsByType;
}): Promise<ResourceMapperFields> {
	const context = await editorContext(options, `parameters.${options.method}`);
	return (await editorMethod(options.type, 'resourceMapping', options.method).call(context)) as ResourceMapperFields;
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

/** Reads a binary property of an output item back as bytes, wherever n8n stored it. */
export async function binaryBuffer(item: INodeExecutionData, property = 'data'): Promise<Buffer> {
	const binary = item.binary?.[property];
	if (!binary) throw new Error(`The item has no binary property "${property}"`);
	return await Container.get(BinaryDataService).getAsBuffer(binary);
}

// ---------------------------------------------------------------------------------------------
// Webhooks
// ---------------------------------------------------------------------------------------------

export interface WebhookRequest {
	method?: string;
	headers: Record<string, string>;
	/** The exact bytes received; `body` is what n8n's body parser would make of them. */
	rawBody?: Buffer;
	body?: unknown;
	query?: Record<string, string>;
	/** As n8n does for some content types: `rawBody` stays undefined until the node calls `readRawBody()`. */
	deferRawBody?: boolean;
}

/**
 * Records what is answered through the response object, as Express would send it, and emits
 * `finish` once the answer is complete, as Node's HTTP response does.
 */
export class RecordedResponse extends EventEmitter {
	statusCode = 200;
	headers: Record<string, string> = {};
	body: unknown = undefined;
	ended = false;

	status(code: number) {
		this.statusCode = code;
		return this;
	}

	setHeader(name: string, value: string) {
		this.headers[name.toLowerCase()] = value;
		return this;
	}

	header(name: string, value: string) {
		return this.setHeader(name, value);
	}

	set(name: string, value: string) {
		return this.setHeader(name, value);
	}

	json(body: unknown) {
		this.body = body;
		return this.finish();
	}

	send(body?: unknown) {
		this.body = body;
		return this.finish();
	}

	end(body?: unknown) {
		if (body !== undefined) this.body = body;
		return this.finish();
	}

	private finish() {
		if (!this.ended) {
			this.ended = true;
			this.emit('finish');
		}
		return this;
	}

	/** The connection closed before an answer was sent (the process died): the caller saw no status. */
	abort() {
		if (!this.ended) this.emit('close');
		return this;
	}
}

export interface WebhookRunResult {
	/** What the node returned from webhook() (empty when it threw). */
	webhookResponse: IWebhookResponseData;
	/** What webhook() threw, if it did: n8n then answers 500 and no execution of the node runs. */
	webhookError?: unknown;
	/**
	 * The answer: the node's own from webhook() or, with responseMode `responseNode`, from its
	 * execution; otherwise n8n's (200 once the execution started, 500 when it could not).
	 */
	response: RecordedResponse;
	/** The workflow run that the webhook started, when it started one. */
	run?: RunResult;
	/** The workflow's static data after the call (kept by the caller between deliveries). */
	staticData: IDataObject;
}

/**
 * Hands one HTTP request to a webhook node through n8n-core's WebhookContext, and when the node
 * returns items, continues the workflow from them (as n8n's webhook service does).
 */
export async function runWebhook(options: {
	workflow: WorkflowJson;
	webhookNode: string;
	request: WebhookRequest;
	credentials?: CredentialsByType;
	staticData?: IDataObject;
	mode?: WorkflowExecuteMode;
	/**
	 * How the started execution gets its static data. `shared` (default): the webhook's workflow
	 * object, so what webhook() wrote is kept. `reloaded`: as n8n 2.41's server does it, a copy of
	 * the static data as stored before the request (webhook() writes to non-empty static data are
	 * lost there); the result's `staticData` is then what that execution would save.
	 */
	executionStaticData?: 'shared' | 'reloaded';
	/** The workflow's id; the same id stands for the same workflow across calls (default: a new one). */
	workflowId?: string;
	/** The execution's id (default: a new one); the same id stands for the same execution run again. */
	executionId?: string;
	/**
	 * n8n could not start the execution the webhook asked for (its database refused it, the
	 * process is shutting down...): it answers 500 and nothing runs.
	 */
	failExecutionStart?: boolean;
	/** n8n registered the execution, then its process died before the execution ran. */
	executionDies?: boolean;
	/**
	 * Runs after n8n registered the execution and before it starts: the gap in which other
	 * requests arrive (in queue mode the job waits there for a worker).
	 */
	beforeExecution?: () => Promise<void> | void;
}): Promise<WebhookRunResult> {
	await ensureBinaryDataService();
	const mode = options.mode ?? 'webhook';
	const staticData = options.staticData ?? {};
	// As n8n stores it, JSON in its database; taken before webhook() can change it.
	const stored =
		options.executionStaticData === 'reloaded' ? (JSON.parse(JSON.stringify(staticData)) as IDataObject) : undefined;
	// Node ids fixed once, so the webhook's and the execution's workflow hold the same nodes.
	const json: WorkflowJson = { ...options.workflow, nodes: options.workflow.nodes.map((n) => ({ ...n, id: n.id ?? randomUUID() })) };
	const workflow = toWorkflow(json, staticData, options.workflowId);
	const node = workflow.getNode(options.webhookNode);
	if (!node) throw new Error(`No node named "${options.webhookNode}"`);
	const executionId = options.executionId ?? randomUUID();
	const hooks = new ExecutionLifecycleHooks(mode, executionId, { id: workflow.id } as never);
	const additionalData = additionalDataFor(options.credentials ?? {}, hooks, executionId, workflow.id);

	const raw = options.request.rawBody;
	const request: { rawBody?: Buffer } & Record<string, unknown> = {
		method: options.request.method ?? 'POST',
		headers: Object.fromEntries(Object.entries(options.request.headers).map(([k, v]) => [k.toLowerCase(), v])),
		body: options.request.body ?? {},
		rawBody: options.request.deferRawBody ? undefined : raw,
		query: options.request.query ?? {},
		params: {},
		readRawBody: async () => {
			request.rawBody = raw;
		},
	};
	const response = new RecordedResponse();
	additionalData.httpRequest = request as never;
	additionalData.httpResponse = response as never;

	const nodeType = getRegistry().nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
	const description = nodeType.description.webhooks?.[0];
	const webhookData: IWebhookData = {
		httpMethod: (description?.httpMethod as IWebhookData['httpMethod']) ?? 'POST',
		node: node.name,
		path: String(description?.path ?? 'webhook'),
		webhookDescription: description as IWebhookData['webhookDescription'],
		workflowId: workflow.id,
		workflowExecuteAdditionalData: additionalData,
	};
	const context = new WebhookContext(workflow, node, additionalData, mode, webhookData, [], null);
	if (!nodeType.webhook) throw new Error(`${node.type} has no webhook method`);
	let webhookResponse: IWebhookResponseData;
	try {
		webhookResponse = await nodeType.webhook.call(context);
	} catch (error) {
		// n8n's answer when webhook() throws; the execution it records fails before the node runs.
		if (!response.ended) response.status(500).json({ code: 0, message: 'Workflow Webhook Error: Workflow could not be started!' });
		return { webhookResponse: {}, webhookError: error, response, staticData: workflow.staticData as IDataObject };
	}

	let run: RunResult | undefined;
	if (webhookResponse.workflowData && options.failExecutionStart) {
		response.status(500).json({ code: 0, message: 'There was a problem executing the workflow' });
	} else if (webhookResponse.workflowData) {
		// As n8n does, the mode may be an expression over the node's parameters.
		const responseMode = workflow.expression.getSimpleParameterValue(node, description?.responseMode, mode, {}, undefined, 'onReceived');
		const answersFromExecution = responseMode === 'responseNode';
		if (answersFromExecution) {
			// "Using 'Respond to Webhook' node": the answer is what a node of the execution sends.
			hooks.addHandler('sendResponse', (sent) => {
				if (!response.ended) response.status(Number(sent.statusCode ?? 200)).json(sent.body);
			});
		} else if (!response.ended) {
			// "On received": n8n answers once the execution is registered, without waiting for it.
			response.status(200).json(webhookResponse.webhookResponse ?? { message: 'Workflow was started' });
		}
		await options.beforeExecution?.();
		if (options.executionDies) {
			response.abort();
			return { webhookResponse, response, staticData: workflow.staticData as IDataObject };
		}
		const runExecutionData: IRunExecutionData = createRunExecutionData({
			startData: {},
			resultData: { runData: {} },
			executionData: {
				contextData: {},
				nodeExecutionStack: [
					{ node, data: { main: webhookResponse.workflowData }, source: null },
				],
				waitingExecution: {},
				waitingExecutionSource: {},
			},
		});
		const executionWorkflow =
			options.executionStaticData === 'reloaded' ? toWorkflow(json, stored, workflow.id) : workflow;
		const execution = new WorkflowExecute(additionalData, mode, runExecutionData);
		run = resultOf(await execution.processRunExecutionData(executionWorkflow));
		// n8n's answer when the execution ended without one: 500 after an error, else an empty 200.
		if (answersFromExecution && !response.ended) {
			if (run.error) response.status(500).json({ message: 'Error in workflow' });
			else response.status(200).end();
		}
		if (options.executionStaticData === 'reloaded') {
			return { webhookResponse, response, run, staticData: executionWorkflow.staticData as IDataObject };
		}
	}
	return { webhookResponse, response, run, staticData: workflow.staticData as IDataObject };
}
