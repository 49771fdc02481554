// The example workflows of examples/, imported as they are, their entries called with the
// credentials their notes ask a user to create.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { PACKAGE_NAME } from '../../../scripts/dev/n8n';
import { readExamples } from '../../../scripts/dev/workflows';
import { editorJson, type E2eEnvironment, type Scope } from '../support/environment';
import {
	chatMessageWhenDelivered,
	insufficientCredits,
	nightlyReconciliation,
	productionEventsOnly,
	returnedLetterToCollection,
	returnReceiptToStorage,
} from '../support/exampleEvents';
import { crmClientToReturnReceipt, crmDealToLetter } from '../support/exampleCrm';
import { mailMergeSample, sendRegisteredLetter, telegramReminder } from '../support/exampleRequests';
import {
	balanceAlert,
	formSendsLetter,
	formSendsLetterWithoutKey,
	sheetsMailMerge,
} from '../support/exampleRuns';
import { aiAgentAsShipped, aiAgentConfirmsInALaterMessage, aiAgentSendsThroughItself } from '../support/exampleAgent';
import { hasDataTables, removeImported, startStandIn, type StandIn } from '../support/examples';

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
		it('a form behind Basic Auth, in Portuguese, sends a registered letter with its PDF once however often it is submitted, and says why when it is not sent', async ({ skip }) => {
			if (!(await hasDataTables(env()))) return skip('this n8n has no data tables: the case below sends its letter');
			await formSendsLetter(env());
		});

		if (scope === 'smoke') {
			it('before data tables: the form and its Send letter, without the key, send a registered letter with its PDF', async ({ skip }) => {
				if (await hasDataTables(env())) return skip('this n8n has data tables: the case above runs the form as shipped');
				await formSendsLetterWithoutKey(env());
			});
			return;
		}

		it('a PDF posted with the API key sends one registered letter per reference, reserved before the send: refused or above the cap sends nothing, a retry gets the same order', async () => {
			await sendRegisteredLetter(env());
		});

		it('a telegram written from a text template, one per reference, refused when a value is missing', async () => {
			await telegramReminder(env());
		});

		it("mail merge: the note's curl line posts the sample CSV, one letter per row keyed on batch and row; its refused row is named, the others get an order id, and the same line again sends nothing", async () => {
			await mailMergeSample(env());
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
			await returnReceiptToStorage(env());
		});

		it("sends a chat message to the delivered letter's contact, once per order; held without credits, failed when unclear", async () => {
			await chatMessageWhenDelivered(env());
		});

		it('CRM: a deal entering a stage sends one letter, whatever the edits and repeats; its tracking and return receipt come back as notes', async () => {
			await crmDealToLetter(env());
		});

		it("CRM round trip: a client record, in the CRM's Portuguese field names, sends one registered letter with AR; its tracking comes back as notes and the AR's PDF is attached to the same record, its link giving the file back", async () => {
			await crmClientToReturnReceipt(env());
		});

		it("a returned letter (status 6) alerts the collection team once, at the sandbox's receiver", async () => {
			await returnedLetterToCollection(env());
		});

		it("insufficient credits (status 2): a held letter is alerted, then after a top-up a held chat message is reprocessed and a letter still held is reported, at the sandbox's receiver", async () => {
			await insufficientCredits(env());
		});

		it("nightly reconciliation: Get letter finds the changes whose events never arrived, records and reports them to the sandbox's receiver", async () => {
			await nightlyReconciliation(env());
		});

		it('alerts the team chat when the balance is low, and when the balance answer cannot be read, on a schedule', async () => {
			await balanceAlert(env());
		});

		it('Google Sheets mail merge: rows ready are sent once and their status written back, a lost write-back repaired (the Sheets nodes stand in for a spreadsheet)', async () => {
			await sheetsMailMerge(env(), standIn);
		});

		it('the AI agent example keeps its chat private and remembers the conversation', () => {
			aiAgentAsShipped();
		});

		it('the AI agent, its chat through n8n and a scripted model, prices in one message and sends once the user agrees in the next: its memory keeps the conversation, n8n offers the tools as the example describes them, and no execution keeps a key', async ({ skip }) => {
			await aiAgentConfirmsInALaterMessage(env(), (reason) => skip(reason));
		});

		it("the AI agent's Send letter runs the workflow's own sub-workflow: the PDF downloaded once, priced under the cap and sent, once per chat and letter", async () => {
			await aiAgentSendsThroughItself(env());
		});
	});
}
