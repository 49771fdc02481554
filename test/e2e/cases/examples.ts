// The example workflows of examples/, imported as they are, their entries called with the
// credentials their notes ask a user to create.
import { afterEach, describe, expect, it } from 'vitest';

import { PACKAGE_NAME } from '../../../scripts/dev/n8n';
import { readExamples } from '../../../scripts/dev/workflows';
import { editorJson, type E2eEnvironment, type Scope } from '../support/environment';
import {
	chatMessageWhenDelivered,
	insufficientCredits,
	nightlyReconciliation,
	returnedLetterToCollection,
	returnReceiptToStorage,
} from '../support/exampleEvents';
import { crmClientToReturnReceipt, crmDealToLetter } from '../support/exampleCrm';
import { mailMergeSample, sendRegisteredLetter, telegramReminder } from '../support/exampleRequests';
import { balanceAlert, formSendsLetter, sheetsMailMerge } from '../support/exampleRuns';
import { aiAgentConfirmsInALaterMessage } from '../support/exampleAgent';
import { removeImported } from '../support/examples';

export function exampleCases(env: () => E2eEnvironment, scope: Scope) {
	describe('the example workflows, imported as they are', () => {
		// Each case starts without the workflows and endpoints of the one before, whether it passed or not.
		afterEach(async () => {
			if (env()) await removeImported(env());
		});

		if (scope === 'full') {
			it('use only parameters the nodes declare', async () => {
				const types = await editorJson<Array<{ name: string; version: number | number[]; properties: Array<{ name: string }> }>>(
					env(),
					'/types/nodes.json',
				);
				const examples = readExamples();
				expect(examples.length).toBeGreaterThanOrEqual(14);
				for (const { file, workflow } of examples) {
					for (const node of workflow.nodes) {
						// A node type n8n keeps several versions of is listed once per version (Crypto 1 and 2).
						const listed = types.filter((t) => t.name === node.type);
						const type = listed.find((t) => [t.version].flat().includes(node.typeVersion));
						// Every node, ours and n8n's, exists in this n8n at the version the file names.
						expect(listed.length, `${file}: ${node.type}`).toBeGreaterThan(0);
						expect(type, `${file}: ${node.name} version ${node.typeVersion} among ${listed.map((t) => [t.version].flat().join(', ')).join('; ')}`).toBeDefined();
						if (!node.type.startsWith(`${PACKAGE_NAME}.`)) continue;
						const declared = new Set(type!.properties.map((p) => p.name));
						for (const parameter of Object.keys(node.parameters)) {
							expect(declared.has(parameter), `${file}: "${node.name}" has parameter "${parameter}" that ${node.type} does not declare`).toBe(true);
						}
					}
				}
			});
		}

		// The smoke subset's letter with a PDF: the form as shipped where n8n has data tables (1.113 and
		// later), which it keys its letters with; before that, the same form and Send letter without the key.
		it('a form behind Basic Auth, in Portuguese, sends a registered letter with its PDF, once however often it is submitted, and says why when it is not sent (before data tables: its first letter, without the key)', async () => {
			await formSendsLetter(env());
		});
		if (scope === 'smoke') return;

		// Each example's run: what starts it, what the sandbox and the receiver show after, what never happens twice.
		const runs: Array<[string, (env: E2eEnvironment, skip: (reason: string) => void) => unknown]> = [
			['a PDF posted with the API key sends one registered letter per reference, reserved before the send: refused or above the cap sends nothing, a retry gets the same order', sendRegisteredLetter],
			['a telegram written from a text template, one per reference, refused when a value is missing', telegramReminder],
			["mail merge: the note's curl line posts the sample CSV, one letter per row keyed on batch and row; its refused row is named, the others get an order id, and the same line again sends nothing", mailMergeSample],
			['keeps each return receipt in the file store and links it on the order when rr.created arrives', returnReceiptToStorage],
			["sends a chat message to the delivered letter's contact, once per order; held without credits, failed when unclear", chatMessageWhenDelivered],
			['CRM: a deal entering a stage sends one letter, whatever the edits and repeats; its tracking and return receipt come back as notes', crmDealToLetter],
			["CRM round trip: a client record, in the CRM's Portuguese field names, sends one registered letter with AR; its tracking comes back as notes and the AR's PDF is attached to the same record, its link giving the file back", crmClientToReturnReceipt],
			["a returned letter (status 6) alerts the collection team once, at the sandbox's receiver", returnedLetterToCollection],
			["insufficient credits (status 2): a held letter is alerted, then after a top-up a held chat message is reprocessed and a letter still held is reported, at the sandbox's receiver", insufficientCredits],
			["nightly reconciliation: Get letter finds the changes whose events never arrived, records and reports them to the sandbox's receiver", nightlyReconciliation],
			['alerts the team chat when the balance is low, and when the balance answer cannot be read, on a schedule', balanceAlert],
			['Google Sheets mail merge: rows ready are sent once and their status written back, a lost write-back repaired (the Sheets nodes read and write a sheet at the receiver)', sheetsMailMerge],
			["the AI agent, its chat through n8n and a scripted model, prices in one message and sends once the user agrees in the next, through the workflow's own sub-workflow and once however often the tool is called: its memory keeps the conversation, n8n offers the tools as the example describes them, and no execution keeps a key", aiAgentConfirmsInALaterMessage],
		];
		for (const [name, run] of runs) it(name, async ({ skip }) => void (await run(env(), (reason) => skip(reason))));
	});
}
