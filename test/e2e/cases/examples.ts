// The example workflows of examples/, imported as they are.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { PACKAGE_NAME } from '../../../scripts/n8n';
import { readExamples } from '../../../scripts/workflows';
import { editorJson, type E2eEnvironment, type Scope } from '../support/environment';
import { chatMessageWhenDelivered, crmDealToLetter, productionEventsOnly, returnReceiptToStorage } from '../support/exampleEvents';
import { aiAgentAsShipped, balanceAlert, formSendsLetter, mailMerge, sendRegisteredLetter } from '../support/exampleRequests';
import { removeImported, startStandIn, type StandIn } from '../support/examples';

export function exampleCases(env: () => E2eEnvironment, scope: Scope) {
	describe('the example workflows, imported as they are', () => {
		afterAll(async () => {
			if (env()) await removeImported(env());
		});

		if (scope === 'full') {
			it('use only parameters the nodes declare', async () => {
				const types = await editorJson<Array<{ name: string; version: number | number[]; properties: Array<{ name: string }> }>>(
					env(),
					'/types/nodes.json',
				);
				const examples = readExamples();
				expect(examples.length).toBeGreaterThanOrEqual(8);
				for (const { file, workflow } of examples) {
					for (const node of workflow.nodes) {
						const type = types.find((t) => t.name === node.type);
						// Every node, ours and n8n's, exists in this n8n at the version the file names.
						expect(type, `${file}: ${node.type}`).toBeDefined();
						expect([type!.version].flat(), `${file}: ${node.name} version`).toContain(node.typeVersion);
						if (!node.type.startsWith(`${PACKAGE_NAME}.`)) continue;
						const declared = new Set(type!.properties.map((p) => p.name));
						for (const parameter of Object.keys(node.parameters)) {
							expect(declared.has(parameter), `${file}: "${node.name}" has parameter "${parameter}" that ${node.type} does not declare`).toBe(true);
						}
					}
				}
			});
		}

		// Its nodes exist in every supported release, so it is the smoke subset's letter with a PDF.
		it('a form sends a registered letter with the PDF attached to it', async () => {
			await formSendsLetter(env());
		});

		if (scope === 'smoke') return;

		it('sends a registered letter with return receipt from a PDF posted to its webhook; a refused request can be corrected and sent with the same reference', async () => {
			await sendRegisteredLetter(env());
		});

		let standIn: StandIn;
		beforeAll(async () => {
			standIn = await startStandIn();
		});
		afterAll(async () => {
			await standIn?.stop();
		});

		it('take production events only: as shipped, their triggers start nothing on test-environment deliveries', async () => {
			await productionEventsOnly(env());
		});

		it('keeps each return receipt in the file store and links it on the order when rr.created arrives', async () => {
			await returnReceiptToStorage(env(), standIn);
		});

		it('sends a chat message when tracking.updated says delivered, once per order, and again after a failed send', async () => {
			await chatMessageWhenDelivered(env());
		});

		it('mail merge: prices every CSV row before sending any, sends one letter per row tagged with it, writes the order ids back', async () => {
			await mailMerge(env());
		});

		it('CRM: a deal stage sends a letter; its tracking and return receipt come back as notes on the deal', async () => {
			await crmDealToLetter(env(), standIn);
		});

		it('alerts the team chat when the balance is low, on a schedule', async () => {
			await balanceAlert(env(), standIn);
		});

		it('the AI agent example keeps its chat private (its tools run in the agent suite)', () => {
			aiAgentAsShipped();
		});
	});
}
