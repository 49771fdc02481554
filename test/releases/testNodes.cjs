// The test's own small nodes for the release runner (runner.cjs): they stand for what a user puts
// around the package's nodes, written against the release's own n8n-workflow, which the runner passes in.
'use strict';
const { randomUUID } = require('node:crypto');
const { writeFileSync } = require('node:fs');
const path = require('node:path');

/** The nodes by type name; `userFolder` is where an upload lands. */
function testNodes({ NodeConnectionTypes }, userFolder) {
	class TestItems {
		constructor() {
			this.description = {
				displayName: 'Test Items',
				name: 'testItems',
				group: ['trigger'],
				version: 1,
				description: 'Emits the items of its parameter, each PDF stored through n8n',
				defaults: { name: 'Start' },
				inputs: [],
				outputs: [NodeConnectionTypes.Main],
				properties: [{ displayName: 'Items', name: 'items', type: 'string', default: '[]' }],
			};
		}

		async execute() {
			const items = JSON.parse(this.getNodeParameter('items', 0));
			const output = [];
			for (const [index, item] of items.entries()) {
				const out = { json: item.json, pairedItem: { item: index } };
				if (item.pdfBase64) {
					out.binary = { data: await this.helpers.prepareBinaryData(Buffer.from(item.pdfBase64, 'base64'), 'carta.pdf', 'application/pdf') };
				}
				output.push(out);
			}
			return [output];
		}
	}

	/** Stands for what a user puts after a branch: passes its items on, so the run data shows what reached it. */
	class TestBranch {
		constructor() {
			this.description = {
				displayName: 'Test Branch',
				name: 'testBranch',
				group: ['transform'],
				version: 1,
				description: 'Passes its items on',
				defaults: { name: 'Branch' },
				inputs: [NodeConnectionTypes.Main],
				outputs: [NodeConnectionTypes.Main],
				properties: [],
			};
		}

		async execute() {
			return [this.getInputData().map((item, index) => ({ json: item.json, pairedItem: { item: index } }))];
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
		constructor() {
			this.description = {
				displayName: 'Test Source',
				name: 'testSource',
				group: ['transform'],
				version: 1,
				description: 'Makes the PDF of each item one way',
				defaults: { name: 'Source' },
				inputs: [NodeConnectionTypes.Main],
				outputs: [NodeConnectionTypes.Main],
				properties: [
					{ displayName: 'Source', name: 'source', type: 'string', default: 'stored' },
					{ displayName: 'URL', name: 'url', type: 'string', default: '' },
					{ displayName: 'Sub-Workflow', name: 'workflow', type: 'string', default: '' },
					{ displayName: 'ID', name: 'id', type: 'string', default: '' },
				],
			};
		}

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
		constructor() {
			this.description = {
				displayName: 'Test Upload',
				name: 'testUpload',
				group: ['trigger'],
				version: 1,
				description: 'Receives one uploaded PDF',
				defaults: { name: 'Upload' },
				inputs: [],
				outputs: [NodeConnectionTypes.Main],
				webhooks: [{ name: 'default', httpMethod: 'POST', path: 'upload', responseMode: 'onReceived' }],
				properties: [],
			};
		}

		async webhook() {
			const landed = path.join(userFolder, `upload-${randomUUID()}.pdf`);
			writeFileSync(landed, Buffer.from(this.getBodyData().pdfBase64, 'base64'));
			const binary = await this.nodeHelpers.copyBinaryFile(landed, 'carta.pdf', 'application/pdf');
			return { workflowData: [[{ json: {}, binary: { data: binary } }]] };
		}
	}

	const agentInputs = [NodeConnectionTypes.Main, { type: NodeConnectionTypes.AiTool, displayName: 'Tools', required: true }];

	/**
	 * An agent that calls its tool once with the arguments it is given, the way n8n's agents of every
	 * release can: through the tool object n8n makes of the node (getInputConnectionData). Its output is
	 * what the call returned, or the message of what it threw.
	 */
	class TestToolAgent {
		constructor() {
			this.description = {
				displayName: 'Test Tool Agent',
				name: 'testToolAgent',
				group: ['transform'],
				version: 1,
				description: 'Calls its connected tool once',
				defaults: { name: 'Agent' },
				inputs: agentInputs,
				outputs: [NodeConnectionTypes.Main],
				properties: [],
			};
		}

		async execute() {
			const tools = [await this.getInputConnectionData(NodeConnectionTypes.AiTool, 0)].flat();
			const answers = [];
			for (const tool of tools) {
				try {
					answers.push({ json: { tool: tool.name, returned: await tool.invoke({}) } });
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
		constructor() {
			this.description = {
				displayName: 'Test Engine Agent',
				name: 'testEngineAgent',
				group: ['transform'],
				version: 1,
				description: 'Asks the engine to run its tool once',
				defaults: { name: 'Agent' },
				inputs: agentInputs,
				outputs: [NodeConnectionTypes.Main],
				properties: [{ displayName: 'Tool', name: 'tool', type: 'string', default: '' }],
			};
		}

		async execute(response) {
			if (!response || !response.actionResponses || response.actionResponses.length === 0) {
				const nodeName = this.getNodeParameter('tool', 0);
				return {
					actions: [{ actionType: 'ExecutionNodeAction', nodeName, input: {}, type: NodeConnectionTypes.AiTool, id: 'call-1', metadata: { itemIndex: 0 } }],
					metadata: {},
				};
			}
			return [response.actionResponses.map((answer) => ({ json: { toolRun: JSON.parse(JSON.stringify(answer.data)) } }))];
		}
	}

	return [
		['test.items', new TestItems()],
		['test.branch', new TestBranch()],
		['test.source', new TestSource()],
		['test.upload', new TestUpload()],
		['test.toolAgent', new TestToolAgent()],
		['test.engineAgent', new TestEngineAgent()],
	];
}

module.exports = { testNodes };
