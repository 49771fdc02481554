/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
// Set before n8n's engine loads: every split file of the harness imports this first.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

// Every execution context writes $N8N_USER_FOLDER/.n8n/config: keep it out of the home folder.
// The test run's global setup provides one folder (and removes it); this is the fallback for
// other callers such as benchmarks, which remove their own.
// The reliability runner provides its own (postal-reliability-).
if (!/postal-(harness|reliability)-/.test(process.env.N8N_USER_FOLDER ?? '')) {
	process.env.N8N_USER_FOLDER = mkdtempSync(path.join(tmpdir(), 'postal-harness-'));
}
process.env.N8N_RUNNERS_ENABLED ??= 'false';
// Files on disk, as n8n 3 keeps them (its in-memory mode is gone); a benchmark may ask for another.
process.env.N8N_DEFAULT_BINARY_DATA_MODE ??= 'filesystem';
