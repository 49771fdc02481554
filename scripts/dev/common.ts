/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
// What every n8n start needs: the cache n8n is installed in, commands run, free ports, and this
// package built and packed as users install it.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { homedir } from 'node:os';
import path from 'node:path';

export const N8N_VERSION = process.env.N8N_VERSION ?? '2.41.1';
export const PACKAGE_NAME = 'n8n-nodes-postal-service';
export const repoRoot = path.resolve(__dirname, '..', '..');
export const cacheDir = process.env.POSTAL_CACHE_DIR ?? path.join(homedir(), '.cache', PACKAGE_NAME);

export const DEFAULT_OWNER = {
	email: 'owner@postal-service.test',
	firstName: 'Postal',
	lastName: 'Owner',
	password: 'Postal-Service-1',
};
export type Owner = typeof DEFAULT_OWNER;


/** Runs a command; resolves with its stdout, rejects with its exit code and the tail of its output. */
export function run(
	command: string,
	args: string[],
	options: { cwd?: string; env?: NodeJS.ProcessEnv; stderr?: 'inherit' | 'capture'; uid?: number; gid?: number } = {},
): Promise<string> {
	return new Promise((resolve, reject) => {
		const child = spawn(command, args, {
			cwd: options.cwd ?? repoRoot,
			env: options.env ?? process.env,
			uid: options.uid,
			gid: options.gid,
			stdio: ['ignore', 'pipe', options.stderr === 'inherit' ? 'inherit' : 'pipe'],
		});
		let out = '';
		let err = '';
		child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
		child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
		child.on('error', reject);
		child.on('close', (code) => {
			if (code === 0) resolve(out);
			else reject(new Error(`${command} ${args.join(' ')} exited with ${code}\n${(err || out).slice(-4000)}`));
		});
	});
}

/** Installs n8n into the cache the first time (the script prints progress), and proves a cached one runs (repairing it when not); returns its folder. */
export async function ensureN8nInstalled(): Promise<string> {
	const out = await run('bash', [path.join(repoRoot, 'scripts', 'dev', 'install-n8n.sh')], {
		env: { ...process.env, N8N_VERSION, POSTAL_CACHE_DIR: cacheDir },
		stderr: 'inherit',
	});
	return out.trim().split('\n').pop()!;
}

/** `npm run build` then `npm pack`: returns the tarball, exactly what users install. */
export async function buildAndPack(destination: string, options: { build?: boolean } = {}): Promise<string> {
	if (options.build !== false) await run('npm', ['run', 'build', '--silent']);
	mkdirSync(destination, { recursive: true });
	const out = await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', destination]);
	const [report] = JSON.parse(out) as Array<{ filename: string }>;
	return path.join(destination, report.filename);
}

/** Lays the tarball out where n8n's community-package installer puts it. */
export async function installPackage(userFolder: string, tarball: string): Promise<string> {
	const target = path.join(userFolder, '.n8n', 'nodes', 'node_modules', PACKAGE_NAME);
	rmSync(target, { recursive: true, force: true });
	mkdirSync(target, { recursive: true });
	await run('tar', ['xzf', tarball, '-C', target, '--strip-components=1']);
	return target;
}

/** Ports handed out here: the system may offer a just-closed port again, and two processes (or a worker's broker and health server) must not get the same one. */
const handedOut = new Set<number>();

/** A free port of 127.0.0.1: `preferred` when it is free, else any. */
export async function freePort(preferred = 0): Promise<number> {
	for (;;) {
		const port = await new Promise<number>((resolve, reject) => {
			const server = createServer();
			server.unref();
			server.on('error', (error) => (preferred ? resolve(-1) : reject(error)));
			server.listen(preferred, '127.0.0.1', () => {
				const address = server.address();
				server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
			});
		});
		if (port === -1 || handedOut.has(port)) {
			preferred = 0;
			continue;
		}
		handedOut.add(port);
		return port;
	}
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Asks `done` every `pollMs` until it answers true; `timeoutMs` after `started` throws `failure()`. */
export async function waitUntil(done: () => boolean | Promise<boolean>, timeoutMs: number, failure: () => Error, pollMs = 100, started = Date.now()): Promise<void> {
	while (!(await done())) {
		if (Date.now() - started > timeoutMs) throw failure();
		await sleep(pollMs);
	}
}

/** The package's own version, for banners. */
export function packageVersion(): string {
	return (JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;
}
