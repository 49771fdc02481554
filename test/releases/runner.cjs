// Runs workflows through one n8n release's own engine (the n8n-core and n8n-workflow that release
// ships, from scripts/engines/install-engines.sh), with the built package laid out as n8n installs it: in
// <user folder>/.n8n/nodes/node_modules/<package>, with n8n's module folder on NODE_PATH as n8n sets
// it, so that the package's require('n8n-workflow') finds the release's copy and no other.
// Plain CommonJS, run by the release's own Node: the test process (test/releases/engine.ts) starts it
// and sends one JSON request per line on stdin; each answer is one JSON line on stdout.
// Usage: node test/releases/runner.cjs <engine dir> <user folder>
'use strict';
const Module = require('node:module');
const path = require('node:path');
const readline = require('node:readline');
const { createHash, randomUUID } = require('node:crypto');
const { testNodes } = require('../harness/testNodes.cjs');
const { MemoryProcessedDataStore } = require('../harness/processedData.cjs');
const { additionalDataOf, credentialsHelperOf, deliverTo, hooksOf, nodeTypesOf, packageTypesOf, workflowOf: workflowOfHost } = require('../harness/n8n/host.cjs');

const [engineDir, userFolder] = process.argv.slice(2);
process.env.N8N_USER_FOLDER = userFolder;
process.env.N8N_RUNNERS_ENABLED = 'false';
process.env.N8N_LOG_LEVEL = process.env.N8N_LOG_LEVEL || 'silent';
// n8n puts its own module folders on NODE_PATH before it loads community packages.
const engineModules = path.join(engineDir, 'node_modules');
process.env.NODE_PATH = [engineModules, process.env.NODE_PATH].filter(Boolean).join(path.delimiter);
Module._initPaths();

const PACKAGE = 'n8n-nodes-postal-service';
const packageDir = path.join(userFolder, '.n8n', 'nodes', 'node_modules', PACKAGE);
const fromEngine = Module.createRequire(path.join(engineDir, 'package.json'));
const fromCore = Module.createRequire(fromEngine.resolve('n8n-core'));
const fromPackage = Module.createRequire(path.join(packageDir, 'package.json'));
const core = fromEngine('n8n-core');
const workflowLib = fromEngine('n8n-workflow');
const { Container } = fromCore('@n8n/di');
const { NodeHelpers, Workflow, ICredentialsHelper } = workflowLib;

/** Where each party finds n8n-workflow: one file for all three, or the release is not what runs. */
const resolved = {
	'n8n-core': fromCore.resolve('n8n-workflow'),
	package: fromPackage.resolve('n8n-workflow'),
	engine: fromEngine.resolve('n8n-workflow'),
};

// ---- Node types: the package's as n8n's server loads them, and the test's own small nodes (test/harness/testNodes.cjs) ----

const manifest = fromPackage('./package.json').n8n;
const load = (files) => files.map((file) => fromPackage(`./${file}`));
const { nodes: packageNodes, credentials: credentialTypes } = packageTypesOf(PACKAGE, load(manifest.nodes), load(manifest.credentials));
const registry = nodeTypesOf(new Map([...packageNodes, ...testNodes()]), NodeHelpers);

// ---- Sub-workflows and the rest of what the engine asks of its host (host.cjs) ----

/** Whether the release's n8n-core copies a sub-workflow's files into the calling run itself; later releases leave it to n8n's server, whose copy runs here instead. */
const coreCopiesSubWorkflowFiles = require('node:fs')
	.readFileSync(path.join(path.dirname(fromEngine.resolve('n8n-core')), 'execution-engine', 'node-execution-context', 'base-execute-context.js'), 'utf8')
	.includes('duplicateBinaryData');

/** Runs a workflow from its start node in an execution of its own. */
async function startRun(json, credentials, mode) {
	const executionId = randomUUID();
	const workflow = workflowOf(json);
	const execute = new core.WorkflowExecute(additionalData(credentials, hooksFor(workflow, executionId, mode), executionId, workflow.id), mode);
	const startNode = workflow.getNode(json.startNode);
	// n8n-core 2.41 takes one object; every earlier tested release takes (workflow, startNode).
	const run = execute.run.length === 1 ? await execute.run({ workflow, startNode }) : await execute.run(workflow, startNode);
	return { run, workflow, executionId };
}

/** Runs a sub-workflow as n8n's server does for Execute Workflow (and a workflow used as a tool): a run of its own, its last node's output handed back with its files copied to the caller. */
async function executeWorkflow(credentials, parent, workflowInfo) {
	const { run, executionId } = await startRun(workflowInfo.code, credentials, 'integrated');
	if (run.data.resultData.error) throw new Error(run.data.resultData.error.message);
	const last = run.data.resultData.runData[run.data.resultData.lastNodeExecuted];
	const data = last.at(-1).data.main;
	if (coreCopiesSubWorkflowFiles) return { executionId, data };
	return { executionId, data: await Container.get(core.BinaryDataService).duplicateBinaryData(core.FileLocation.ofExecution(parent.workflowId, parent.executionId), data) };
}

function additionalData(credentials, hooks, executionId, workflowId) {
	return additionalDataOf({
		credentialsHelper: credentialsHelperOf(ICredentialsHelper, credentialTypes, credentials),
		hooks,
		executionId,
		workflowId,
		executeWorkflow: async (workflowInfo) => await executeWorkflow(credentials, { workflowId, executionId }, workflowInfo),
	});
}

let ready;
/** Binary data in the mode the test asked for (the release's default when none), as n8n starts it. */
async function prepare() {
	const service = Container.get(core.BinaryDataService);
	if (service.init.length === 1) {
		// n8n-core 1.84 takes its configuration as an argument; later releases read the environment.
		await service.init({ mode: process.env.N8N_DEFAULT_BINARY_DATA_MODE || 'default', availableModes: ['filesystem'], localStoragePath: path.join(userFolder, 'binaryData') });
	} else {
		await service.init();
	}
	await core.DataDeduplicationService.init(new MemoryProcessedDataStore());
	return { binaryMode: service.mode };
}

const workflowOf = (json) => workflowOfHost(Workflow, registry, json);
const hooksFor = (workflow, executionId, mode) => hooksOf(core.ExecutionLifecycleHooks, workflow, executionId, mode);

/** A run as the test reads it: each node's runs (files read back with their digests), the run's error, all of it serialized. */
async function outcomeOf(run) {
	const nodeRuns = {};
	const files = Container.get(core.BinaryDataService);
	for (const [name, runs] of Object.entries(run.data.resultData.runData)) {
		nodeRuns[name] = [];
		for (const task of runs) {
			// Each file an item carries, read back through n8n as the next node would: where it is kept and its digest.
			for (const output of task.data?.main ?? []) {
				for (const item of output ?? []) {
					for (const file of Object.values(item.binary ?? {})) {
						file.stored = file.id ? file.id.split(':')[0] : 'in the item';
						// A file that is not there (as a test names one) is reported, not read.
						file.sha256 = await files.getAsBuffer(file).then((bytes) => createHash('sha256').update(bytes).digest('hex'), () => 'unreadable');
					}
				}
			}
			nodeRuns[name].push({ error: task.error ? { message: task.error.message, description: task.error.description } : undefined, data: task.data });
		}
	}
	const error = run.data.resultData.error;
	return {
		status: run.status,
		error: error ? { message: error.message, description: error.description } : undefined,
		nodeRuns,
		serialized: JSON.stringify(run),
	};
}

async function runWorkflow({ workflow: json, credentials }) {
	const started = await startRun(json, credentials, 'manual');
	const { workflow, executionId } = started;
	let { run } = started;
	if (run.waitTill) {
		// As n8n resumes a waiting run: its data read back from storage (JSON), continued in the same execution.
		const stored = JSON.parse(JSON.stringify(run.data));
		stored.waitTill = run.waitTill;
		const runData = workflowLib.createRunExecutionData ? workflowLib.createRunExecutionData(stored) : stored;
		run = await new core.WorkflowExecute(additionalData(credentials, hooksFor(workflow, executionId, 'manual'), executionId, workflow.id), 'manual', runData).processRunExecutionData(workflow);
	}
	return await outcomeOf(run);
}

/** Hands one HTTP request to a webhook node and runs what it started (host.cjs), as n8n's webhook service does. */
async function deliver({ workflow: json, webhookNode, request, credentials }) {
	const executionId = randomUUID();
	const workflow = workflowOf(json);
	const node = workflow.getNode(webhookNode);
	const rawBody = Buffer.from(request.bodyBase64, 'base64');
	const { response, run } = await deliverTo({
		core,
		createRunExecutionData: workflowLib.createRunExecutionData,
		workflow,
		node,
		nodeType: registry.getByNameAndVersion(node.type, node.typeVersion),
		additionalData: additionalData(credentials, hooksFor(workflow, executionId, 'webhook'), executionId, workflow.id),
		request: { headers: request.headers, body: JSON.parse(rawBody.toString('utf8')), rawBody },
	});
	return { answered: response.statusCode, ran: run !== undefined, ...(run ? await outcomeOf(run) : {}) };
}

async function handle(request) {
	switch (request.op) {
		case 'hello':
			ready ??= prepare();
			return {
				...(await ready),
				node: process.versions.node,
				versions: { 'n8n-core': fromEngine('n8n-core/package.json').version, 'n8n-workflow': fromEngine('n8n-workflow/package.json').version },
				resolved,
			};
		case 'run':
			await ready;
			return await runWorkflow(request);
		case 'deliver':
			await ready;
			return await deliver(request);
		default:
			throw new Error(`unknown request "${request.op}"`);
	}
}

const lines = readline.createInterface({ input: process.stdin });
lines.on('line', (line) => {
	const request = JSON.parse(line);
	handle(request).then(
		(result) => process.stdout.write(`${JSON.stringify({ id: request.id, result })}\n`),
		(error) => process.stdout.write(`${JSON.stringify({ id: request.id, error: String(error && error.stack ? error.stack : error) })}\n`),
	);
});
lines.on('close', () => process.exit(0));
