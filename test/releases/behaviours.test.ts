/**
 * What the package relies on that differs by release, in each tested release's own engine, with one
 * sandbox per release and one engine per release × binary-data mode a single n8n offers (in memory,
 * "default", and on disk, "filesystem"):
 * - every way a letter's PDF reaches the node: the service receives the PDF byte for byte, and a
 *   file the node cannot read fails with "Nothing was sent". What needs n8n's server is run through
 *   the engine piece that server uses: the upload of a webhook or form trigger through n8n-core's
 *   WebhookContext and its copyBinaryFile helper; Execute Workflow and a workflow used as an agent's
 *   tool through the engine's executeWorkflow, with the server's copy of the sub-workflow's files to
 *   the caller; a Wait by the run stopping, stored as JSON and resumed in the same execution; the
 *   HTTP Request node's download as a stream stored through prepareBinaryData. The database mode of
 *   queue mode lives in n8n's server, not in any release's engine, so it is not among the modes here;
 * - a downloaded file comes out byte for byte, kept where the mode says;
 * - the processed-data store the trigger records its deliveries in (`checkProcessedAndRecord`, in
 *   execute contexts only): a delivery handed twice runs once, through each release's own path
 *   from the helper to n8n-core's DataDeduplicationService (the store itself is n8n's database,
 *   in memory here; the end-to-end suites run the real one on 1.85.4 and 2.41.1);
 * - Retry On Fail beside Continue On Fail: every tested release runs the node again when the first
 *   item it puts out is a failure (n8n-core 1.84 as many times as Max. Tries says, keeping the first
 *   run's output; later releases until a run's first item goes through), which is why the node
 *   refuses Retry On Fail on a write.
 * Neither of the last two depends on the mode: they run in the first one.
 */
import { createHash, randomUUID } from 'node:crypto';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startHttpServer } from '../harness/httpServer';
import { LETTER, makePdf } from '../harness/sends';
import { AFTER_NAME, SECRET, statusDelivery, TRIGGER_NAME, triggerWorkflow } from '../trigger/support';
import { startEngine, type Engine, type RunOutcome, type TestWorkflow, type WorkflowNode } from './engine';
import { credentials, CREDENTIAL_REFS, eachRelease, NODE, NODE_TYPE, outputOf, TOKEN } from './family';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
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

/** The node alone after Start, which emits `items` (each `pdfBase64` stored through n8n as a file). */
function oneNode(parameters: Record<string, unknown>, items: Array<{ json: Record<string, unknown>; pdfBase64?: string }>, settings: Record<string, unknown> = {}): TestWorkflow {
	return line({ name: 'Start', type: 'test.items', parameters: { items: JSON.stringify(items) } }, { name: NODE, type: NODE_TYPE, parameters, credentials: CREDENTIAL_REFS, ...settings });
}

let pdf: Buffer;
let server: Awaited<ReturnType<typeof startHttpServer>>;
beforeAll(async () => {
	pdf = await makePdf(2);
	server = await startHttpServer((_request, response) => {
		response.setHeader('content-type', 'application/pdf');
		response.end(pdf);
	});
});
afterAll(async () => await server?.close());

eachRelease((rig) => {
	for (const mode of ['default', 'filesystem'] as const) {
		describe(`binary data mode "${mode}"`, () => {
			let engine: Engine;
			beforeAll(async () => {
				engine = await startEngine(rig.release, { binaryMode: mode });
			});
			afterAll(async () => await engine?.stop());

			it.each(Object.keys(SOURCES))('a PDF %s reaches the service byte for byte', async (name) => {
				rig.sandbox.control.reset();
				const workflow = SOURCES[name](pdf.toString('base64'), `${server.url}/carta.pdf`);
				const outcome = (
					'upload' in workflow
						? await engine.deliver(workflow.upload, 'Upload', { headers: { 'content-type': 'application/json' }, rawBody: Buffer.from(JSON.stringify({ pdfBase64: pdf.toString('base64') })) }, credentials(rig.sandbox.baseUrl))
						: await engine.run(workflow, credentials(rig.sandbox.baseUrl))
				) as RunOutcome;
				expect(outcome.error, JSON.stringify(outcome.error)).toBeUndefined();
				const orders = rig.sandbox.control.orders();
				expect(orders).toHaveLength(1);
				const answer = (await (await fetch(`${rig.sandbox.baseUrl}/api/v2/download/${TOKEN}/${orders[0].id}/pdf`)).json()) as { data: { file_base64: string } };
				expect(sha256(Buffer.from(answer.data.file_base64, 'base64'))).toBe(sha256(pdf));
			});

			it('a file the node cannot read fails with "Nothing was sent", and with Check With the Service First on Auto nothing of the run is sent', async () => {
				rig.sandbox.control.reset();
				const gone = `${mode === 'filesystem' ? engine.info.binaryMode : 'filesystem-v2'}:workflows/0/executions/0/binary_data/gone`;
				const items = [{ json: { ref: 'a', pdfBase64: pdf.toString('base64') } }, { json: { ref: 'b', pdfBase64: pdf.toString('base64'), gone: true } }];
				const workflow = line({ name: 'Start', type: 'test.items', parameters: { items: JSON.stringify(items) } }, source({ source: 'gone', id: gone }), letterNode({ additionalFields: { checkWithService: 'auto' } }));
				const outcome = await engine.run(workflow, credentials(rig.sandbox.baseUrl));
				expect(outcome.error?.message).toMatch(/"PDF Source" \(pdfFile\) could not be read from the input binary field "data" .*Nothing was sent\.$/);
				expect(outcome.error?.message).not.toMatch(/may have/);
				expect(rig.sandbox.control.requests()).toHaveLength(0);
			});

			it('Download File puts the file out byte for byte, kept where the mode keeps it', async () => {
				expect(engine.info.binaryMode).toBe(mode === 'filesystem' ? 'filesystem-v2' : 'default');
				rig.sandbox.control.reset();
				const sent = await engine.run(oneNode(LETTER, [{ json: {}, pdfBase64: pdf.toString('base64') }]), credentials(rig.sandbox.baseUrl));
				expect(sent.error).toBeUndefined();
				const [order] = outputOf(sent, NODE);
				const downloaded = await engine.run(
					oneNode({ resource: 'order', operation: 'downloadFile', orderId: String(order.json.id), fileType: 'pdf' }, [{ json: {} }]),
					credentials(rig.sandbox.baseUrl),
				);
				expect(downloaded.error).toBeUndefined();
				const [file] = outputOf(downloaded, NODE);
				expect(file.binary?.data).toMatchObject({ mimeType: 'application/pdf', sha256: sha256(pdf), stored: mode === 'filesystem' ? 'filesystem-v2' : 'in the item' });
			});

			if (mode !== 'default') return;

			it('the trigger runs a delivery once: the same delivery again ends at the trigger, another one runs', async () => {
				// One workflow id for the three deliveries: the store keys what it saw on it.
				const workflow = { id: randomUUID(), ...(triggerWorkflow() as Omit<TestWorkflow, 'startNode'>) };
				const secret = { postalServiceWebhookApi: { secret: SECRET } };
				const first = statusDelivery('production', '81001');
				// Without the store the node lets every delivery run (it never fails a delivery for its store), so the second would run too.
				const reached = async (request: ReturnType<typeof statusDelivery>) => {
					const outcome = await engine.deliver(workflow, TRIGGER_NAME, request, secret);
					expect(outcome.answered).toBe(200);
					expect(outcome.ran).toBe(true);
					expect(outcome.error).toBeUndefined();
					return outputOf(outcome as RunOutcome, AFTER_NAME);
				};
				expect(await reached(first)).toHaveLength(1);
				expect(await reached(first)).toHaveLength(0);
				expect(await reached(statusDelivery('production', '81002'))).toHaveLength(1);
			});

			it('a read whose first item fails is run again, as many times as Max. Tries says; a write refuses the setting and sends nothing however often n8n runs it', async () => {
				rig.sandbox.control.reset();
				const created = await engine.run(oneNode(LETTER, [{ json: {}, pdfBase64: pdf.toString('base64') }]), credentials(rig.sandbox.baseUrl));
				const id = String(outputOf(created, NODE)[0].json.id);
				rig.sandbox.control.clearRequests();
				const settings = { onError: 'continueRegularOutput', retryOnFail: true, maxTries: 3, waitBetweenTries: 10 };
				const read = await engine.run(
					oneNode({ resource: 'order', operation: 'get', orderId: '={{ $json.id }}' }, [{ json: { id: '999999' } }, { json: { id } }], settings),
					credentials(rig.sandbox.baseUrl),
				);
				expect(outputOf(read, NODE).map((item) => Object.keys(item.json).includes('error'))).toEqual([true, false]);
				const gets = rig.sandbox.control.requests({ method: 'GET', path: '/api/v2/get/' }).length;
				expect(gets).toBe(2 * 3);

				const write = await engine.run(oneNode(LETTER, [{ json: {}, pdfBase64: pdf.toString('base64') }], settings), credentials(rig.sandbox.baseUrl));
				expect(outputOf(write, NODE).map((item) => item.json.error)).toEqual([expect.stringMatching(/"Retry On Fail" is on/)]);
				expect(rig.sandbox.control.requests({ method: 'POST' })).toEqual([]);
				expect(rig.sandbox.control.orders().map((order) => String(order.id))).toEqual([id]);
			});
		});
	}
}, { engine: false });
