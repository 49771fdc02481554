// The test's own small nodes, one set for the harness (registry.ts) and the release runner
// (test/releases/runner.cjs): they stand for what a user puts around the package's nodes. Plain
// CommonJS with no import of n8n-workflow, so each side's engine runs them with its own copy.
'use strict';
const { randomUUID } = require('node:crypto');
const { writeFileSync } = require('node:fs');
const path = require('node:path');

// NodeConnectionTypes.Main and .AiTool, the same strings in every tested release.
const MAIN = 'main';
const AI_TOOL = 'ai_tool';

const describe = (name, displayName, description, fields) => ({
	displayName,
	name,
	group: ['transform'],
	version: 1,
	description,
	inputs: [MAIN],
	outputs: [MAIN],
	properties: [],
	...fields,
});

/**
 * Start node of test workflows: emits the items of its `items` parameter (JSON), each file (`binary`,
 * or a PDF as `pdfBase64`) stored through n8n's binary helpers so that later nodes read it as in n8n;
 * `binaryOf` makes an item share the files of an earlier one.
 */
class TestItems {
	description = describe('testItems', 'Test Items', 'Emits fixed items (tests only)', {
		group: ['trigger'],
		defaults: { name: 'Start' },
		inputs: [],
		properties: [{ displayName: 'Items', name: 'items', type: 'string', default: '[]' }],
	});

	async execute() {
		const items = JSON.parse(this.getNodeParameter('items', 0));
		const output = [];
		for (const [index, item] of items.entries()) {
			const out = { json: item.json, pairedItem: { item: index } };
			const shared = item.binaryOf === undefined ? undefined : output[item.binaryOf]?.binary;
			const files = item.pdfBase64 ? { data: { base64: item.pdfBase64, fileName: 'carta.pdf', mimeType: 'application/pdf' } } : item.binary;
			if (shared) {
				out.binary = Object.fromEntries(Object.entries(shared).map(([key, meta]) => [key, { ...meta }]));
			} else if (files) {
				out.binary = {};
				for (const [key, file] of Object.entries(files)) {
					out.binary[key] = await this.helpers.prepareBinaryData(Buffer.from(file.base64, 'base64'), file.fileName, file.mimeType);
				}
			}
			output.push(out);
		}
		return [output];
	}
}

/** Stands for what a user puts after a node or a branch: passes its items on, so the run data shows what reached it. */
class TestPassThrough {
	description = describe('testPassThrough', 'Test Pass Through', 'Passes items on (tests only)', { defaults: { name: 'After' } });

	async execute() {
		return [this.getInputData().map((item, index) => ({ ...item, pairedItem: { item: index } }))];
	}
}

/**
 * Hands its input's PDF (`pdfBase64` of each item) on as a file, the way one source of files in n8n
 * makes it (its parameter `source`): stored through the helper as a node that makes or converts a
 * file does, stored from a stream as the HTTP Request node stores a download, put in the item as
 * base64 as a Code node may, made by a sub-workflow and copied back as n8n copies a sub-workflow's
 * files, or kept across a Wait (the run stops, is stored as JSON, and resumes); `gone` names a file
 * that is not there for an item whose JSON says `gone`.
 */
class TestSource {
	description = describe('testSource', 'Test Source', 'Makes the PDF of each item one way', {
		defaults: { name: 'Source' },
		properties: [
			{ displayName: 'Source', name: 'source', type: 'string', default: 'stored' },
			{ displayName: 'URL', name: 'url', type: 'string', default: '' },
			{ displayName: 'Sub-Workflow', name: 'workflow', type: 'string', default: '' },
			{ displayName: 'ID', name: 'id', type: 'string', default: '' },
		],
	});

	async execute() {
		const source = this.getNodeParameter('source', 0);
		const items = this.getInputData();
		if (source === 'subWorkflow') {
			const result = await this.executeWorkflow({ code: JSON.parse(this.getNodeParameter('workflow', 0)) }, items);
			return result.data;
		}
		if (source === 'wait') {
			await this.putExecutionToWait(new Date(Date.now() + 3_600_000));
			return [items];
		}
		const output = [];
		for (const [index, item] of items.entries()) {
			const bytes = Buffer.from(item.json.pdfBase64, 'base64');
			let binary;
			if (source === 'gone' && item.json.gone) binary = { data: 'filesystem-v2', mimeType: 'application/pdf', fileName: 'carta.pdf', id: this.getNodeParameter('id', index) };
			else if (source === 'code') binary = { data: bytes.toString('base64'), mimeType: 'application/pdf', fileName: 'carta.pdf', fileExtension: 'pdf' };
			else if (source === 'download') {
				const stream = await this.helpers.httpRequest({ url: this.getNodeParameter('url', index), encoding: 'stream' });
				binary = await this.helpers.prepareBinaryData(stream, 'carta.pdf', 'application/pdf');
			} else binary = await this.helpers.prepareBinaryData(bytes, 'carta.pdf', 'application/pdf');
			output.push({ json: { ref: item.json.ref }, binary: { data: binary }, pairedItem: { item: index } });
		}
		return [output];
	}
}

/** A webhook or form trigger's upload: the request's file written where the upload lands, then taken into n8n with the helper those triggers use. */
class TestUpload {
	description = describe('testUpload', 'Test Upload', 'Receives one uploaded PDF', {
		group: ['trigger'],
		defaults: { name: 'Upload' },
		inputs: [],
		webhooks: [{ name: 'default', httpMethod: 'POST', path: 'upload', responseMode: 'onReceived' }],
	});

	async webhook() {
		const landed = path.join(process.env.N8N_USER_FOLDER, `upload-${randomUUID()}.pdf`);
		writeFileSync(landed, Buffer.from(this.getBodyData().pdfBase64, 'base64'));
		const binary = await this.nodeHelpers.copyBinaryFile(landed, 'carta.pdf', 'application/pdf');
		return { workflowData: [[{ json: {}, binary: { data: binary } }]] };
	}
}

const agentInputs = [MAIN, { type: AI_TOOL, displayName: 'Tools', required: true }];

/**
 * An agent that calls each connected tool once with the arguments of its `args` parameter (JSON), as
 * a model's tool call would and n8n's agents of every release can: through the tool object n8n makes
 * of the node (getInputConnectionData). Its output is what each call returned, or what it threw.
 */
class TestAgent {
	description = describe('testAgent', 'Test Agent', 'Calls its connected tools once (tests only)', {
		defaults: { name: 'Agent' },
		inputs: agentInputs,
		properties: [{ displayName: 'Args', name: 'args', type: 'string', default: '{}' }],
	});

	async execute() {
		const tools = [await this.getInputConnectionData(AI_TOOL, 0)].flat();
		const args = JSON.parse(this.getNodeParameter('args', 0));
		const answers = [];
		for (const tool of tools) {
			try {
				answers.push({ json: { tool: tool.name, answer: await tool.invoke(args) } });
			} catch (error) {
				answers.push({ json: { tool: tool.name, thrown: String(error.message) } });
			}
		}
		return [answers];
	}
}

/**
 * An agent that asks the engine to run its tool node (an engine request), as the Agent node of the
 * releases that have them does, and puts out the tool run's data the engine hands back.
 */
class TestEngineAgent {
	description = describe('testEngineAgent', 'Test Engine Agent', 'Asks the engine to run its tool once', {
		defaults: { name: 'Agent' },
		inputs: agentInputs,
		properties: [{ displayName: 'Tool', name: 'tool', type: 'string', default: '' }],
	});

	async execute(response) {
		if (!response || !response.actionResponses || response.actionResponses.length === 0) {
			const nodeName = this.getNodeParameter('tool', 0);
			return {
				actions: [{ actionType: 'ExecutionNodeAction', nodeName, input: {}, type: AI_TOOL, id: 'call-1', metadata: { itemIndex: 0 } }],
				metadata: {},
			};
		}
		return [response.actionResponses.map((answer) => ({ json: { toolRun: JSON.parse(JSON.stringify(answer.data)) } }))];
	}
}

/**
 * The tool n8n's server adds beside a node marked `usableAsTool`, under the name `<name>Tool`: the
 * node's own execute(), described with its replacements, no main input and one AI tool output.
 */
function toolVariant(node) {
	const { usableAsTool, ...description } = node.description;
	const replacements = typeof usableAsTool === 'object' ? usableAsTool.replacements : {};
	const tool = { ...description, ...replacements, name: `${description.name}Tool`, displayName: `${description.displayName} Tool`, inputs: [], outputs: [AI_TOOL] };
	return Object.create(node, { description: { value: tool } });
}

/** The test nodes by the type names the test workflows give them. */
function testNodes() {
	return [
		['test.items', new TestItems()],
		['test.passThrough', new TestPassThrough()],
		['test.source', new TestSource()],
		['test.upload', new TestUpload()],
		['test.agent', new TestAgent()],
		['test.engineAgent', new TestEngineAgent()],
	];
}

module.exports = { testNodes, toolVariant };
