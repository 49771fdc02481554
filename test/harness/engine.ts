/**
 * Runs workflows through n8n's own engine (n8n-core's WorkflowExecute) in this process, with our
 * node types registered and credentials supplied by the test. A webhook node can be started through
 * a real WebhookContext. Nothing of our code is mocked: the nodes make real HTTP requests.
 *
 * n8n-workflow must be one copy for n8n-core and for our nodes (instanceof checks, the expression
 * engine); vitest.config.ts aliases it to the CommonJS build n8n-core requires.
 *
 * The import point of the tests; the parts live in n8n/ by concern: env.ts (set before n8n loads),
 * setup.ts (loading the engine and registry), run.ts, editor.ts, webhook.ts, and host.cjs, what
 * n8n's server gives its engine, which the release runner (test/releases/runner.cjs) uses too.
 */
export { credentialReadCount, credentialType, nodeType, processedData, type CredentialsByType, type RunResult, type WorkflowJson } from './n8n/setup';
export { binaryBuffer, runAsTool, runNode, runWorkflow, type RunWorkflowOptions, type TestItem } from './n8n/run';
export { listSearch, resourceMapping, runCredentialTest } from './n8n/editor';
export { runWebhook, type WebhookRunResult } from './n8n/webhook';
