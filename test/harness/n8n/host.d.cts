import type { EventEmitter } from 'node:events';
import type { IDataObject, Workflow, WorkflowExecuteMode, ICredentialDataDecryptedObject, ICredentialType, INode, INodeType, INodeTypes, IRun, IRunExecutionData, IVersionedNodeType, IWebhookResponseData, IWorkflowExecuteAdditionalData } from 'n8n-workflow';

export function packageTypesOf(
	packageName: string,
	nodeModules: Array<Record<string, unknown>>,
	credentialModules: Array<Record<string, unknown>>,
): { nodes: Map<string, INodeType | IVersionedNodeType>; credentials: Map<string, ICredentialType> };

export function nodeTypesOf(types: Map<string, INodeType | IVersionedNodeType>, NodeHelpers: { getVersionedNodeType: (type: INodeType | IVersionedNodeType, version?: number) => INodeType }): INodeTypes;
export function credentialsHelperOf(
	ICredentialsHelper: abstract new () => object,
	types: Map<string, ICredentialType>,
	credentials: Record<string, ICredentialDataDecryptedObject>,
	options?: { resolve?: (expression: string, credentials: ICredentialDataDecryptedObject) => unknown; onRead?: () => void },
): IWorkflowExecuteAdditionalData['credentialsHelper'];
export function additionalDataOf(parts: {
	credentialsHelper: unknown;
	hooks: unknown;
	executionId: string;
	workflowId: string;
	executeWorkflow?: (...args: unknown[]) => Promise<unknown>;
}): IWorkflowExecuteAdditionalData;
export function workflowOf<W>(Workflow: new (parameters: never) => W, nodeTypes: INodeTypes, json: { id?: string; name?: string; nodes: object[]; connections: object }, options?: { id?: string; staticData?: IDataObject }): W;
export function hooksOf<H>(ExecutionLifecycleHooks: new (...args: never[]) => H, workflow: Workflow, executionId: string, mode: WorkflowExecuteMode): H;
export function deliverTo(options: {
	core: object;
	createRunExecutionData?: (data: object) => IRunExecutionData;
	workflow: Workflow;
	node: INode;
	nodeType: INodeType;
	additionalData: IWorkflowExecuteAdditionalData;
	request: { method?: string; headers: Record<string, string>; rawBody?: Buffer; body?: unknown; query?: Record<string, string>; deferRawBody?: boolean };
	mode?: WorkflowExecuteMode;
	failExecutionStart?: boolean;
	beforeExecution?: () => Promise<void> | void;
}): Promise<{ webhookResponse: IWebhookResponseData; webhookError?: unknown; response: RecordedResponse; run?: IRun }>;
export class RecordedResponse extends EventEmitter {
	statusCode: number;
	headers: Record<string, string>;
	body: unknown;
	ended: boolean;
	status(code: number): this;
	setHeader(name: string, value: string): this;
	header(name: string, value: string): this;
	set(name: string, value: string): this;
	json(body: unknown): this;
	send(body?: unknown): this;
	end(body?: unknown): this;
}
