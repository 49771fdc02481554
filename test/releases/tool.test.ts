/**
 * What an AI agent gets when the node, used as its tool, fails, on every tested release, in that
 * release's own engine. n8n hands a tool's answer to an agent in two ways:
 * - in-process: the agent calls the tool object n8n makes of the node (getInputConnectionData; the
 *   only way in n8n 1.85, and the way of the Agent node before version 3 on later releases);
 * - by engine request: the agent asks the engine to run the tool node as a node and reads its run
 *   (the Agent node from version 3, the default on 1.123.81, 2.0.0 and 2.41.1; not in n8n-core 1.84).
 * The agent of the second way reads the tool run's items, or when it has none the run's error
 * message (buildSteps in @n8n/n8n-nodes-langchain 1.122.57, 2.0.0 and 2.41.1); the test agents here
 * put out what each way hands over. The requirement: the agent reads the error text, never the token.
 */
import { describe, expect, it } from 'vitest';

import type { Sandbox } from '../../sandbox';
import { SAMPLE_LETTER_PATH } from '../../sandbox/sample';
import { LETTER } from '../harness/sends';
import type { RunOutcome, TestWorkflow, WorkflowNode } from './engine';
import { credentials, CREDENTIAL_REFS, eachRelease, outputOf, TOKEN, tokenForms } from './family';

type Way = 'in-process' | 'engine request';
type Setting = 'default' | 'continueRegularOutput' | 'stopWorkflow' | 'continueErrorOutput';

const WRONG_TOKEN = 'wrong-Token+77';

/** Failures an agent's tool meets, each with the text the agent must read. */
const priced = (sandbox: Sandbox) => ({ ...LETTER, operation: 'getPrice', pdfSource: 'url', pdfUrl: `${sandbox.baseUrl}${SAMPLE_LETTER_PATH}` });
const FAILURES: Array<{ name: string; parameters: (sandbox: Sandbox) => Record<string, unknown>; token?: string; reads: RegExp }> = [
	{ name: 'refused before sending (a postal code of 7 digits)', parameters: (sandbox) => ({ ...priced(sandbox), recipientZip: '0130-500' }), reads: /8 digits.*0130-500/ },
	{ name: 'refused by the service (a 4xx)', parameters: (sandbox) => ({ ...priced(sandbox), shipType: 6 }), reads: /The service refused \\?"Ship Type\\?" \(shipType\): .* The service said: .*(virtualbox|caixa virtual|unidade)/i },
	{ name: 'a wrong token', parameters: () => ({ resource: 'order', operation: 'get', orderId: '100001' }), token: WRONG_TOKEN, reads: /Check the security token.*Token inválido/ },
];

/** Releases whose engine runs engine requests (n8n-core 1.84 has none). */
const hasEngineRequests = (release: string) => release !== '1.85.4';

function workflowOf(way: Way, parameters: Record<string, unknown>, setting: Setting): TestWorkflow {
	const tool: WorkflowNode = {
		name: 'Postal Service',
		type: 'n8n-nodes-postal-service.postalServiceTool',
		parameters,
		credentials: CREDENTIAL_REFS,
		// The editor stores no setting for the default.
		...(setting === 'default' ? {} : { onError: setting }),
	};
	return {
		startNode: 'Chat',
		nodes: [
			{ name: 'Chat', type: 'test.items', parameters: { items: JSON.stringify([{ json: { chatInput: 'How much is this letter?' } }]) } },
			{ name: 'Agent', type: way === 'in-process' ? 'test.agent' : 'test.engineAgent', parameters: { tool: 'Postal Service' } },
			tool,
		],
		connections: {
			Chat: { main: [[{ node: 'Agent', type: 'main', index: 0 }]] },
			'Postal Service': { ai_tool: [[{ node: 'Agent', type: 'ai_tool', index: 0 }]] },
		},
	};
}

/** What the agent got from its tool: the text it reads, or undefined when the execution stopped before it read anything. */
function agentRead(way: Way, outcome: RunOutcome): string | undefined {
	const [answer] = outputOf(outcome, 'Agent');
	if (!answer) return undefined;
	if (way === 'in-process') return String(answer.json.answer ?? answer.json.thrown);
	const run = answer.json.toolRun as { data?: { ai_tool?: Array<Array<{ json: unknown }>> }; error?: { message?: string } };
	const items = run.data?.ai_tool?.[0] ?? [];
	if (items.length > 0) return JSON.stringify(items.map((item) => item.json));
	return run.error?.message ?? '';
}

eachRelease((rig) => {
	const { release } = rig;
	const ways: Way[] = hasEngineRequests(release.n8n) ? ['in-process', 'engine request'] : ['in-process'];
	for (const way of ways) {
		for (const setting of ['default', 'continueRegularOutput'] as const) {
			describe(`${way}, On Error: ${setting === 'default' ? 'left as it comes (Stop Workflow)' : 'Continue'}`, () => {
				for (const failure of FAILURES) {
					// The node answers as under Continue whenever it runs as a tool: n8n-core 1.84 would hand the agent
					// "Error during node execution: undefined", and 1.122 and 2.0.0 would stop the execution.
					it(`${failure.name}: the agent reads the failure's text, never the token`, async () => {
						const outcome = await rig.engine.run(workflowOf(way, failure.parameters(rig.sandbox), setting), credentials(rig.sandbox.baseUrl, failure.token));
						for (const form of tokenForms(failure.token ?? TOKEN)) expect(outcome.serialized).not.toContain(form);
						const read = agentRead(way, outcome);
						expect(read, `${failure.name}: the execution ended ${outcome.status}: ${outcome.error?.message}`).toBeDefined();
						expect(read).toMatch(failure.reads);
					});
				}
			});
		}
	}

	it('Stop Workflow set on the tool: every way either stops the execution with the failure\'s text or hands the agent that text, the token nowhere', async () => {
		for (const way of ways) {
			for (const failure of FAILURES) {
				const outcome = await rig.engine.run(workflowOf(way, failure.parameters(rig.sandbox), 'stopWorkflow'), credentials(rig.sandbox.baseUrl, failure.token));
				for (const form of tokenForms(failure.token ?? TOKEN)) expect(outcome.serialized).not.toContain(form);
				const read = agentRead(way, outcome);
				if (read === undefined) expect(outcome.error?.message, `${way}, ${failure.name}`).toMatch(failure.reads);
				else if (!(release.n8n === '1.85.4' && way === 'in-process')) expect(read, `${way}, ${failure.name}`).toMatch(failure.reads);
			}
		}
	});

	if (hasEngineRequests(release.n8n)) {
		it('Continue (using error output) on the tool: the agent reads nothing, as n8n moves the failure to an error output a tool does not have', async () => {
			for (const failure of FAILURES) {
				const outcome = await rig.engine.run(workflowOf('engine request', failure.parameters(rig.sandbox), 'continueErrorOutput'), credentials(rig.sandbox.baseUrl, failure.token));
				expect(outcome.status).toBe('success');
				expect(agentRead('engine request', outcome)).toBe('');
			}
		});
	}
});
