/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

import { afterEach, describe, expect, it } from 'vitest';

import { ASSUMPTIONS, type AssumptionKey } from '../../scripts/check-service/assumptions';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../sandbox';
import { formatTable, type Finding } from '../../scripts/check-service/findings';
import { checkService, isTestAddress } from '../../scripts/check-service/run';
import { EMAIL, newLetter, TOKEN } from '../sandbox/support';

type Key = AssumptionKey;
/** Guesses that need a write the check does not make (a cancellation, a contact's change). */
const NEEDS_A_WRITE: Key[] = ['cancelForceParam', 'cancelReasonParam', 'favoriteFields'];
const ALLOW_LISTED = '+5511987654321';

const sandboxes: Sandbox[] = [];
afterEach(async () => {
	while (sandboxes.length > 0) await sandboxes.pop()!.stop();
});

async function sandboxWithOrder(options: SandboxOptions = {}): Promise<{ sandbox: Sandbox; orderId: string }> {
	const sandbox = await startSandbox({ port: 0, token: TOKEN, email: EMAIL, quiet: true, ...options });
	sandboxes.push(sandbox);
	const orderId = await newLetter(sandbox.baseUrl, { shipType: '3' });
	sandbox.control.setOrderStatus(orderId, 4);
	sandbox.control.addReturnReceipt(orderId);
	return { sandbox, orderId };
}

async function check(options: SandboxOptions = {}): Promise<{ findings: Finding[]; table: string; sandbox: Sandbox }> {
	const { sandbox, orderId } = await sandboxWithOrder(options);
	const { findings } = await checkService({ baseUrl: sandbox.baseUrl, email: EMAIL, token: TOKEN }, { orderId, spendChatMessageTo: ALLOW_LISTED });
	return { findings, table: formatTable(findings), sandbox };
}

const keysWith = (findings: Finding[], verdict: Finding['verdict']) =>
	[...new Set(findings.filter((f) => f.kind === 'assumption' && f.verdict === verdict).map((f) => f.key))].sort();

describe('check-service against the sandbox', () => {
	it('reports every assumption the check can reach as holding, and every statement it touches as agreeing', async () => {
		const { findings, table, sandbox } = await check();
		console.log(`check-service against the sandbox:\n${table}`);
		expect(keysWith(findings, 'differs')).toEqual([]);
		expect(keysWith(findings, 'cannot tell')).toEqual([...NEEDS_A_WRITE].sort());
		expect(keysWith(findings, 'holds')).toEqual(ASSUMPTIONS.map((a) => a.key).filter((k) => !NEEDS_A_WRITE.includes(k)).sort());
		expect(findings.filter((f) => f.kind === 'statement' && f.verdict !== 'holds')).toEqual([]);
		expect(findings.filter((f) => f.kind === 'statement').length).toBeGreaterThanOrEqual(20);
		expect(table).not.toContain(TOKEN);
		// Nothing was created and one chat message (asked for) was spent.
		expect(sandbox.control.orders()).toHaveLength(1);
		expect(sandbox.control.chatMessages()).toHaveLength(1);
	});

	it.each(ASSUMPTIONS.map((a) => a.key))('renaming only %s makes exactly that one differ (or nothing, where a write is needed)', async (key) => {
		const { findings } = await check({ renamedAssumptions: [key] });
		expect(keysWith(findings, 'differs')).toEqual(NEEDS_A_WRITE.includes(key) ? [] : [key]);
	});
});

describe('check-service command line', () => {
	const tsx = path.resolve('node_modules/.bin/tsx');
	const run = (env: Record<string, string>, args: string[] = []) =>
		promisify(execFile)(tsx, ['scripts/check-service/cli.ts', ...args], { env: { ...process.env, ...env }, timeout: 60_000 }).then(
			({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
			(error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
		);

	it('tells the test environment from production by its address', () => {
		expect(isTestAddress('http://127.0.0.1:4010')).toBe(true);
		expect(isTestAddress('https://homolog.example.com.br')).toBe(true);
		expect(isTestAddress('https://api.example.com.br')).toBe(false);
	});

	it('refuses a production address without --production, and a token on the command line', async () => {
		const production = await run({ POSTAL_SERVICE_BASE_URL: 'https://api.example.com.br', POSTAL_SERVICE_EMAIL: EMAIL, POSTAL_SERVICE_TOKEN: TOKEN });
		expect(production.code).toBe(2);
		expect(production.stderr).toMatch(/api\.example\.com\.br is not a test-environment address.*--production/);
		const onLine = await run({ POSTAL_SERVICE_BASE_URL: 'http://127.0.0.1:9' }, ['--token', TOKEN]);
		expect(onLine.code).toBe(2);
		expect(onLine.stderr).toMatch(/Unknown option '--token'/);
	});

	it('prints the table from the environment variables, without the token; exit 1 when a guess differs', async () => {
		const { sandbox } = await sandboxWithOrder({ renamedAssumptions: ['balanceFields'] });
		const result = await run({ POSTAL_SERVICE_BASE_URL: sandbox.baseUrl, POSTAL_SERVICE_EMAIL: EMAIL, POSTAL_SERVICE_TOKEN: TOKEN });
		expect(result.stdout).toMatch(/balanceFields\s+DIFFERS\s+data is 200 \{"saldo"/);
		expect(result.stdout).toMatch(/chatSend\s+cannot tell\s+needs one chat message/);
		expect(`${result.stdout}${result.stderr}`).not.toContain(TOKEN);
		expect(result.code).toBe(1);
		expect(sandbox.control.chatMessages()).toEqual([]);
	});
});
