/**
 * The error output on every tested n8n release, in that release's own engine: every kind of item the
 * node fails under Continue On Fail lands on the error output (or, with "Continue (using regular
 * output)", in place on the one output), every item that went through on the success output, each
 * paired to its input item and none lost. n8n decides the branch by the keys of the item's JSON
 * (WorkflowExecute.handleNodeErrorOutput), and the releases disagree on which keys it accepts.
 */
import { describe, expect, it } from 'vitest';

import type { OutputItem, RunOutcome } from './engine';
import {
	credentials,
	eachRelease,
	family,
	NODE,
	outputOf,
	pairedIndex,
	tokenForms,
	TOKEN,
	workflowOf,
	type Case,
	type OnError,
} from './family';

const CASES = family();

/** What each input item became: the output it is on and its JSON. */
function routed(outcome: RunOutcome, onError: OnError) {
	const outputs = onError === 'continueErrorOutput' ? [0, 1] : [0];
	return outputs.flatMap((output) => outputOf(outcome, NODE, output).map((item) => ({ output, item, index: pairedIndex(item) })));
}

function expectRouted(testCase: Case, outcome: RunOutcome, onError: OnError) {
	expect(outcome.error, JSON.stringify(outcome.error)).toBeUndefined();
	expect(outcome.nodeRuns[NODE]?.at(-1)?.error).toBeUndefined();
	const all = routed(outcome, onError);
	// Every input item comes out, paired to itself; an operation that answers several items per input (none here) would show as a repeat.
	expect(all.map(({ index }) => index).sort()).toEqual(testCase.items.map((_, i) => i));
	for (const { output, item, index } of all) {
		const expected = testCase.expected[index!];
		const input = testCase.items[index!].json;
		if (expected === 'through') {
			expect(output, `item ${index} went through and belongs on the success output`).toBe(0);
			expect(item.json).not.toHaveProperty('error');
			continue;
		}
		expect(output, `item ${index} failed (${String(item.json.error)}) and belongs on the ${onError === 'continueErrorOutput' ? 'error' : 'one'} output`).toBe(onError === 'continueErrorOutput' ? 1 : 0);
		expect(item.json.error).toMatch(expected);
		if (onError === 'continueErrorOutput') {
			// On the error output n8n adds the input item's fields to the failure: the reader sees which item failed.
			expect(item.json.ref).toBe(input.ref);
			expect(Object.keys(item.json).filter((key) => !(key in input))).toEqual(expect.arrayContaining(['error']));
			for (const key of Object.keys(item.json)) expect(['error', 'message', ...Object.keys(input)]).toContain(key);
		} else {
			expect(Object.keys(item.json).filter((key) => key !== 'error' && key !== 'message')).toEqual([]);
		}
	}
	// The nodes after the node ran with exactly what each output carried.
	const onOutput = (output: number) => all.filter((entry) => entry.output === output).map(({ item }) => item.json);
	const branchInput = (name: string) => outputOf(outcome, name, 0).map((item) => item.json);
	expect(branchInput('Went through')).toEqual(onOutput(0));
	if (onError === 'continueErrorOutput') expect(branchInput('Failed')).toEqual(onOutput(1));
	for (const form of tokenForms(testCase.token ?? TOKEN)) expect(outcome.serialized).not.toContain(form);
}

eachRelease((rig) => {
	const { release } = rig;
	/** The JSON shapes of the failures this release routed, over the whole family: both of the node's shapes must occur. */
	const shapes = new Set<string>();

	it(`runs the package on its own engine: n8n-core ${release['n8n-core']} and n8n-workflow ${release['n8n-workflow']}, one copy of n8n-workflow`, () => {
		expect(rig.engine.info.versions).toEqual({ 'n8n-core': release['n8n-core'], 'n8n-workflow': release['n8n-workflow'] });
		const { resolved } = rig.engine.info;
		expect(resolved.package).toBe(resolved['n8n-core']);
		expect(resolved.engine).toBe(resolved['n8n-core']);
		expect(resolved.package.startsWith(`${rig.engine.info.resolved.engine.split('/node_modules/')[0]}/node_modules/`)).toBe(true);
	});

	for (const onError of ['continueErrorOutput', 'continueRegularOutput'] as const) {
		describe(onError === 'continueErrorOutput' ? 'Continue (using error output)' : 'Continue (using regular output)', () => {
			it.each(CASES.map((testCase) => [testCase.name, testCase] as const))('%s', async (_name, testCase) => {
				rig.sandbox.control.reset();
				testCase.before?.(rig.sandbox);
				const outcome = await rig.engine.run(await workflowOf(testCase, onError), credentials(rig.sandbox.baseUrl, testCase.token));
				expectRouted(testCase, outcome, onError);
				testCase.after?.(rig.sandbox);
				for (const { item } of routed(outcome, onError)) {
					if ('error' in item.json) shapes.add(Object.keys(failureOnly(item, testCase)).sort().join(','));
				}
			});
		});
	}

	it('routed both shapes of failure the node makes: {error} and {error, message}', () => {
		expect([...shapes].sort()).toEqual(['error', 'error,message']);
	});
});

/** A failure's own keys, without the input fields n8n adds on the error output. */
function failureOnly(item: OutputItem, testCase: Case): Record<string, unknown> {
	const input = testCase.items[pairedIndex(item)!].json;
	return Object.fromEntries(Object.entries(item.json).filter(([key]) => key === 'error' || key === 'message' || !(key in input)));
}
