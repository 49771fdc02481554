/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
// The way around for an operation the node does not offer: n8n's own HTTP Request node (the version
// its editor adds) with the package's credentials as Predefined Credential Type, one route of each
// family the credentials reach. The token is never typed into a workflow, and no execution or log
// keeps it. How the credentials' authentication lands on each route for any body is proven in
// test/node/description-credentials.test.ts; this proves n8n's own node carries it.
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { SAMPLE_RECIPIENT } from '../../../sandbox/recipient';
import { SAMPLE_LETTER_PATH } from '../../../sandbox/sample';
import { activateWorkflow, createWorkflow, waitForWebhook, type WorkflowNode } from '../../../scripts/dev/workflows';
import { editorJson, getExecution, listExecutions, waitFor, type E2eEnvironment, type Execution } from '../support/environment';
import { expectSecretsInNoExecution } from '../support/secrets';

const HTTP_REQUEST = 'n8n-nodes-base.httpRequest';
const API = 'postalServiceApi';
const CHAT = 'postalServiceChatApi';

type Credential = typeof API | typeof CHAT;

/** An HTTP Request node as a user sets one up: Authentication → Predefined Credential Type → the credential. */
function httpRequest(name: string, credential: Credential | undefined, parameters: Record<string, unknown>): WorkflowNode {
	return {
		id: randomUUID(),
		name,
		type: HTTP_REQUEST,
		typeVersion: editorVersion,
		position: [0, 0],
		parameters: {
			...(credential ? { authentication: 'predefinedCredentialType', nodeCredentialType: credential } : {}),
			options: {},
			...parameters,
		},
		...(credential ? { credentials: { [credential]: { id: '0', name: credential } } } : {}),
	};
}

/** The version of the HTTP Request node this n8n's editor adds (4.5 in 2.41.1), read from the running n8n. */
let editorVersion = 0;

const jsonBody = (body: unknown) => ({ sendBody: true, contentType: 'json', specifyBody: 'json', jsonBody: JSON.stringify(body) });

export function httpRequestCases(env: () => E2eEnvironment) {
	describe('HTTP Request with the credentials, for the routes the node does not offer', () => {
		const workflowIds: string[] = [];
		const base = () => env().sandbox.baseUrl;

		beforeAll(async () => {
			const types = await editorJson<Array<{ name: string; version: number | number[]; defaultVersion?: number }>>(env(), '/types/nodes.json');
			const type = types.find((t) => t.name === HTTP_REQUEST && t.defaultVersion !== undefined);
			expect(type, 'the HTTP Request node and its default version').toBeDefined();
			editorVersion = type!.defaultVersion!;
			console.log(`[e2e ${env().topology}] HTTP Request node version ${editorVersion}`);
		});

		afterAll(async () => {
			// Deactivated, not deleted: the suite's last case searches their executions for the token too.
			for (const id of workflowIds) await env().client.api('POST', `/workflows/${id}/deactivate`).catch(() => undefined);
		});

		/** A workflow started by a webhook, whose node fans out to `nodes` (and `after` to theirs); run once, its execution returned. */
		async function runOnce(name: string, nodes: WorkflowNode[], after: Record<string, WorkflowNode> = {}): Promise<Execution> {
			const webhookPath = `http-request-${randomUUID()}`;
			const webhook: WorkflowNode = {
				id: randomUUID(),
				name: 'Start',
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2.1,
				position: [0, 0],
				webhookId: randomUUID(),
				parameters: { httpMethod: 'POST', path: webhookPath, responseMode: 'onReceived', options: {} },
			};
			const connections: Record<string, unknown> = {
				Start: { main: [nodes.map((n) => ({ node: n.name, type: 'main', index: 0 }))] },
				...Object.fromEntries(Object.entries(after).map(([from, node]) => [from, { main: [[{ node: node.name, type: 'main', index: 0 }]] }])),
			};
			const { id } = await createWorkflow(env().client, { name, nodes: [webhook, ...nodes, ...Object.values(after)], connections }, env().credentials);
			workflowIds.push(id);
			await activateWorkflow(env().client, id);
			const url = `${env().webhookUrl}/webhook/${webhookPath}`;
			await waitForWebhook(url);
			const started = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
			expect(started.status).toBe(200);
			// Read until its data is there too: n8n 1.85.4 stores an execution's status before its data.
			return await waitFor(
				async () => {
					const [listed] = await listExecutions(env().client, { workflowId: id });
					if (!listed) return undefined;
					const execution = await getExecution(env().client, listed.id);
					const ended = ['success', 'error', 'crashed'].includes(execution.status) && Object.keys(execution.data?.resultData.runData ?? {}).length > 0;
					return ended ? execution : undefined;
				},
				`the execution of "${name}"`,
				60_000,
			);
		}

		const runOf = (execution: Execution, node: string) => {
			const run = execution.data?.resultData.runData[node]?.[0];
			expect(run, `${node} ran in execution ${execution.id} (${execution.status}): ${JSON.stringify(execution.data?.resultData).slice(0, 1500)}`).toBeDefined();
			return run!;
		};
		const outputOf = (execution: Execution, node: string) => {
			const run = runOf(execution, node);
			expect(run.error, `${node}: ${run.error?.message}`).toBeUndefined();
			const items = run.data?.main[0] ?? [];
			expect(items, node).toHaveLength(1);
			return items[0].json;
		};

		/** The token as sent, in base64, and inside HTTP Basic (the search adds each one URL-encoded). */
		const secrets = () => {
			const { token, sandbox } = env();
			return [token, Buffer.from(token).toString('base64'), Buffer.from(`${sandbox.email}:${token}`).toString('base64')];
		};

		/** The requests of this case's routes the sandbox saw: the API token in the query and nowhere else, the chat one by HTTP Basic. */
		function expectTokenOnlyInQuery(routes: string[]) {
			const { token, sandbox } = env();
			for (const route of routes) {
				const [request] = sandbox.control.requests({ path: route });
				expect(request, `the sandbox got ${route}`).toBeDefined();
				expect(request.query.userSecurityToken, route).toBe(token);
				expect(JSON.stringify({ ...request, query: {} }), route).not.toContain(token);
			}
		}

		it('reaches each family without the token in the workflow: favorites update, a letter priced with its PDF, the logo, a receipt, the chat templates', async () => {
			const { sandbox, token } = env();
			const order = (await sandbox.control.sendSampleLetter()).id as string;
			sandbox.control.clearRequests();
			const letterFields = Object.entries({ ...SAMPLE_RECIPIENT, shipType: '1', test: '1' }).map(([name, value]) => ({ parameterType: 'formData', name, value }));
			const price = httpRequest('Price letter', API, {
				method: 'POST',
				url: `${base()}/api/v2/post`,
				sendBody: true,
				contentType: 'multipart-form-data',
				bodyParameters: { parameters: [...letterFields, { parameterType: 'formBinaryData', name: 'pdfFile', inputDataFieldName: 'data' }] },
			});
			const execution = await runOnce(
				'HTTP Request: one route of each family',
				[
					httpRequest('Favorites', API, { method: 'PUT', url: `${base()}/api/v2/favorites`, ...jsonBody({ id: 1, city: 'Santos' }) }),
					httpRequest('Sample letter', undefined, {
						url: `${base()}${SAMPLE_LETTER_PATH}`,
						options: { response: { response: { responseFormat: 'file', outputPropertyName: 'data' } } },
					}),
					httpRequest('Logo', API, { url: `${base()}/api/v2/logo` }),
					httpRequest('Receipt', API, { url: `${base()}/api/receipts/v1/get`, sendQuery: true, queryParameters: { parameters: [{ name: 'order_id', value: order }] } }),
					httpRequest('Chat templates', CHAT, { url: `${base()}/api/chat/v1/templates/get` }),
				],
				{ 'Sample letter': price },
			);
			expect(execution.status, JSON.stringify(execution.data?.resultData.error)).toBe('success');

			expect(outputOf(execution, 'Favorites')).toMatchObject({ success: true, favorite: { id: 1, city: 'Santos' } });
			expect(sandbox.control.favorites()[0].city).toBe('Santos');
			expect(outputOf(execution, 'Price letter')).toMatchObject({ status: 200, data: { value: expect.any(Number) } });
			expect(outputOf(execution, 'Logo')).toMatchObject({ code: 200, data: { logo_url: expect.stringMatching(/^http/) } });
			expect(outputOf(execution, 'Receipt')).toMatchObject({ status: 200, data: { id_job: order } });
			expect(outputOf(execution, 'Chat templates')).toMatchObject({ code: 200, data: sandbox.control.templates().map((t) => expect.objectContaining({ id: t.id })) });

			const [priced] = sandbox.control.requests({ method: 'POST', path: '/api/v2/post' });
			expect(priced.files).toMatchObject([{ field: 'pdfFile', mimeType: 'application/pdf' }]);
			expect(priced.fields).toMatchObject({ shipType: '1', test: '1', zip: SAMPLE_RECIPIENT.zip });
			expectTokenOnlyInQuery(['/api/v2/favorites', '/api/v2/post', '/api/v2/logo', '/api/receipts/v1/get']);
			const [chat] = sandbox.control.requests({ path: '/api/chat/v1/templates/get' });
			expect(chat.headers.authorization).toBe(`Basic ${Buffer.from(`${sandbox.email}:${token}`).toString('base64')}`);
			expect(chat.query).toEqual({});

			expect(await expectSecretsInNoExecution(env().client, secrets(), { workflowIds: [execution.workflowId] })).toBe(1);
		});

		it("n8n's own log and event log hold no token after these calls", ({ skip }) => {
			const server = env().n8n;
			if (!server) return skip('the log files of one process are read in the single topology');
			const folder = path.join(server.userFolder, '.n8n');
			const logs = [server.logFile, ...readdirSync(folder).filter((f) => f.endsWith('.log')).map((f) => path.join(folder, f))];
			expect(logs.length).toBeGreaterThanOrEqual(1);
			for (const file of logs) {
				const text = readFileSync(file, 'utf8');
				for (const [index, secret] of [...secrets(), encodeURIComponent(env().token)].entries()) {
					expect(text.includes(secret), `${path.basename(file)} holds secret #${index}`).toBe(false);
				}
			}
		});
	});
}
