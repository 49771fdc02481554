/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
/** Child processes of the benchmarks: this same script under the same Node, with tsx and `gc()`. */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const benchScript = path.join(__dirname, 'run.ts');
export const repoRoot = path.resolve(__dirname, '..');

/**
 * Runs `bench/run.ts --child` in a fresh process with its own n8n user folder; passes `task` in a
 * file and returns what the child wrote to its result file. Progress lines go to `onLine`.
 */
export async function runChild<T>(
	task: unknown,
	options: { env?: NodeJS.ProcessEnv; onLine?: (line: string) => void } = {},
): Promise<T> {
	const folder = mkdtempSync(path.join(tmpdir(), 'postal-harness-bench-'));
	const taskFile = path.join(folder, 'task.json');
	const resultFile = path.join(folder, 'result.json');
	writeFileSync(taskFile, JSON.stringify(task));
	try {
		const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', benchScript, '--child', taskFile, resultFile], {
			cwd: repoRoot,
			env: { ...process.env, N8N_USER_FOLDER: folder, N8N_LOG_LEVEL: 'silent', ...options.env },
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		let stderr = '';
		let pending = '';
		child.stdout.on('data', (chunk: Buffer) => {
			pending += chunk.toString();
			const lines = pending.split('\n');
			pending = lines.pop() ?? '';
			for (const line of lines) options.onLine?.(line);
		});
		child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-8000)));
		const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
		if (pending) options.onLine?.(pending);
		if (code !== 0) throw new Error(`benchmark child exited with ${code}:\n${stderr}`);
		return JSON.parse(readFileSync(resultFile, 'utf8')) as T;
	} finally {
		rmSync(folder, { recursive: true, force: true });
	}
}
