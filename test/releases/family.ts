/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
/**
 * What the release tests share: one describe block per release with its engine and a sandbox, the
 * credentials, and every kind of failure the action node turns into an item under Continue On Fail,
 * each case mixing items that go through with items that fail, as workflows for runner.cjs. The
 * cases of "each operation" are EVERY_OPERATION's (test/node/retry.test.ts holds it to the node's list).
 */
import { afterAll, beforeAll, describe } from 'vitest';

import { startSandbox, type Sandbox } from '../../sandbox';
import { credentialsAt, EVERY_OPERATION, LETTER, makePdf } from '../harness/sends';
import { RELEASES, startEngine, type Engine, type OutputItem, type Release, type RunOutcome, type TestWorkflow, type WorkflowNode } from './engine';

// Distinctive, so that a leak anywhere in a run is found by a plain substring search.
export const TOKEN = 'tok-Rel7-SECRET-5390';
export const EMAIL = 'conta@example.com';
export const NODE_TYPE = 'n8n-nodes-postal-service.postalService';
export const NODE = 'Postal Service';

export type OnError = 'continueErrorOutput' | 'continueRegularOutput';

export const credentials = (baseUrl: string, token = TOKEN) => credentialsAt(baseUrl, token, EMAIL);

/**
 * One describe block per tested release, with a sandbox and the release's engine (in its default
 * binary-data mode, unless `engine: false`) started before its tests and stopped after them.
 */
export function eachRelease(body: (rig: { release: Release; sandbox: Sandbox; engine: Engine }) => void, options: { engine?: boolean } = {}): void {
	for (const release of RELEASES) {
		describe(`n8n ${release.n8n}`, () => {
			const rig = { release } as Parameters<typeof body>[0];
			beforeAll(async () => {
				rig.sandbox = await startSandbox({ port: 0, token: TOKEN, email: EMAIL, quiet: true, balance: 100_000, authFailureLimit: 1_000_000 });
				if (options.engine !== false) rig.engine = await startEngine(release);
			});
			afterAll(async () => {
				await rig.engine?.stop();
				await rig.sandbox?.stop();
			});
			body(rig);
		});
	}
}

/** Every form the token could take in a run's data. */
export function tokenForms(token = TOKEN): string[] {
	return [token, encodeURIComponent(token), Buffer.from(token).toString('base64'), Buffer.from(`${EMAIL}:${token}`).toString('base64')];
}

/** An input item: its JSON (with `ref`, which names it in the outputs) and, for letters, its file. */
export interface InputItem {
	json: Record<string, unknown>;
	/** A one-page PDF, or bytes that are not a PDF (the service refuses them). */
	pdf?: 'valid' | 'notPdf';
}

export interface Case {
	name: string;
	parameters: Record<string, unknown>;
	items: InputItem[];
	/** Per input item: it goes through, or it fails with an error whose text matches. */
	expected: Array<'through' | RegExp>;
	token?: string;
	/** Sets up the sandbox before the run (a fault, a seeded record). */
	before?: (sandbox: Sandbox) => void;
	/** What the service must (not) have seen, checked after the run. */
	after?: (sandbox: Sandbox) => void;
}

/** Create parameters read from the item, so that one run holds valid and invalid letters. */
const LETTER_FROM_ITEM = {
	...LETTER,
	shipType: '={{ $json.shipType }}',
	recipientZip: '={{ $json.zip }}',
	recipientState: '={{ $json.state }}',
	tag: '={{ $json.ref }}',
};
const letter = (ref: string, fields: Record<string, unknown> = {}, pdf: InputItem['pdf'] = 'valid'): InputItem => ({
	json: { ref, shipType: 2, zip: LETTER.recipientZip, state: LETTER.recipientState, ...fields },
	pdf,
});
const never = (parameters: Record<string, unknown>) => ({ ...parameters, additionalFields: { checkWithService: 'never' } });

export function family(): Case[] {
	// Retry On Fail refused on a write is behaviours.test.ts's, on each release's own retry loop; each reason
	// a letter is refused before sending is test/node/validation.test.ts's, one of them here routes them all.
	const cases: Case[] = [
		{
			name: 'refused before sending: a postal code of another state',
			parameters: LETTER_FROM_ITEM,
			items: [letter('a'), letter('b', { zip: '20040-020' }), letter('c')],
			expected: ['through', /postal code 20040020 belongs to RJ/, 'through'],
		},
		{
			name: 'refused before sending: an Options > Timeout out of range',
			parameters: { ...LETTER_FROM_ITEM, options: { timeout: '={{ $json.timeout }}' } },
			items: [letter('a', { timeout: 5000 }), letter('b', { timeout: -1 })],
			expected: ['through', /Timeout/],
		},
		{
			name: 'a failed check: Check With the Service First, the service refusing a file that is not a PDF',
			parameters: { ...LETTER_FROM_ITEM, additionalFields: { checkWithService: 'always' } },
			items: [letter('a'), letter('b', {}, 'notPdf'), letter('c')],
			expected: ['through', /PDF/, 'through'],
		},
		{
			name: 'refused by the service (a 4xx): a ship type without its required field',
			parameters: never(LETTER_FROM_ITEM),
			items: [letter('a'), letter('b', { shipType: 6 })],
			expected: ['through', /refused/],
		},
		{
			name: 'an unclear write: the service answers 500 to the create',
			parameters: never(LETTER_FROM_ITEM),
			items: [letter('a'), letter('b'), letter('c')],
			expected: ['through', /internal error/, 'through'],
			before: (sandbox) => sandbox.control.injectFault({ method: 'POST', path: '/api/v2/post', kind: '500', skip: 1, count: 1 }),
		},
		{
			name: 'an unclear write: the connection drops after the service took the create',
			parameters: never(LETTER_FROM_ITEM),
			items: [letter('a'), letter('b')],
			expected: [/connection|answer/i, 'through'],
			before: (sandbox) => sandbox.control.injectFault({ method: 'POST', path: '/api/v2/post', kind: 'dropAfterAccept', count: 1 }),
		},
		{
			name: 'a redirect answered to a read: not followed, so the token goes nowhere else',
			parameters: { resource: 'account', operation: 'getBalance' },
			items: [{ json: { ref: 'a' } }, { json: { ref: 'b' } }],
			expected: [/does not follow redirects/, 'through'],
			before: (sandbox) => sandbox.control.injectFault({ path: '/api/v2/balance/', kind: 'redirect', location: `${sandbox.baseUrl}/elsewhere`, count: 1 }),
			after: (sandbox) => {
				if (sandbox.control.requests({ path: '/elsewhere' }).length > 0) throw new Error('the redirect was followed');
			},
		},
		{
			// Thirty seconds against half a second: no machine is that slow, and the answer never comes before the stop.
			name: 'a read that outlasts its Options > Timeout',
			parameters: { resource: 'account', operation: 'getBalance', options: { timeout: '={{ $json.timeout }}' } },
			items: [{ json: { ref: 'a', timeout: 500 } }, { json: { ref: 'b', timeout: 60_000 } }],
			expected: [/did not answer in time/, 'through'],
			before: (sandbox) => sandbox.control.injectFault({ path: '/api/v2/balance/', kind: 'slow', delayMs: 30_000, count: 1 }),
		},
		{
			// What a workflow saved with an operation that a later version of the package renamed meets: its one failure has no description.
			name: 'an operation the node does not know: every item fails',
			parameters: { resource: 'order', operation: 'sendLetter' },
			items: [{ json: { ref: 'a' } }, { json: { ref: 'b' } }],
			expected: [/is not known/, /is not known/],
		},
	];
	for (const [key, operation] of Object.entries(EVERY_OPERATION)) {
		cases.push({
			name: `${key} with a wrong token`,
			parameters: operation.parameters,
			items: [0, 1].map((i) => ({ json: { ref: `${key}-${i}` }, pdf: operation.pdf ? 'valid' : undefined })),
			expected: [/token|e-mail/i, /token|e-mail/i],
			token: 'wrong-Token+77',
		});
	}
	return cases;
}

let pdfBase64: string | undefined;

export const CREDENTIAL_REFS = { postalServiceApi: { id: '1', name: 'Postal Service account' }, postalServiceChatApi: { id: '2', name: 'Postal Service chat account' } };

/** Start → Postal Service (set to continue) → "Went through" on output 0 and, for the error output, "Failed" on output 1. */
export async function workflowOf(testCase: Case, onError: OnError): Promise<TestWorkflow> {
	const node: WorkflowNode = {
		name: NODE,
		type: NODE_TYPE,
		parameters: testCase.parameters,
		credentials: CREDENTIAL_REFS,
		onError,
	};
	const to = (name: string) => [{ node: name, type: 'main', index: 0 }];
	pdfBase64 ??= (await makePdf(1)).toString('base64');
	// The items as the start node takes them, files as base64.
	const items = testCase.items.map(({ json, pdf }) => ({
		json,
		pdfBase64: pdf === 'valid' ? pdfBase64 : pdf === 'notPdf' ? Buffer.from('%PDF? not really, just text').toString('base64') : undefined,
	}));
	return {
		startNode: 'Start',
		nodes: [
			{ name: 'Start', type: 'test.items', parameters: { items: JSON.stringify(items) } },
			node,
			{ name: 'Went through', type: 'test.passThrough' },
			{ name: 'Failed', type: 'test.passThrough' },
		],
		connections: {
			Start: { main: [to(NODE)] },
			[NODE]: { main: onError === 'continueErrorOutput' ? [to('Went through'), to('Failed')] : [to('Went through')] },
		},
	};
}

/** The input item an output item came from. */
export function pairedIndex(item: OutputItem): number | undefined {
	const paired = Array.isArray(item.pairedItem) ? item.pairedItem[0] : item.pairedItem;
	return paired?.item;
}

/** The items of a node's last run on an output (empty when it did not run or put nothing there). */
export function outputOf(outcome: RunOutcome, node: string, output = 0): OutputItem[] {
	const runs = outcome.nodeRuns[node] ?? [];
	return runs.at(-1)?.data?.main?.[output] ?? [];
}
