/**
 * What a 10 MB rr.created delivery costs the trigger, against the least any receiver must do with
 * it: parse the JSON and decode the file's base64 (the baseline).
 *
 * Time: every scenario runs in this one process, interleaved, after a warm-up; the figure is the
 * median, and the ratio is against the baseline's median measured alongside it.
 * Peak memory: each scenario runs once in a fresh child process (this same script, same Node),
 * which reports how far the scenario raised the process's peak resident memory; the baseline runs
 * the same way. Memory already released cannot be told apart inside one process, hence children.
 *
 * Usage: npm run bench [-- --runs 15]
 */
import { spawnSync } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { DateTime } from 'luxon';

import { runWebhook } from '../test/harness/engine';
import { isValidSignature } from '../nodes/PostalServiceTrigger/signature';

const SECRET = 'bench-secret';
const TRIGGER = 'Postal Service Trigger';
const PDF_BYTES = 7_490_000; // base64 of this plus the envelope is just over 10 MB

interface Fixture {
	rawBody: Buffer;
	headers: Record<string, string>;
	pdf: Buffer;
}

function fixture(pdfBytes = PDF_BYTES): Fixture {
	const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(pdfBytes - 9)]);
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
			// No static data is passed: each run starts with an empty window, so none is a duplicate.
		});
		const item = result.run?.output(TRIGGER)[0];
		if (!item?.binary?.data) throw new Error('the trigger emitted no binary');
	},
};

function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)];
}

// The child reads the body from a file, so that building it (several large temporary strings)
// does not set the peak the scenario is measured against; a small delivery first loads and warms
// everything the scenario touches.
async function child(name: string, bodyFile: string) {
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
	const script = path.resolve(process.argv[1]);
	const out = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', script, '--child', name, bodyFile], {
		cwd: path.resolve(path.dirname(script), '..'),
		encoding: 'utf8',
	});
	if (out.status !== 0) throw new Error(`child ${name} failed: ${out.stderr}`);
	const line = out.stdout.trim().split('\n').pop() ?? '';
	return (JSON.parse(line) as { peakKiB: number }).peakKiB;
}

async function main() {
	const childIndex = process.argv.indexOf('--child');
	if (childIndex >= 0) return await child(process.argv[childIndex + 1], process.argv[childIndex + 2]);
	const runsIndex = process.argv.indexOf('--runs');
	const runs = runsIndex >= 0 ? Number(process.argv[runsIndex + 1]) : 15;

	const f = fixture();
	const names = Object.keys(scenarios);
	const times: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
	for (const name of names) await scenarios[name](f); // warm-up (and first load of the engine)
	for (let i = 0; i < runs; i++) {
		for (const name of names) {
			const start = performance.now();
			await scenarios[name](f);
			times[name].push(performance.now() - start);
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

	const base = median(times.baseline);
	const basePeak = peaks.baseline;
	console.log(`rr.created delivery: ${(f.rawBody.length / 1e6).toFixed(2)} MB body, ${(f.pdf.length / 1e6).toFixed(2)} MB file`);
	console.log(`Node ${process.version}, ${runs} timed runs per scenario (median), peak memory from one run each in a child`);
	console.log('');
	console.log('scenario   time (ms)   x baseline   peak memory (MiB)   x baseline');
	for (const name of names) {
		const t = median(times[name]);
		const p = peaks[name];
		console.log(
			`${name.padEnd(9)}  ${t.toFixed(1).padStart(9)}   ${(t / base).toFixed(2).padStart(10)}   ${(p / 1024).toFixed(1).padStart(17)}   ${(p / basePeak).toFixed(2).padStart(10)}`,
		);
	}
	console.log('');
	console.log('baseline: JSON.parse of the body + Buffer.from(base64) of the file');
	console.log('verify:   HMAC-SHA256 of the raw body and constant-time compare only');
	console.log(
		"trigger:  the node in n8n-core (WebhookContext): verify, parse, de-duplicate, store the file in n8n's binary data store (on disk), run the workflow",
	);
}

// The engine harness keeps n8n's user folder (and the binary data store in it) in a temporary
// folder; the files this benchmark wrote there go with it.
function removeEngineFolder() {
	const folder = process.env.N8N_USER_FOLDER;
	if (folder?.includes('postal-harness-')) rmSync(folder, { recursive: true, force: true });
}

const isChild = process.argv.includes('--child');
main()
	.catch((error) => {
		console.error(error);
		process.exitCode = 1;
	})
	.finally(() => {
		if (!isChild) removeEngineFolder();
	});
