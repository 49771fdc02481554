/**
 * The "Outputs" section of docs/outputs.md, made from a real run: every read operation of the
 * action node runs through n8n's engine against a fresh sandbox, with fixed inputs, and its output
 * items are written as JSON with the volatile values (ids, dates, the sandbox's address) replaced by
 * fixed ones. `outputs.test.ts` compares the result with the page; `writeOutputs.ts` rewrites it.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { RESOURCES } from '../../nodes/PostalService/actions/resources';
import { startSandbox } from '../../sandbox';
import { runNode, type TestItem } from '../harness/engine';
import { credentialsAt, EVERY_OPERATION, LETTER, pdfItem } from '../harness/sends';

// Not test/node/fixture.ts: that one registers vitest hooks, and `npm run docs:outputs` runs without vitest.
const TOKEN = 'tok-outputs-example';
const EMAIL = 'conta@example.com';
type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
/** A sandbox of its own for a section's run (routes.ts runs in one too). */
export const startExampleSandbox = (options: { balance?: number } = {}) => startSandbox({ port: 0, token: TOKEN, email: EMAIL, quiet: true, ...options });

export async function run(sandbox: Sandbox, parameters: IDataObject, items?: TestItem[], continueOnFail = false) {
	return await runNode({
		type: 'n8n-nodes-postal-service.postalService',
		parameters,
		items,
		credentials: credentialsAt(sandbox.baseUrl, TOKEN, EMAIL),
		continueOnFail,
	});
}

/** Volatile text of one run (ids, the sandbox's address) and the fixed text it becomes. */
type Replacements = Map<string, string>;

const FIXED_DATE = '2026-03-02';
const FIXED_TIME = '10:15:00';
const FIXED_IDS = { letter: '100001', email: 'E5001' };
// `Y-m-d H:i:s` (the service's dates) and ISO 8601 (the postal operator's tracking events).
const DATE_TIME = /^\d{4}-\d{2}-\d{2}([ T])\d{2}:\d{2}:\d{2}/;

export function normalise(value: unknown, replacements: Replacements): unknown {
	if (typeof value === 'string') {
		let text = value.replace(DATE_TIME, (_, separator: string) => `${FIXED_DATE}${separator}${FIXED_TIME}`);
		for (const [from, to] of replacements) text = text.split(from).join(to);
		return text;
	}
	if (Array.isArray(value)) return value.map((entry) => normalise(entry, replacements));
	if (value && typeof value === 'object') {
		return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, normalise(entry, replacements)]));
	}
	return value;
}

/** An output item as the page shows it: its JSON, and for a file the binary property's name, file name and type. */
export function shown(item: INodeExecutionData): IDataObject {
	if (!item.binary) return item.json;
	const binary = Object.fromEntries(
		Object.entries(item.binary).map(([name, file]) => [name, { fileName: file.fileName, mimeType: file.mimeType }]),
	);
	return { json: item.json, binary };
}

/** Sets up one order of each kind, in the states that make their reads show something. */
async function prepare(sandbox: Sandbox): Promise<{ letterId: string; emailId: string }> {
	const created = await run(sandbox, { ...LETTER, tag: 'invoice-2026-03' }, [await pdfItem(2)]);
	if (created.error) throw new Error(`Creating the example letter failed: ${created.error.message}`);
	const letterId = String(created.items[0].json.id);
	sandbox.control.setOrderStatus(letterId, 4);
	sandbox.control.addTrackingEvent(letterId, { codigo: 'RO', descricao: 'Objeto em trânsito - por favor aguarde', cidade: 'São Paulo', uf: 'SP' });
	const emailId = String(
		sandbox.control.createEmailOrder({ email: 'joao@example.com', name: 'João Souza', subject: 'Notificação de cobrança' }).id,
	);
	sandbox.control.setOrderStatus(emailId, 3);
	return { letterId, emailId };
}

/** "Resource > Operation" as the editor names them, so that a renamed operation renames its example. */
export function titleOf(resource: string, operation: string): string {
	const entry = RESOURCES[resource];
	return `${entry.name} > ${entry.operations[operation].option.name}`;
}

/**
 * What the page shows of each read, by its key in EVERY_OPERATION: each variant's title, its note (one
 * paragraph), what it sets beyond the operation's parameters, and whether it is folded (long answers that Simplify shortens).
 */
const SHOWN: Record<string, Array<{ variant?: string; note: string; set?: IDataObject; folded?: true }>> = {
	'order.get': [
		{ variant: 'Simplify on, the default', note: 'A registered letter that was posted. `statusText` is added by the node from the status table.' },
		{
			variant: 'Simplify off',
			note: "The service's whole answer, plus `statusText` and `currency`; `tracking_records` is the postal operator's own object, newest event first.",
			set: { simplify: false },
			folded: true,
		},
	],
	'order.getPrice': [{ note: 'The same parameters as sending (here a 2-page registered letter); nothing is created. `value` is in reais (BRL).' }],
	'order.downloadFile': [
		{
			variant: 'File Type: PDF',
			note: 'The file is binary data in the field named by "Put Output File in Field"; the JSON says which order and file it is.',
			set: { fileType: 'pdf' },
		},
	],
	'registeredEmail.get': [
		{ variant: 'Simplify on, the default', note: 'A registered e-mail that was sent (status 3).' },
		{ variant: 'Simplify off', note: "The service's whole answer, plus `statusText` and `currency`.", set: { simplify: false }, folded: true },
	],
	'registeredEmail.downloadFile': [{ variant: 'File Type: PDF', note: 'The file of a sent registered e-mail, as binary data (the sandbox gives a PDF; the interface does not show the file).', set: { fileType: 'pdf' } }],
	'chatTemplate.getMany': [
		{
			variant: 'Status: Approved, Simplify on, the default',
			note: `One item per template; \`variable_names\` are the names ${titleOf('chatMessage', 'send')} maps.`,
			set: { filters: { status: 'approved' } },
		},
		{
			variant: 'Status: Approved, Simplify off',
			note: "The service's whole template records, with their texts and components.",
			set: { filters: { status: 'approved' }, simplify: false },
			folded: true,
		},
	],
	'chatSender.getMany': [{ note: 'One item per sender, as the service sends it (no Simplify: see above).' }],
	'account.getBalance': [{ note: 'In reais as we read it, after the example letter and registered e-mail were paid.' }],
	'account.getLogo': [{ note: '`{base_url}` stands for the base URL of the credential.' }],
	'receipt.get': [{ note: 'The receipt file is binary data; its base64 is removed from the JSON.' }],
};

/** Each shown read with EVERY_OPERATION's parameters, its order id the example order of its kind. */
function examples(letterId: string, emailId: string, pdf: TestItem) {
	const reads = Object.keys(EVERY_OPERATION).filter((key) => !EVERY_OPERATION[key].writes);
	// The operations that send, change or spend are described where they are documented.
	const unshown = reads.filter((key) => !SHOWN[key]);
	if (unshown.length) throw new Error(`test/docs/outputs.ts SHOWN has no example of the read ${unshown.join(', ')}`);
	return Object.entries(SHOWN).flatMap(([key, variants]) => {
		const [resource, operation] = key.split('.');
		const { parameters, pdf: needsPdf } = EVERY_OPERATION[key];
		const ids = 'orderId' in parameters ? { orderId: resource === 'registeredEmail' ? emailId : letterId } : {};
		return variants.map(({ variant, note, set, folded }) => ({
			title: `${titleOf(resource, operation)}${variant ? ` (${variant})` : ''}`,
			note,
			parameters: { ...parameters, ...ids, ...set } as IDataObject,
			...(needsPdf ? { items: [pdf] } : {}),
			folded,
		}));
	});
}

function fence(value: unknown): string {
	return ['```json', JSON.stringify(value, null, 2), '```'].join('\n');
}

function render(example: ReturnType<typeof examples>[number], output: unknown): string {
	const block = example.folded ? ['<details><summary>Output</summary>', '', fence(output), '', '</details>'] : [fence(output)];
	return [`### ${example.title}`, '', example.note, '', ...block].join('\n');
}

/** Runs every example against a sandbox of its own and returns the section's text between its markers. */
export async function outputsSection(): Promise<string> {
	const sandbox = await startExampleSandbox({ balance: 1000 });
	try {
		const { letterId, emailId } = await prepare(sandbox);
		// This run's address and ids (the same after every sandbox start today, but not promised).
		const replacements: Replacements = new Map([
			[sandbox.baseUrl, '{base_url}'],
			[letterId, FIXED_IDS.letter],
			[emailId, FIXED_IDS.email],
		]);
		const parts: string[] = [];
		for (const example of examples(letterId, emailId, await pdfItem(2))) {
			const result = await run(sandbox, example.parameters, example.items);
			if (result.error) throw new Error(`${example.title} failed: ${result.error.message}`);
			parts.push(render(example, normalise(result.items.map(shown), replacements)));
		}
		const intro = [
			'Each example below is the output of one run of the node against the local sandbox, with the',
			"parameters its title names, shown as n8n's JSON view shows the items. Ids, dates and the base",
			`URL are replaced by fixed values (\`${FIXED_IDS.letter}\`, \`${FIXED_IDS.email}\`, \`${FIXED_DATE} ${FIXED_TIME}\`, \`{base_url}\`). The`,
			'answers the interface does not show (balance, senders, receipt, the registered e-mail read) are',
			'shaped as the sandbox chose: see [Assumptions](assumptions.md) and',
			'[Where the sandbox chose what the spec does not show](sandbox.md#where-the-sandbox-chose-what-the-spec-does-not-show).',
		].join('\n');
		return [intro, ...parts].join('\n\n');
	} finally {
		await sandbox.stop();
	}
}
