/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
// The trigger in an active workflow: the service's signed deliveries of every kind, a forged one,
// duplicates and a restart of the process that takes them. Run in both topologies; in queue mode
// deliveries go through the balancer to the two webhook processors.
import { createHash } from 'node:crypto';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { KEYS_FIELD } from '../../../nodes/PostalServiceTrigger/processedDeliveries';
import { waitForWebhook } from '../../../scripts/dev/workflows';
import { binaryContent, countStatuses, getExecution, listExecutions, nodeOutput, settledExecutions, type E2eEnvironment, type Execution, type Scope } from '../support/environment';
import { createLetterAtService, deliverTo, newDelivery, pdfOfSize } from '../support/service';
import { createTriggerWorkflow, downstreamRuns, type TriggerWorkflow } from '../support/triggerWorkflow';

export function triggerCases(env: () => E2eEnvironment, scope: Scope) {
	describe('the trigger in an active workflow', () => {
		let workflow: TriggerWorkflow;
		let url: string;
		let endpointId: number;

		const executions = () => listExecutions(env().client, { workflowId: workflow.id });
		const waitForExecutionCount = async (count: number) => {
			const list = await settledExecutions(env().client, workflow.id, { minimum: count, timeoutMs: 60_000 });
			expect(list, JSON.stringify(countStatuses(list))).toHaveLength(count);
			// Every one of them ran to success, as each run the trigger started must (n8n 1.85 gives only `finished`).
			expect(list.filter((e) => !e.finished && e.status !== 'success'), JSON.stringify(countStatuses(list))).toEqual([]);
			return list;
		};
		/** Executions and runs after the trigger, once the executions under way are saved. */
		async function settled() {
			await settledExecutions(env().client, workflow.id, { stableMs: 1_000 });
			return await downstreamRuns(env(), workflow.id);
		}

		/**
		 * Waits a moment longer and checks that nothing ran after the trigger: a duplicate starts an
		 * execution in which the trigger emits nothing.
		 */
		async function expectNothingNew(before: { executions: number; downstream: number }, what: string) {
			await new Promise((resolve) => setTimeout(resolve, 2_000));
			const after = await settled();
			if (after.downstream !== before.downstream) {
				const answers = ours().map((d) => [d.deliveryId, d.event, d.attempts.map((a) => a.responseBody.slice(0, 80))]);
				expect.fail(
					`${what}: ${after.executions} executions and ${after.downstream} runs after the trigger, expected ${before.downstream} runs; deliveries ${JSON.stringify(answers)}`,
				);
			}
			if (after.executions !== before.executions) {
				console.log(`[e2e ${env().topology}] ${what}: ${after.executions - before.executions} execution(s) started in which the trigger emitted nothing`);
			}
		}

		beforeAll(async () => {
			workflow = await createTriggerWorkflow(env(), { name: 'e2e: every postal event' });
			url = `${env().webhookUrl}${workflow.path}`;
			await waitForWebhook(url);
			endpointId = env().sandbox.control.registerWebhook({ url, events: ['*'], name: 'n8n e2e' }).id;
		});
		// The cases after these count their own deliveries: this endpoint takes no more of them.
		afterAll(() => {
			if (env()?.sandbox.control.webhooks().some((w) => w.id === endpointId)) env().sandbox.control.removeWebhook(endpointId);
		});

		let receiptPdf: Buffer;

		const ours = () => env().sandbox.control.deliveries().filter((d) => d.webhookId === endpointId);
		const isSettled = (d: { state: string }) => d.state !== 'pending' && d.state !== 'retrying';

		/** Does something that makes the service send events, and waits until it has delivered them. */
		async function fire(action: () => unknown) {
			const before = ours().length;
			await action();
			await env().sandbox.control.waitForDeliveries((all) => {
				const mine = all.filter((d) => d.webhookId === endpointId);
				return mine.length > before && mine.every(isSettled);
			}, 60_000);
		}

		it('receives a signed delivery of every event kind at its production URL, one execution each', async () => {
			const control = env().sandbox.control;
			let orderId = '';
			await fire(async () => (orderId = await createLetterAtService(env(), 'Maria Souza')));
			await fire(() => control.createEmailOrder({ email: 'recipient@postal-service.test', subject: 'Notificação' }));
			await fire(() => control.setOrderStatus(orderId, 1));
			await fire(() => control.addTrackingEvent(orderId));
			await fire(() => control.addTrackingEvent(orderId));
			await fire(() => control.setOrderStatus(orderId, 4, { statusDelivery: 'delivered' }));
			receiptPdf = await pdfOfSize(10 * 1024 * 1024, 'return receipt');
			await fire(() => control.addReturnReceipt(orderId, { rrType: 'rr', pdf: receiptPdf }));
			await fire(() => control.sendTestEvent(endpointId));

			const deliveries = ours();
			for (const delivery of deliveries) {
				expect(delivery.state, `${delivery.event} ${JSON.stringify(delivery.attempts.at(-1))}`).toBe('delivered');
				expect(delivery.attempts).toHaveLength(1);
			}
			const kinds = new Set(deliveries.map((d) => d.event));
			expect([...kinds].sort()).toEqual(['order.created', 'order.status_updated', 'rr.created', 'tracking.updated', 'webhook.test']);

			const list = await waitForExecutionCount(deliveries.length);
			const seen: string[] = [];
			for (const summary of list) {
				const execution = await getExecution(env().client, summary.id);
				const items = nodeOutput(execution, 'Postal Service Trigger');
				expect(items).toHaveLength(1);
				// The keys the trigger carries from its webhook to its execution stay out of the item.
				expect(items[0]).not.toHaveProperty(KEYS_FIELD);
				expect(nodeOutput(execution, 'Received')).toHaveLength(1);
				seen.push(String(items[0].json.event));
			}
			expect(seen.sort()).toEqual(deliveries.map((d) => d.event).sort());
		});

		it('hands a 10 MB return receipt to the workflow as binary data', async () => {
			const list = await executions();
			let receipt: Execution | undefined;
			for (const summary of list) {
				const execution = await getExecution(env().client, summary.id);
				if (nodeOutput(execution, 'Postal Service Trigger')[0]?.json.event === 'rr.created') receipt = execution;
			}
			expect(receipt).toBeDefined();
			const [item] = nodeOutput(receipt!, 'Postal Service Trigger');
			const binary = item.binary?.data;
			expect(binary?.mimeType).toBe('application/pdf');
			// The file as the node after the trigger received it. (n8n 2.0 moves a file received by a
			// webhook once per node that passes it on, at the same time, so one of the nodes keeps a
			// reference its editor cannot open; either copy holds the bytes.)
			const [passed] = nodeOutput(receipt!, 'Received');
			const bytes = await binaryContent(env(), passed.binary!.data).catch(() => binaryContent(env(), binary!));
			expect(bytes.length).toBe(receiptPdf.length);
			expect(createHash('sha256').update(bytes).digest('hex')).toBe(createHash('sha256').update(receiptPdf).digest('hex'));
			// The document travels as binary data, not as base64 inside the item.
			expect(JSON.stringify(item.json).length).toBeLessThan(100_000);
		});

		if (scope === 'full') {
			it('refuses a forged delivery without starting the workflow', async () => {
				const before = await settled();
				const forged = newDelivery(999_999, 'order.status_updated');
				for (const receiver of env().receivers) expect(await deliverTo(`${receiver}${workflow.path}`, 'not-the-secret', forged), receiver).toBe(401);
				// A forged delivery starts no execution in either topology: it is refused before one exists.
				await expectNothingNew(before, 'forged delivery');
				expect((await settled()).executions).toBe(before.executions);
			});
		}

		it('runs nothing after the trigger for a duplicate delivery', async () => {
			const before = await settled();
			const [first] = ours().filter((d) => d.event === 'order.status_updated');
			const resent = await env().sandbox.control.resendDelivery(first.deliveryId);
			expect(resent.attempts.at(-1)?.status).toBe(200);
			await expectNothingNew(before, 'resend of a delivery');
		});

		if (scope === 'smoke') return;

		it('runs nothing after the trigger for duplicates of deliveries that first arrived at the same time', async () => {
			const control = env().sandbox.control;
			let orderId = '';
			await fire(async () => (orderId = await createLetterAtService(env(), 'João Lima')));
			const first = ours().length;
			const count = (await settled()).executions;
			// The service sends events of different orders in parallel.
			control.setOrderStatus(orderId, 1);
			control.addTrackingEvent(orderId);
			control.sendTestEvent(endpointId);
			await control.waitForDeliveries((all) => {
				const mine = all.filter((d) => d.webhookId === endpointId);
				return mine.length >= first + 3 && mine.every(isSettled);
			}, 60_000);
			await waitForExecutionCount(count + 3);
			const before = await settled();
			for (const delivery of ours().slice(first - 1)) {
				const resent = await control.resendDelivery(delivery.deliveryId);
				expect(resent.attempts.at(-1)?.status).toBe(200);
			}
			await expectNothingNew(before, 'resends of simultaneous deliveries');
		});

		it('still runs nothing after the trigger for a duplicate after the process that takes webhooks restarts', async () => {
			const before = await settled();
			env().timings.receiverRestartSeconds = await env().restartReceiver(0);
			const restarted = `${env().receivers[0]}${workflow.path}`;
			await waitForWebhook(restarted);
			// The very bytes of an earlier delivery, to the restarted process itself.
			const [first] = ours().filter((d) => d.event === 'tracking.updated');
			expect(await deliverTo(restarted, env().sandbox.webhookSecret, first)).toBe(200);
			await expectNothingNew(before, 'resend after a restart');
			// And a new event still comes through after the restart.
			const count = (await settled()).executions;
			env().sandbox.control.sendTestEvent(endpointId);
			await waitForExecutionCount(count + 1);
		});
	});
}
