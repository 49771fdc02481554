// Secrets must never reach an execution: searched in every execution, data included, as stored.
import { expect } from 'vitest';

import type { N8nClient } from '../../../scripts/dev/n8n';
import { listExecutions } from './environment';

/** Fails when any secret (or its URL-encoded form) is in an execution; returns how many were searched. */
export async function expectSecretsInNoExecution(client: N8nClient, secrets: string[], options: { workflowIds?: string[] } = {}): Promise<number> {
	const executions = options.workflowIds
		? (await Promise.all(options.workflowIds.map((workflowId) => listExecutions(client, { workflowId, includeData: true })))).flat()
		: await listExecutions(client, { includeData: true });
	for (const execution of executions) {
		const text = JSON.stringify(execution);
		for (const [index, secret] of secrets.entries()) {
			expect(text.includes(secret), `execution ${execution.id} holds secret #${index}`).toBe(false);
			expect(text.includes(encodeURIComponent(secret)), `execution ${execution.id} holds secret #${index}, URL-encoded`).toBe(false);
		}
	}
	return executions.length;
}
