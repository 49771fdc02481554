// What n8n's server hands its engine for a run, written once for the harness (n8n's engine in the
// test process) and the release runner (each release's engine in a process of its own). Plain
// CommonJS that requires no n8n module: each caller passes its own copy of n8n-core and
// n8n-workflow, so the release runner never mixes a release's copy with the project's.
'use strict';
const { randomUUID } = require('node:crypto');
const { EventEmitter } = require('node:events');

const { toolVariant } = require('../testNodes.cjs');

/**
 * The node types (each usable as a tool also as `<name>Tool`, as n8n's server adds it) and the
 * credential types a package's modules export, under the names n8n gives them once installed.
 */
function packageTypesOf(packageName, nodeModules, credentialModules) {
	const instances = (modules) => modules.flatMap((exported) => Object.values(exported).filter((value) => typeof value === 'function').map((Class) => new Class()));
	const nodes = new Map();
	for (const node of instances(nodeModules)) {
		nodes.set(`${packageName}.${node.description.name}`, node);
		if ('execute' in node && node.description.usableAsTool) nodes.set(`${packageName}.${node.description.name}Tool`, toolVariant(node));
	}
	return { nodes, credentials: new Map(instances(credentialModules).map((credential) => [credential.name, credential])) };
}

/** The node registry n8n's engine reads node types from, over a map of type name to node type. */
function nodeTypesOf(types, NodeHelpers) {
	return {
		getByName(name) {
			const type = types.get(name);
			if (!type) throw new Error(`Unknown node type "${name}"`);
			return type;
		},
		getByNameAndVersion(name, version) {
			return NodeHelpers.getVersionedNodeType(this.getByName(name), version);
		},
		getKnownTypes() {
			return {};
		},
	};
}

/**
 * A credentials helper over the test's credentials by type. With `resolve` (an expression resolver),
 * it applies a credential type's generic `authenticate` the way n8n does; without it requests go as
 * the node made them. `onRead` counts reads: in a real n8n each is a database query and a decryption.
 */
function credentialsHelperOf(ICredentialsHelper, types, credentials, options = {}) {
	class CredentialsHelper extends ICredentialsHelper {
		getParentTypes(name) {
			return types.get(name)?.extends ?? [];
		}
		isCredentialUsableByNode() {
			return true;
		}
		async authenticate(data, typeName, requestOptions) {
			const authenticate = types.get(typeName)?.authenticate;
			if (!authenticate || !options.resolve) return requestOptions;
			if (typeof authenticate === 'function') return await authenticate(data, requestOptions);
			if (authenticate.type !== 'generic') return requestOptions;
			const resolve = (value) => (typeof value === 'string' && value.startsWith('=') ? options.resolve(value.slice(1), data) : value);
			for (const [where, entries] of Object.entries(authenticate.properties)) {
				if (where === 'auth') {
					requestOptions.auth = { username: String(resolve(entries.username) ?? ''), password: String(resolve(entries.password) ?? '') };
					continue;
				}
				requestOptions[where] = { ...(requestOptions[where] ?? {}) };
				for (const [key, value] of Object.entries(entries)) requestOptions[where][key] = resolve(value);
			}
			return requestOptions;
		}
		async preAuthentication() {
			return undefined;
		}
		async runPreAuthentication() {
			return undefined;
		}
		async getCredentials() {
			throw new Error('getCredentials is not used by the tests');
		}
		async getDecrypted(_additionalData, _nodeCredentials, type) {
			options.onRead?.();
			const data = credentials[type];
			if (!data) throw new Error(`The test gave no credentials of type "${type}"`);
			return { ...data };
		}
		async updateCredentials() {}
		async updateCredentialsOauthTokenData() {}
		getCredentialsProperties(type) {
			return types.get(type)?.properties ?? [];
		}
	}
	return new CredentialsHelper();
}

/** The additional data of one execution, as n8n's server builds it, on n8n's default local addresses. */
function additionalDataOf({ credentialsHelper, hooks, executionId, workflowId, executeWorkflow }) {
	const base = 'http://127.0.0.1:5678';
	return {
		credentialsHelper,
		hooks,
		executionId,
		workflowId,
		executeWorkflow:
			executeWorkflow ??
			(async () => {
				throw new Error('Sub-workflows are not used in these tests');
			}),
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
	};
}

/** A workflow as n8n's engine takes it, from the JSON a test writes (nodes without ids, positions or versions). */
function workflowOf(Workflow, nodeTypes, json, { id, staticData } = {}) {
	return new Workflow({
		id: id ?? json.id ?? randomUUID(),
		name: json.name ?? 'test workflow',
		nodes: json.nodes.map((node, index) => ({ id: node.id ?? randomUUID(), position: node.position ?? [index * 220, 0], typeVersion: node.typeVersion ?? 1, ...node })),
		connections: json.connections,
		active: false,
		nodeTypes,
		staticData: staticData ?? {},
		settings: { executionOrder: 'v1' },
	});
}

/** The lifecycle hooks of one execution, over the workflow as n8n's server stores it. */
function hooksOf(ExecutionLifecycleHooks, workflow, executionId, mode) {
	const stored = { id: workflow.id, name: workflow.name, nodes: Object.values(workflow.nodes), connections: workflow.connectionsBySourceNode, active: false, isArchived: false, activeVersionId: null, settings: {} };
	return new ExecutionLifecycleHooks(mode, executionId, { ...stored, createdAt: new Date(), updatedAt: new Date() });
}

/**
 * Hands one HTTP request to a webhook node through n8n-core's WebhookContext, as n8n's webhook
 * service does: when the node returns items, n8n answers once the execution is registered (500 when
 * it could not start it) and then runs the rest of the workflow from them. `beforeExecution` runs in
 * that gap, where other requests arrive (in queue mode the job waits there for a worker).
 */
async function deliverTo({ core, createRunExecutionData, workflow, node, nodeType, additionalData, request, mode = 'webhook', failExecutionStart, beforeExecution }) {
	const response = new RecordedResponse();
	const httpRequest = {
		method: request.method ?? 'POST',
		headers: Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name.toLowerCase(), value])),
		body: request.body ?? {},
		// As n8n does for some content types: the raw body stays undefined until the node reads it.
		rawBody: request.deferRawBody ? undefined : request.rawBody,
		query: request.query ?? {},
		params: {},
		readRawBody: async () => {
			httpRequest.rawBody = request.rawBody;
		},
	};
	additionalData.httpRequest = httpRequest;
	additionalData.httpResponse = response;
	const description = nodeType.description.webhooks[0];
	const webhookData = { httpMethod: description.httpMethod, node: node.name, path: String(description.path), webhookDescription: description, workflowId: workflow.id, workflowExecuteAdditionalData: additionalData };
	let webhookResponse;
	try {
		webhookResponse = await nodeType.webhook.call(new core.WebhookContext(workflow, node, additionalData, mode, webhookData, [], null));
	} catch (webhookError) {
		// n8n's answer when webhook() throws; the execution it records fails before the node runs.
		if (!response.ended) response.status(500).json({ code: 0, message: 'Workflow Webhook Error: Workflow could not be started!' });
		return { webhookResponse: {}, webhookError, response };
	}
	if (!webhookResponse.workflowData) return { webhookResponse, response };
	if (failExecutionStart) {
		response.status(500).json({ code: 0, message: 'There was a problem executing the workflow' });
		return { webhookResponse, response };
	}
	if (!response.ended) response.status(200).json(webhookResponse.webhookResponse ?? { message: 'Workflow was started' });
	await beforeExecution?.();
	const stack = [{ node, data: { main: webhookResponse.workflowData }, source: null }];
	const start = { startData: {}, resultData: { runData: {} }, executionData: { contextData: {}, nodeExecutionStack: stack, waitingExecution: {}, waitingExecutionSource: {} } };
	// n8n-workflow makes the run data itself from 2.x on; earlier releases take it as it is.
	const runData = createRunExecutionData ? createRunExecutionData(start) : start;
	const run = await new core.WorkflowExecute(additionalData, mode, runData).processRunExecutionData(workflow);
	return { webhookResponse, response, run };
}

/**
 * Records what is answered through the response object (the trigger answers with `status().json()`),
 * and emits `finish` once the answer is complete, as Node's HTTP response does.
 */
class RecordedResponse extends EventEmitter {
	constructor() {
		super();
		this.statusCode = 200;
		this.body = undefined;
		this.ended = false;
	}
	status(code) {
		this.statusCode = code;
		return this;
	}
	json(body) {
		return this.end(body);
	}
	end(body) {
		if (body !== undefined) this.body = body;
		if (!this.ended) {
			this.ended = true;
			this.emit('finish');
		}
		return this;
	}
}

module.exports = { packageTypesOf, nodeTypesOf, credentialsHelperOf, additionalDataOf, workflowOf, hooksOf, deliverTo, RecordedResponse };
