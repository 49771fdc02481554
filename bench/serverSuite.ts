/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
/**
 * The trigger through a real n8n server (the one the end-to-end suite starts, with the packed
 * package installed as users get it) against n8n's own Webhook node, versions 1 and 2.1, receiving
 * the same signed deliveries; then the trigger's own CPU on a 10 MB receipt against the floor.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { Agent, request, setGlobalDispatcher } from 'undici';

import { prepareN8n, sleep, type N8nClient, type N8nServer } from '../scripts/dev/n8n';
import { activateWorkflow, createWorkflow, upsertCredential, waitForWebhook, type WorkflowFile } from '../scripts/dev/workflows';
import { runChild } from './spawn';
import { roundSpread, spread, type Spread } from './stats';
import { triggerCpu, triggerPeakChild, type TriggerCpuFigures } from './triggerCpu';
import { delivery, SECRET } from './deliveries';

export interface ServerComparison {
	label: string;
	subject: string;
	baseline: string;
	ratio: Spread;
	goal?: { max: number; text: string };
	met?: boolean;
}

export interface ReceiverFigures {
	id: string;
	label: string;
	/** Round trip as the sender sees it, per delivery. */
	ms: Spread;
	/** CPU time of n8n's process per delivery, including the execution that runs after the answer. */
	serverCpuMs: Spread;
}

export interface ServerFigures {
	small: { bytes: number; deliveries: number; receivers: ReceiverFigures[] };
	large: { bytes: number; deliveries: number; receivers: ReceiverFigures[] };
	comparisons: ServerComparison[];
	triggerCpu: TriggerCpuFigures;
}

export const RECEIVERS = [
	{ id: 'trigger', label: 'Postal Service Trigger' },
	{ id: 'webhook1', label: "n8n's Webhook node 1" },
	{ id: 'webhook2', label: "n8n's Webhook node 2.1" },
];

function workflows(ids: Record<string, string>): Record<string, WorkflowFile> {
	const webhook = (version: number, id: string): WorkflowFile => ({
		name: `bench: Webhook ${version}`,
		nodes: [
			{
				id: randomUUID(),
				name: 'Webhook',
				type: 'n8n-nodes-base.webhook',
				typeVersion: version,
				position: [0, 0],
				webhookId: ids[id],
				parameters: { httpMethod: 'POST', path: `bench-${id}`, responseMode: 'onReceived', options: {} },
			},
		],
		connections: {},
	});
	return {
		trigger: {
			name: 'bench: Postal Service Trigger',
			nodes: [
				{
					id: randomUUID(),
					name: 'Postal Service Trigger',
					type: 'n8n-nodes-postal-service.postalServiceTrigger',
					typeVersion: 1,
					position: [0, 0],
					webhookId: ids.trigger,
					parameters: {},
					credentials: { postalServiceWebhookApi: { id: '0', name: 'secret' } },
				},
			],
			connections: {},
		},
		webhook1: webhook(1, 'webhook1'),
		webhook2: webhook(2.1, 'webhook2'),
	};
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
export async function post(url: string, body: Buffer, headers: Record<string, string>): Promise<number> {
	const start = performance.now();
	const response = await request(url, { method: 'POST', body, headers, reset: true });
	await response.body.arrayBuffer();
	const ms = performance.now() - start;
	if (response.statusCode !== 200) throw new Error(`${url} answered ${response.statusCode}`);
	return ms;
}

async function receive(
	server: N8nServer,
	urls: Record<string, string>,
	options: { rounds: number; perRound: number; large: boolean; say: (m: string) => void },
) {
	const pid = server.pid!;
	const ms: Record<string, number[]> = Object.fromEntries(RECEIVERS.map((r) => [r.id, []]));
	const cpu: Record<string, number[]> = Object.fromEntries(RECEIVERS.map((r) => [r.id, []]));
	const roundMedians: Record<string, number[]> = Object.fromEntries(RECEIVERS.map((r) => [r.id, []]));
	let bytes = 0;
	for (let round = 0; round < options.rounds; round++) {
		const order = RECEIVERS.map((_, i) => RECEIVERS[(i + round) % RECEIVERS.length]);
		for (const receiver of order) {
			await settle(pid);
			const cpuBefore = cpuMs(pid);
			const times: number[] = [];
			for (let i = 0; i < options.perRound; i++) {
				const d = delivery(options.large);
				bytes = d.body.length;
				times.push(await post(urls[receiver.id], d.body, d.headers));
			}
			await settle(pid);
			cpu[receiver.id].push((cpuMs(pid) - cpuBefore) / options.perRound);
			ms[receiver.id].push(...times);
			roundMedians[receiver.id].push(spread(times).median);
		}
		const line = RECEIVERS.map((r) => `${r.id} ${roundMedians[r.id].at(-1)!.toFixed(1)} ms`).join(', ');
		options.say(`${options.large ? '10 MB rr.created' : 'small deliveries'}, round ${round + 1}/${options.rounds}: ${line}`);
	}
	const receivers = RECEIVERS.map((r) => ({ ...r, ms: roundSpread(spread(ms[r.id]), 1), serverCpuMs: roundSpread(spread(cpu[r.id]), 1) }));
	const ratio = (subject: string, baseline: string) => roundSpread(spread(roundMedians[subject].map((m, i) => m / roundMedians[baseline][i])));
	return { bytes, deliveries: options.rounds * options.perRound, receivers, ratio };
}

/** The three workflows, created and active; returns each receiver's production URL. */
export async function activateReceivers(server: N8nServer, client: N8nClient): Promise<Record<string, string>> {
	const credential = await upsertCredential(client, { name: 'bench secret', type: 'postalServiceWebhookApi', data: { secret: SECRET } });
	const ids = Object.fromEntries(RECEIVERS.map((r) => [r.id, randomUUID()]));
	const urls: Record<string, string> = {
		trigger: `${server.baseUrl}/webhook/${ids.trigger}/webhook`,
		webhook1: `${server.baseUrl}/webhook/bench-webhook1`,
		webhook2: `${server.baseUrl}/webhook/bench-webhook2`,
	};
	for (const [id, workflow] of Object.entries(workflows(ids))) {
		const created = await createWorkflow(client, workflow, [credential]);
		await activateWorkflow(client, created.id);
		await waitForWebhook(urls[id]);
	}
	return urls;
}

export async function runServerSuite(options: { quick: boolean; workDir: string; build?: boolean; say: (m: string) => void }): Promise<ServerFigures> {
	const { quick, say } = options;
	// No kept connections (pipelining 0): n8n closes idle ones, and a request sent on one just as it
	// closes fails with "other side closed", which stopped runs while n8n's package was being timed.
	setGlobalDispatcher(new Agent({ pipelining: 0 }));
	say('the trigger\'s own CPU on a 10 MB rr.created, in n8n\'s engine, against the floor');
	const cpuFigures = await runChild<TriggerCpuFigures>(['--server-child', 'trigger-cpu'], { runs: quick ? 5 : 15 });
	say(`  trigger ÷ floor: CPU ${cpuFigures.cpuRatio.median}×, peak ${cpuFigures.peakPerPayload}× the body`);

	const prepared = await prepareN8n({ userFolder: path.join(options.workDir, 'n8n'), build: options.build, progress: (m) => say(`n8n: ${m}`) });
	const { server, client } = prepared;
	try {
		const urls = await activateReceivers(server, client);
		say('three workflows active; warming up');
		await receive(server, urls, { rounds: 1, perRound: 5, large: false, say: () => undefined });

		const small = await receive(server, urls, { rounds: quick ? 4 : 10, perRound: quick ? 10 : 20, large: false, say });
		const large = await receive(server, urls, { rounds: quick ? 3 : 8, perRound: 1, large: true, say });
		const goal = (max: number) => ({ max, text: `≤ ${max}×` });
		const comparisons: ServerComparison[] = [
			{ label: 'small deliveries vs Webhook 1', subject: 'trigger', baseline: 'webhook1', ratio: small.ratio('trigger', 'webhook1'), goal: goal(1.05) },
			{ label: 'small deliveries vs Webhook 2.1', subject: 'trigger', baseline: 'webhook2', ratio: small.ratio('trigger', 'webhook2') },
			{ label: '10 MB rr.created vs Webhook 2.1', subject: 'trigger', baseline: 'webhook2', ratio: large.ratio('trigger', 'webhook2'), goal: goal(0.5) },
			{ label: '10 MB rr.created vs Webhook 1', subject: 'trigger', baseline: 'webhook1', ratio: large.ratio('trigger', 'webhook1') },
			{ label: 'own CPU on 10 MB vs the floor', subject: 'trigger', baseline: 'floor', ratio: cpuFigures.cpuRatio, goal: goal(1.5) },
		].map((c) => ({ ...c, met: c.goal ? c.ratio.median <= c.goal.max : undefined }));
		return {
			small: { bytes: small.bytes, deliveries: small.deliveries, receivers: small.receivers },
			large: { bytes: large.bytes, deliveries: large.deliveries, receivers: large.receivers },
			comparisons,
			triggerCpu: cpuFigures,
		};
	} finally {
		await server.stop();
	}
}

/** `--server-child trigger-cpu <task> <result>` or `--server-child trigger-peak <scenario> <body file>`. */
export async function serverChildMain(kind: string, first: string, second: string): Promise<void> {
	if (kind === 'trigger-peak') return await triggerPeakChild(first, second);
	const { runs } = JSON.parse(readFileSync(first, 'utf8')) as { runs: number };
	const figures = await triggerCpu(runs);
	writeFileSync(second, JSON.stringify(figures));
}
