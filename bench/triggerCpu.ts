/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
/**
 * What a 10 MB rr.created delivery costs the trigger, against the least any receiver must do with
 * it: parse the JSON and decode the file's base64 (the floor).
 *
 * Time: every scenario runs in one process, interleaved, after a warm-up; wall time and the
 * process's CPU time of each run are kept, and each ratio is taken per round against the floor
 * measured alongside it.
 * Peak memory: each scenario runs once in a fresh child process (this same script, same Node),
 * which reports how far the scenario raised the process's peak resident memory; the floor runs
 * the same way. Memory already released cannot be told apart inside one process, hence children.
 */
import { spawnSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { DateTime } from 'luxon';

import { runWebhook } from '../test/harness/engine';
import { isValidSignature } from '../nodes/PostalServiceTrigger/verification';
import { receiptPdf } from './deliveries';
import { benchScript, repoRoot } from './spawn';
import { round, roundSpread, spread, type Spread } from './stats';

const SECRET = 'bench-secret';
const TRIGGER = 'Postal Service Trigger';
const PDF_BYTES = 7_490_000; // base64 of this plus the envelope is just over 10 MB

interface Fixture {
	rawBody: Buffer;
	headers: Record<string, string>;
	pdf: Buffer;
}

function fixture(pdfBytes = PDF_BYTES): Fixture {
	const pdf = receiptPdf(pdfBytes);
	const body = {
		event: 'rr.created',
		environment: 'production',
		timestamp: DateTime.now().setZone('America/Sao_Paulo').toFormat('yyyy-MM-dd HH:mm:ss'),
		webhook_id: 1,
		delivery_id: 1,
		data: {
			id: '1048576',
			type: 'letter',
			rr_type: 'rr',
			tracking_code: 'YA123456789BR',
			file: { name: 'AR-1048576.pdf', base64: pdf.toString('base64') },
		},
	};
	const rawBody = Buffer.from(JSON.stringify(body));
	return {
		rawBody,
		pdf,
		headers: {
			'content-type': 'application/json',
			'x-webhook-event': 'rr.created',
			'x-webhook-signature': 'sha256=' + createHmac('sha256', SECRET).update(rawBody).digest('hex'),
		},
	};
}

const scenarios: Record<string, (f: Fixture) => Promise<unknown>> = {
	// What any receiver has to do at least: read the JSON, turn the file back into bytes.
	async baseline(f) {
		const parsed = JSON.parse(f.rawBody.toString('utf8'));
		return Buffer.from(parsed.data.file.base64, 'base64').length;
	},
	async verify(f) {
		if (!isValidSignature(SECRET, f.rawBody, f.headers['x-webhook-signature'])) throw new Error('bad signature');
	},
	// The whole path in n8n's engine: verify, parse, de-duplicate, store the binary, run the workflow.
	async trigger(f) {
		const result = await runWebhook({
			workflow: {
				nodes: [
					{
						name: TRIGGER,
						type: 'n8n-nodes-postal-service.postalServiceTrigger',
						parameters: {},
						credentials: { postalServiceWebhookApi: { id: 'bench', name: 'bench' } },
					},
				],
				connections: {},
			},
			webhookNode: TRIGGER,
			// The body as n8n's parser hands it over as well, since n8n parses it before the node runs;
			// that parse is not counted here, as the baseline's is the node's own.
			request: { headers: f.headers, rawBody: f.rawBody, body: {} },
			credentials: { postalServiceWebhookApi: { secret: SECRET } },
			// No workflow id is passed: each run is a workflow of its own, with nothing recorded, so none is a duplicate.
		});
		const item = result.run?.output(TRIGGER)[0];
		if (!item?.binary?.data) throw new Error('the trigger emitted no binary');
		// A flagged receipt would skip work a good one costs: the figure would flatter the trigger.
		if (item.json.fileUnreadable) throw new Error(`the trigger flagged the receipt: ${String(item.json.fileProblem)}`);
	},
};

export interface TriggerCpuFigures {
	bodyBytes: number;
	fileBytes: number;
	runs: number;
	scenarios: Record<string, { ms: Spread; cpuMs: Spread; peakMiB: number }>;
	/** Trigger ÷ floor per round. */
	cpuRatio: Spread;
	timeRatio: Spread;
	/** How far the trigger raised peak memory, as a multiple of the body's size. */
	peakPerPayload: number;
}

// The child reads the body from a file, so that building it (several large temporary strings)
// does not set the peak the scenario is measured against; a small delivery first loads and warms
// everything the scenario touches.
export async function triggerPeakChild(name: string, bodyFile: string) {
	const gc = (globalThis as { gc?: () => void }).gc;
	await scenarios[name](fixture(10_000));
	const rawBody = readFileSync(bodyFile);
	const f: Fixture = {
		rawBody,
		pdf: Buffer.alloc(0),
		headers: {
			'content-type': 'application/json',
			'x-webhook-event': 'rr.created',
			'x-webhook-signature': 'sha256=' + createHmac('sha256', SECRET).update(rawBody).digest('hex'),
		},
	};
	gc?.();
	const before = process.resourceUsage().maxRSS;
	await scenarios[name](f);
	const after = process.resourceUsage().maxRSS;
	process.stdout.write(JSON.stringify({ peakKiB: after - before }) + '\n');
}

function peakInChild(name: string, bodyFile: string): number {
	const out = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', benchScript, '--server-child', 'trigger-peak', name, bodyFile], {
		cwd: repoRoot,
		encoding: 'utf8',
	});
	if (out.status !== 0) throw new Error(`child ${name} failed: ${out.stderr}`);
	const line = out.stdout.trim().split('\n').pop() ?? '';
	return (JSON.parse(line) as { peakKiB: number }).peakKiB;
}

/** Runs in a child process of its own (the engine stays loaded there), with the peaks in grandchildren. */
export async function triggerCpu(runs: number): Promise<TriggerCpuFigures> {
	const f = fixture();
	const names = Object.keys(scenarios);
	const times: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
	const cpu: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
	for (const name of names) await scenarios[name](f); // warm-up (and first load of the engine)
	for (let i = 0; i < runs; i++) {
		for (const name of names) {
			const cpuStart = process.cpuUsage();
			const start = performance.now();
			await scenarios[name](f);
			times[name].push(performance.now() - start);
			const used = process.cpuUsage(cpuStart);
			cpu[name].push((used.user + used.system) / 1000);
		}
	}
	const dir = mkdtempSync(path.join(tmpdir(), 'postal-bench-'));
	const bodyFile = path.join(dir, 'rr-created.json');
	writeFileSync(bodyFile, f.rawBody);
	let peaks: Record<string, number>;
	try {
		peaks = Object.fromEntries(names.map((n) => [n, peakInChild(n, bodyFile)]));
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
	const perRound = (values: Record<string, number[]>) => roundSpread(spread(values.trigger.map((t, i) => t / values.baseline[i])));
	return {
		bodyBytes: f.rawBody.length,
		fileBytes: f.pdf.length,
		runs,
		scenarios: Object.fromEntries(
			names.map((n) => [n, { ms: roundSpread(spread(times[n]), 1), cpuMs: roundSpread(spread(cpu[n]), 1), peakMiB: round(peaks[n] / 1024, 1) }]),
		),
		cpuRatio: perRound(cpu),
		timeRatio: perRound(times),
		peakPerPayload: round((peaks.trigger * 1024) / f.rawBody.length, 2),
	};
}
