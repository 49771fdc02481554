/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
/**
 * What else the package relies on that differs by release, in each tested release's own engine:
 * - files in both binary-data modes a single n8n offers (in memory, "default", and on disk,
 *   "filesystem"): a letter's PDF reaches the service byte for byte, a downloaded file comes out
 *   byte for byte, kept where the mode says;
 * - the processed-data store the trigger records its deliveries in (`checkProcessedAndRecord`, in
 *   execute contexts only): a delivery handed twice runs once, through each release's own path
 *   from the helper to n8n-core's DataDeduplicationService (the store itself is n8n's database,
 *   in memory here; the end-to-end suites run the real one on 1.85.4 and 2.41.1);
 * - Retry On Fail beside Continue On Fail: every tested release runs the node again when the first
 *   item it puts out is a failure (n8n-core 1.84 as many times as Max. Tries says, keeping the first
 *   run's output; later releases until a run's first item goes through), which is why the node
 *   refuses Retry On Fail on a write.
 */
import { createHash, randomUUID } from 'node:crypto';

import { DateTime } from 'luxon';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startSandbox, type Sandbox } from '../../sandbox';
import { signBody } from '../../nodes/PostalServiceTrigger/verification';
import { LETTER, makePdf } from '../harness/sends';
import { buildPackage, RELEASES, startEngine, type Engine, type RunOutcome, type TestWorkflow } from './engine';
import { credentials, EMAIL, NODE, NODE_TYPE, outputOf, TOKEN } from './family';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const CREDENTIAL_REFS = { postalServiceApi: { id: '1', name: 'Postal Service account' }, postalServiceChatApi: { id: '2', name: 'Postal Service chat account' } };

let built: ReturnType<typeof buildPackage>;
let pdf: Buffer;
beforeAll(async () => {
	built = buildPackage();
	pdf = await makePdf(2);
});
afterAll(() => built?.remove());

function oneNode(parameters: Record<string, unknown>, items: Array<{ json: Record<string, unknown>; pdfBase64?: string }>, settings: Record<string, unknown> = {}): TestWorkflow {
	return {
		startNode: 'Start',
		nodes: [
			{ name: 'Start', type: 'test.items', parameters: { items: JSON.stringify(items) } },
			{ name: NODE, type: NODE_TYPE, parameters, credentials: CREDENTIAL_REFS, ...settings },
		],
		connections: { Start: { main: [[{ node: NODE, type: 'main', index: 0 }]] } },
	};
}

const SECRET = 'whsec-releases-31';

/** A status change as the service delivers it: its envelope, headers and signature. */
function statusDelivery(orderId: string, deliveryId: number) {
	const timestamp = DateTime.now().setZone('America/Sao_Paulo').toFormat('yyyy-MM-dd HH:mm:ss');
	const envelope = { event: 'order.status_updated', environment: 'production', timestamp, webhook_id: 12, delivery_id: deliveryId, data: { id: orderId, type: 'letter', status: { old: 0, new: 1 }, updated_at: timestamp } };
	const body = Buffer.from(JSON.stringify(envelope));
	const headers = {
		'content-type': 'application/json',
		'user-agent': 'Service-Webhooks/1.0',
		'x-webhook-event': envelope.event,
		'x-webhook-delivery': String(deliveryId),
		'x-webhook-timestamp': timestamp,
		'x-webhook-environment': 'production',
		'x-webhook-signature': signBody(SECRET, body),
	};
	return { headers, body };
}

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

				it('a letter sends the PDF of its item byte for byte, and Download File puts the file out byte for byte, kept where the mode keeps it', async () => {
					expect(engine.info.binaryMode).toBe(mode === 'filesystem' ? 'filesystem-v2' : 'default');
					sandbox.control.reset();
					const sent = await engine.run(oneNode(LETTER, [{ json: {}, pdfBase64: pdf.toString('base64') }]), credentials(sandbox.baseUrl));
					expect(sent.error).toBeUndefined();
					const [order] = outputOf(sent, NODE);
					const create = sandbox.control.requests({ method: 'POST', path: '/api/v2/post' });
					expect(create.map((request) => request.files.map((file) => file.sha256))).toEqual([[sha256(pdf)]]);

					const downloaded = await engine.run(
						oneNode({ resource: 'order', operation: 'downloadFile', orderId: String(order.json.id), fileType: 'pdf' }, [{ json: {} }]),
						credentials(sandbox.baseUrl),
					);
					expect(downloaded.error).toBeUndefined();
					const [file] = outputOf(downloaded, NODE);
					expect(file.binary?.data).toMatchObject({ mimeType: 'application/pdf', sha256: sha256(pdf), stored: mode === 'filesystem' ? 'filesystem-v2' : 'in the item' });
				});
			});
		}

		describe('the processed-data store', () => {
			let engine: Engine;
			beforeAll(async () => {
				engine = await startEngine(release, built.dir);
			});
			afterAll(async () => await engine?.stop());

			it('the trigger runs a delivery once: the same delivery again ends at the trigger, another one runs', async () => {
				const workflow = {
					id: randomUUID(),
					nodes: [
						{ id: randomUUID(), name: 'Trigger', type: 'n8n-nodes-postal-service.postalServiceTrigger', webhookId: randomUUID(), parameters: {}, credentials: { postalServiceWebhookApi: { id: '3', name: 'Postal Service webhook secret' } } },
						{ name: 'After', type: 'test.branch' },
					],
					connections: { Trigger: { main: [[{ node: 'After', type: 'main', index: 0 }]] } },
				};
				const secret = { postalServiceWebhookApi: { secret: SECRET } };
				const first = statusDelivery('1048577', 81_001);
				// Without the store the node lets every delivery run (it never fails a delivery for its store), so the second would run too.
				const reached = async (request: ReturnType<typeof statusDelivery>) => {
					const outcome = await engine.deliver(workflow, 'Trigger', request, secret);
					expect(outcome.answered).toBe(200);
					expect(outcome.ran).toBe(true);
					expect(outcome.error).toBeUndefined();
					return outputOf(outcome as RunOutcome, 'After');
				};
				expect(await reached(first)).toHaveLength(1);
				expect(await reached(first)).toHaveLength(0);
				expect(await reached(statusDelivery('1048578', 81_002))).toHaveLength(1);
			});
		});

		describe('Retry On Fail beside Continue On Fail', () => {
			let engine: Engine;
			beforeAll(async () => {
				engine = await startEngine(release, built.dir);
			});
			afterAll(async () => await engine?.stop());

			it('a read whose first item fails is run again, as many times as Max. Tries says; a write refuses the setting and sends nothing however often n8n runs it', async () => {
				sandbox.control.reset();
				const created = await engine.run(oneNode(LETTER, [{ json: {}, pdfBase64: pdf.toString('base64') }]), credentials(sandbox.baseUrl));
				const id = String(outputOf(created, NODE)[0].json.id);
				sandbox.control.clearRequests();
				const settings = { onError: 'continueRegularOutput', retryOnFail: true, maxTries: 3, waitBetweenTries: 10 };
				const read = await engine.run(
					oneNode({ resource: 'order', operation: 'get', orderId: '={{ $json.id }}' }, [{ json: { id: '999999' } }, { json: { id } }], settings),
					credentials(sandbox.baseUrl),
				);
				expect(outputOf(read, NODE).map((item) => Object.keys(item.json).includes('error'))).toEqual([true, false]);
				const gets = sandbox.control.requests({ method: 'GET', path: '/api/v2/get/' }).length;
				expect(gets).toBe(2 * 3);

				const write = await engine.run(oneNode(LETTER, [{ json: {}, pdfBase64: pdf.toString('base64') }], settings), credentials(sandbox.baseUrl));
				expect(outputOf(write, NODE).map((item) => item.json.error)).toEqual([expect.stringMatching(/"Retry On Fail" is on/)]);
				expect(sandbox.control.requests({ method: 'POST' })).toEqual([]);
				expect(sandbox.control.orders().map((order) => String(order.id))).toEqual([id]);
			});
		});
	});
}
