/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
// A server process in a process group of its own (n8n and its task runner; PostgreSQL and Redis extend it), its
// output kept and written to a log file, and stopped with everything it started.
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';

import { sleep, waitUntil } from './common';

export class GroupProcess {
	private child?: ChildProcess;
	private log?: WriteStream;
	/** What the process printed since it last started (the last 200,000 characters). */
	output = '';

	constructor(
		readonly name: string,
		readonly logFile: string,
	) {}

	spawn(command: string, args: string[], options: SpawnOptions): ChildProcess {
		this.output = '';
		this.log = createWriteStream(this.logFile, { flags: 'a' });
		// Own process group, so that stop() also reaches what the process launches.
		const child = spawn(command, args, { ...options, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
		this.child = child;
		// If this process dies without stop(), the group must not outlive it.
		const killOnExit = () => killGroup(child.pid, 'SIGKILL');
		process.once('exit', killOnExit);
		child.once('exit', () => process.removeListener('exit', killOnExit));
		const onData = (chunk: Buffer) => {
			const text = chunk.toString();
			this.output = (this.output + text).slice(-200_000);
			this.log?.write(text);
		};
		child.stdout?.on('data', onData);
		child.stderr?.on('data', onData);
		return child;
	}

	get pid(): number | undefined {
		return this.child?.pid;
	}

	get running() {
		return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
	}

	/** Resolves once the output shows `line`; rejects when the process exits first or `timeoutMs` pass. */
	async waitFor(line: RegExp, timeoutMs: number, pollMs = 50) {
		const shown = () => `(log: ${this.logFile}):\n${this.output.slice(-4000)}`;
		const seen = () => {
			if (line.test(this.output)) return true;
			if (!this.running) throw new Error(`${this.name} exited (${this.child?.exitCode ?? this.child?.signalCode}) while starting ${shown()}`);
			return false;
		};
		await waitUntil(seen, timeoutMs, () => new Error(`${this.name} did not start within ${timeoutMs / 1000} s ${shown()}`), pollMs);
	}

	/**
	 * Asks the process (`group`: every process of its group) to stop with `signal`, waits up to
	 * `graceMs` (none for SIGKILL), then kills whatever is left of its group.
	 */
	async end(signal: NodeJS.Signals, graceMs: number, group = false) {
		const child = this.child;
		const pid = child?.pid;
		if (!pid) return;
		if (this.running && signal !== 'SIGKILL') {
			const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
			if (group) killGroup(pid, signal);
			else child.kill(signal);
			await Promise.race([exited, sleep(graceMs)]);
		}
		killGroup(pid, 'SIGKILL');
		for (let i = 0; i < 50 && groupAlive(pid); i++) await sleep(100);
		this.child = undefined;
		await new Promise<void>((resolve) => (this.log ? this.log.end(resolve) : resolve()));
		this.log = undefined;
	}
}

function killGroup(pid: number | undefined, signal: NodeJS.Signals) {
	if (!pid) return;
	try {
		process.kill(-pid, signal);
	} catch {
		// already gone
	}
}

function groupAlive(pid: number) {
	try {
		process.kill(-pid, 0);
		return true;
	} catch {
		return false;
	}
}
