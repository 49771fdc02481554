/**
 * Every way a letter's PDF reaches the node × each binary-data mode a single n8n offers × each
 * tested release's own engine: the service receives the PDF byte for byte, and a file the node
 * cannot read fails with "Nothing was sent". What needs n8n's server is run through the engine
 * piece that server uses: the upload of a webhook or form trigger through n8n-core's
 * WebhookContext and its copyBinaryFile helper; Execute Workflow and a workflow used as an agent's
 * tool through the engine's executeWorkflow, with the server's copy of the sub-workflow's files to
 * the caller; a Wait by the run stopping, stored as JSON and resumed in the same execution; the
 * HTTP Request node's download as a stream stored through prepareBinaryData. The database mode of
 * queue mode lives in n8n's server, not in any release's engine, so it is not among the modes here.
 */
import { createHash } from 'node:crypto';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startSandbox, type Sandbox } from '../../sandbox';
import { startHttpServer } from '../harness/httpServer';
import { LETTER, makePdf } from '../harness/sends';
import { buildPackage, RELEASES, startEngine, type Engine, type RunOutcome, type TestWorkflow, type WorkflowNode } from './engine';
import { credentials, EMAIL, NODE, NODE_TYPE, TOKEN } from './family';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const CREDENTIAL_REFS = { postalServiceApi: { id: '1', name: 'Postal Service account' } };
const to = (name: string) => [[{ node: name, type: 'main', index: 0 }]];
const letterNode = (parameters: Record<string, unknown> = {}): WorkflowNode => ({ name: NODE, type: NODE_TYPE, parameters: { ...LETTER, ...parameters }, credentials: CREDENTIAL_REFS });

/** A run of nodes in a line, the first one starting it. */
function line(...nodes: WorkflowNode[]): TestWorkflow {
	return {
		startNode: nodes[0].name,
		nodes,
		connections: Object.fromEntries(nodes.slice(0, -1).map((node, i) => [node.name, { main: to(nodes[i + 1].name) }])),
	};
}

/** Start, with the PDF stored through n8n (`stored`) or carried in the item's JSON for the next node to make a file of. */
const start = (pdfBase64: string, stored: boolean): WorkflowNode => ({
	name: 'Start',
	type: 'test.items',
	parameters: { items: JSON.stringify([stored ? { json: { ref: 'a' }, pdfBase64 } : { json: { ref: 'a', pdfBase64 } }]) },
});
const source = (parameters: Record<string, unknown>): WorkflowNode => ({ name: 'Source', type: 'test.source', parameters });

/** Each way, as the workflow that sends one letter with the PDF. */
const SOURCES: Record<string, (pdfBase64: string, url: string) => TestWorkflow | { upload: Omit<TestWorkflow, 'startNode'> }> = {
	'stored directly by the node before': (pdf) => line(start(pdf, true), letterNode()),
	'returned by a sub-workflow (Execute Workflow)': (pdf) => line(start(pdf, false), source({ source: 'subWorkflow', workflow: JSON.stringify(line(start(pdf, true))) }), letterNode()),
	'made and sent inside a workflow used as a tool': (pdf) => line(start(pdf, false), source({ source: 'subWorkflow', workflow: JSON.stringify(line(start(pdf, true), letterNode())) })),
	'after a Wait': (pdf) => line(start(pdf, true), source({ source: 'wait' }), letterNode()),
	'uploaded to a webhook or form trigger': () => ({ upload: { nodes: [{ name: 'Upload', type: 'test.upload' }, letterNode()], connections: { Upload: { main: to(NODE) } } } }),
	'downloaded by an HTTP Request': (pdf, url) => line(start(pdf, false), source({ source: 'download', url }), letterNode()),
	'put in the item by a Code node': (pdf) => line(start(pdf, false), source({ source: 'code' }), letterNode()),
	'given as base64': (pdf) => line(start(pdf, false), letterNode({ pdfSource: 'base64', pdfBase64: '={{ $json.pdfBase64 }}' })),
	'given as a link': (pdf, url) => line(start(pdf, false), letterNode({ pdfSource: 'url', pdfUrl: url })),
};

let built: ReturnType<typeof buildPackage>;
let pdf: Buffer;
let server: Awaited<ReturnType<typeof startHttpServer>>;
beforeAll(async () => {
	built = buildPackage();
	pdf = await makePdf(2);
	server = await startHttpServer((_request, response) => {
		response.setHeader('content-type', 'application/pdf');
		response.end(pdf);
	});
});
afterAll(async () => {
	built?.remove();
	await server?.close();
});

for (const release of RELEASES) {
	describe(`n8n ${release.n8n}`, () => {
		let sandbox: Sandbox;
		beforeAll(async () => {
			sandbox = await startSandbox({ port: 0, token: TOKEN, email: EMAIL, quiet: true, balance: 100_000 });
		});
		afterAll(async () => await sandbox?.stop());

		for (const mode of ['default', 'filesystem'] as const) {
			describe(`binary data mode "${mode}"`, () => {
				let engine: Engine;
				beforeAll(async () => {
					engine = await startEngine(release, built.dir, { binaryMode: mode });
				});
				afterAll(async () => await engine?.stop());

				it.each(Object.keys(SOURCES))('a PDF %s reaches the service byte for byte', async (name) => {
					sandbox.control.reset();
					const workflow = SOURCES[name](pdf.toString('base64'), `${server.url}/carta.pdf`);
					const outcome = (
						'upload' in workflow
							? await engine.deliver(workflow.upload, 'Upload', { headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify({ pdfBase64: pdf.toString('base64') })) }, credentials(sandbox.baseUrl))
							: await engine.run(workflow, credentials(sandbox.baseUrl))
					) as RunOutcome;
					expect(outcome.error, JSON.stringify(outcome.error)).toBeUndefined();
					const orders = sandbox.control.orders();
					expect(orders).toHaveLength(1);
					const answer = (await (await fetch(`${sandbox.baseUrl}/api/v2/download/${TOKEN}/${orders[0].id}/pdf`)).json()) as { data: { file_base64: string } };
					expect(sha256(Buffer.from(answer.data.file_base64, 'base64'))).toBe(sha256(pdf));
				});

				it('a file the node cannot read fails with "Nothing was sent", and with Check With the Service First on Auto nothing of the run is sent', async () => {
					sandbox.control.reset();
					const gone = `${mode === 'filesystem' ? engine.info.binaryMode : 'filesystem-v2'}:workflows/0/executions/0/binary_data/gone`;
					const items = [{ json: { ref: 'a', pdfBase64: pdf.toString('base64') } }, { json: { ref: 'b', pdfBase64: pdf.toString('base64'), gone: true } }];
					const workflow = line({ name: 'Start', type: 'test.items', parameters: { items: JSON.stringify(items) } }, source({ source: 'gone', id: gone }), letterNode({ additionalFields: { checkWithService: 'auto' } }));
					const outcome = await engine.run(workflow, credentials(sandbox.baseUrl));
					expect(outcome.error?.message).toMatch(/"PDF Source" \(pdfFile\) could not be read from the input binary field "data" .*Nothing was sent\.$/);
					expect(outcome.error?.message).not.toMatch(/may have/);
					expect(sandbox.control.requests()).toHaveLength(0);
				});
			});
		}
	});
}
