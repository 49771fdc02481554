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
	request: {
		method?: string;
		headers: Record<string, string>;
		/** The exact bytes received; `body` is what n8n's body parser would make of them. */
		rawBody?: Buffer;
		body?: unknown;
		query?: Record<string, string>;
		/** As n8n does for some content types: `rawBody` stays undefined until the node calls `readRawBody()`. */
		deferRawBody?: boolean;
	};
	mode?: WorkflowExecuteMode;
	/** n8n could not start the execution the webhook asked for (its database refused it, the process is shutting down...): it answers 500 and nothing runs. */
	failExecutionStart?: boolean;
	/** Runs after n8n registered the execution and before it starts: the gap in which other requests arrive (in queue mode the job waits there for a worker). */
	beforeExecution?: () => Promise<void> | void;
}): Promise<{ webhookResponse: IWebhookResponseData; webhookError?: unknown; response: RecordedResponse; run?: IRun }>;
export class RecordedResponse extends EventEmitter {
	statusCode: number;
	body: unknown;
	ended: boolean;
	status(code: number): this;
	json(body: unknown): this;
	end(body?: unknown): this;
}
