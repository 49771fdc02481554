/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
/**
 * The trigger against n8n's own Webhook node, versions 1 and 2.1, taking the same signed deliveries
 * through a real n8n server (the one the end-to-end suite starts, with the packed package installed
 * as users get it): round trip as the sender sees it and n8n's CPU per delivery, every delivery
 * answered 200 and run once.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { Agent, request, setGlobalDispatcher } from 'undici';

import { prepareN8n, repoRoot, sleep, type N8nClient } from '../scripts/dev/n8n';
import { activateWorkflow, createWorkflow, upsertCredential, waitForWebhook, type WorkflowFile } from '../scripts/dev/workflows';
import { delivery, envelope, returnReceipt } from '../test/trigger/support';
import { compare, goal, interleave, roundSpread, spread } from './stats';

const SECRET = 'bench-webhook-secret';

export type ServerFigures = Awaited<ReturnType<typeof runServerSuite>>;

const RECEIVERS = [
	{ id: 'trigger', label: 'Postal Service Trigger' },
	{ id: 'webhook1', label: "n8n's Webhook node 1" },
	{ id: 'webhook2', label: "n8n's Webhook node 2.1" },
];

let nextOrder = 1_000_000;
let receiptBase64: string | undefined;

/** A signed delivery as the service sends it, built as the trigger's tests build theirs: a small status change, or a 10 MB return receipt. */
function signedDelivery(large: boolean) {
	// A whole PDF to the trigger (header, random bytes that do not compress, the %%EOF it checks for);
	// with base64 and the envelope the body is just over 10 MB.
	receiptBase64 ??= Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(7_490_000 - 16), Buffer.from('\n%%EOF\n')]).toString('base64');
	// Each delivery its own order: two deliveries of one event in one second are a retry to the trigger.
	const order = String(nextOrder++);
	const status = { id: order, type: 'letter', status: { old: 1, new: 2 }, status_delivery: 'Postado', tracking_code: 'YA123456789BR' };
	return delivery(large ? returnReceipt({ name: `AR-${order}.pdf`, base64: receiptBase64 }, order) : envelope('order.status_updated', status), { secret: SECRET });
}

function workflow(id: string, webhookId: string): WorkflowFile {
	const node = { id: randomUUID(), position: [0, 0] as [number, number], webhookId };
	if (id === 'trigger') {
		const trigger = { ...node, name: 'Postal Service Trigger', type: 'n8n-nodes-postal-service.postalServiceTrigger', typeVersion: 1, parameters: {} };
		return { name: 'bench: trigger', nodes: [{ ...trigger, credentials: { postalServiceWebhookApi: { id: '0', name: 'secret' } } }], connections: {} };
	}
	const parameters = { httpMethod: 'POST', path: `bench-${id}`, responseMode: 'onReceived', options: {} };
	const webhook = { ...node, name: 'Webhook', type: 'n8n-nodes-base.webhook', typeVersion: id === 'webhook1' ? 1 : 2.1, parameters };
	return { name: `bench: ${id}`, nodes: [webhook], connections: {} };
}

/** utime + stime of a process, in ms. */
function cpuMs(pid: number): number {
	const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
	return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/** Waits until n8n has finished what the last deliveries started (its CPU use stops growing). */
async function settle(pid: number) {
	for (let i = 0; i < 50; i++) {
		const before = cpuMs(pid);
		await sleep(150);
		if (cpuMs(pid) - before <= 10) return;
	}
}

// One connection per delivery, as for a sender that does not keep connections: a kept one can be
// closed by n8n just as the next delivery goes out ("other side closed"), which stopped whole runs.
async function post(url: string, body: Buffer, headers: Record<string, string>): Promise<number> {
	const start = performance.now();
	const response = await request(url, { method: 'POST', body, headers, reset: true });
	await response.body.arrayBuffer();
	if (response.statusCode !== 200) throw new Error(`${url} answered ${response.statusCode}`);
	return performance.now() - start;
}

async function receive(pid: number, urls: Record<string, string>, options: { rounds: number; perRound: number; large: boolean; say: (m: string) => void }) {
	let bytes = 0;
	const run = async (id: string) => {
		await settle(pid);
		const cpuBefore = cpuMs(pid);
		const times: number[] = [];
		for (let i = 0; i < options.perRound; i++) {
			const d = signedDelivery(options.large);
			bytes = d.rawBody.length;
			times.push(await post(urls[id], d.rawBody, d.headers));
		}
		await settle(pid);
		return { times, median: spread(times).median, cpuMs: (cpuMs(pid) - cpuBefore) / options.perRound };
	};
	const rounds = await interleave(RECEIVERS.map((r) => r.id), options.rounds, run, (round, done) => {
		const line = done.map(([id, r]) => `${id} ${r.median.toFixed(1)} ms`).join(', ');
		options.say(`server: ${options.large ? '10 MB rr.created' : 'small deliveries'}, round ${round + 1}/${options.rounds}: ${line}`);
	});
	const receivers = RECEIVERS.map((r) => ({ ...r, ms: roundSpread(spread(rounds[r.id].flatMap((x) => x.times)), 1), serverCpuMs: roundSpread(spread(rounds[r.id].map((x) => x.cpuMs)), 1) }));
	// A ratio per round, of the rounds' medians.
	const ratios = (subject: string, baseline: string) => rounds[subject].map((x, i) => x.median / rounds[baseline][i].median);
	return { bytes, deliveries: options.rounds * options.perRound, receivers, ratios };
}

/** Each delivery answered 200 must have run once: n8n's saved executions of each workflow are counted. */
async function expectExecutions(client: N8nClient, workflows: Record<string, string>, expected: number) {
	for (let attempt = 0; ; attempt++) {
		const counts = await Promise.all(
			Object.values(workflows).map(async (id) => (await client.api<{ data: unknown[] }>('GET', `/executions?workflowId=${id}&limit=250`)).data.length),
		);
		if (counts.every((count) => count === expected)) return;
		if (attempt === 20) throw new Error(`server: executions per receiver ${counts.join(', ')}, expected ${expected} each`);
		await sleep(500);
	}
}

export async function runServerSuite(options: { check: boolean; workDir: string; say: (m: string) => void }) {
	const { check, say } = options;
	// No kept connections (pipelining 0): n8n closes idle ones, and a request sent on one just as it
	// closes fails with "other side closed".
	setGlobalDispatcher(new Agent({ pipelining: 0 }));
	// CI's build step has just built the package; the full run builds it itself.
	const build = !check || !existsSync(path.join(repoRoot, 'dist', 'nodes', 'PostalServiceTrigger'));
	const { server, client } = await prepareN8n({ userFolder: path.join(options.workDir, 'n8n'), build, progress: (m) => say(`server: ${m}`) });
	try {
		const credential = await upsertCredential(client, { name: 'bench secret', type: 'postalServiceWebhookApi', data: { secret: SECRET } });
		const urls: Record<string, string> = {};
		const workflows: Record<string, string> = {};
		for (const { id } of RECEIVERS) {
			const webhookId = randomUUID();
			const created = await createWorkflow(client, workflow(id, webhookId), [credential]);
			await activateWorkflow(client, created.id);
			urls[id] = id === 'trigger' ? `${server.baseUrl}/webhook/${webhookId}/webhook` : `${server.baseUrl}/webhook/bench-${id}`;
			workflows[id] = created.id;
			await waitForWebhook(urls[id]);
		}
		say('server: three workflows active; warming up');
		const pid = server.pid!;
		await receive(pid, urls, { rounds: 1, perRound: check ? 1 : 5, large: false, say: () => undefined });
		const small = await receive(pid, urls, { rounds: check ? 2 : 10, perRound: check ? 2 : 20, large: false, say });
		const large = await receive(pid, urls, { rounds: check ? 1 : 8, perRound: 1, large: true, say });
		await expectExecutions(client, workflows, (check ? 1 : 5) + small.deliveries + large.deliveries);
		const comparisons = [
			compare({ label: 'small deliveries vs Webhook 1', subject: 'trigger', baseline: 'webhook1', goal: goal(1.05) }, small.ratios('trigger', 'webhook1')),
			compare({ label: 'small deliveries vs Webhook 2.1', subject: 'trigger', baseline: 'webhook2' }, small.ratios('trigger', 'webhook2')),
			compare({ label: '10 MB rr.created vs Webhook 2.1', subject: 'trigger', baseline: 'webhook2', goal: goal(0.5) }, large.ratios('trigger', 'webhook2')),
			compare({ label: '10 MB rr.created vs Webhook 1', subject: 'trigger', baseline: 'webhook1' }, large.ratios('trigger', 'webhook1')),
		];
		const part = ({ bytes, deliveries, receivers }: typeof small) => ({ bytes, deliveries, receivers });
		return { small: part(small), large: part(large), comparisons };
	} finally {
		await server.stop();
	}
}
