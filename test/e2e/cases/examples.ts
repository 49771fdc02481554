// The example workflows of examples/, imported as they are.
import { describe, expect, it } from 'vitest';

import { PACKAGE_NAME } from '../../../scripts/n8n';
import { readExamples } from '../../../scripts/workflows';
import { editorJson, type E2eEnvironment, type Scope } from '../support/environment';
import { chatMessageWhenDelivered, keepReturnReceipt, sendRegisteredLetter } from '../support/examples';

export function exampleCases(env: () => E2eEnvironment, scope: Scope) {
	describe('the example workflows, imported as they are', () => {
		if (scope === 'full') {
			it('use only parameters the nodes declare', async () => {
				const types = await editorJson<Array<{ name: string; version: number | number[]; properties: Array<{ name: string }> }>>(
					env(),
					'/types/nodes.json',
				);
				const examples = readExamples();
				expect(examples.length).toBeGreaterThanOrEqual(3);
				for (const { file, workflow } of examples) {
					for (const node of workflow.nodes.filter((n) => n.type.startsWith(`${PACKAGE_NAME}.`))) {
						const type = types.find((t) => t.name === node.type);
						expect(type, `${file}: ${node.type}`).toBeDefined();
						expect([type!.version].flat(), `${file}: ${node.name} version`).toContain(node.typeVersion);
						const declared = new Set(type!.properties.map((p) => p.name));
						for (const parameter of Object.keys(node.parameters)) {
							expect(declared.has(parameter), `${file}: "${node.name}" has parameter "${parameter}" that ${node.type} does not declare`).toBe(true);
						}
					}
				}
			});
		}

		it('sends a registered letter with return receipt from a PDF posted to its webhook', async () => {
			await sendRegisteredLetter(env());
		});

		if (scope === 'smoke') return;

		it('keeps the return receipt and marks the order when rr.created arrives', async () => {
			await keepReturnReceipt(env());
		});

		it('sends a chat template message to the saved contact when the letter is delivered', async () => {
			await chatMessageWhenDelivered(env());
		});
	});
}
