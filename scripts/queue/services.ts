/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
// PostgreSQL and Redis for n8n's queue mode, from Debian's packages (installed when missing), each
// a throw-away instance of its own on a free port of 127.0.0.1: its data in a temporary folder,
// nothing kept, nothing shared with a system-wide instance.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, createWriteStream, existsSync, mkdirSync, readdirSync, type WriteStream } from 'node:fs';
import path from 'node:path';

import { freePort, run, sleep } from '../dev/n8n';

const isRoot = () => process.getuid?.() === 0;

/** PostgreSQL's server binaries: the newest major Debian installed. */
function postgresBinDir(): string | undefined {
	const root = '/usr/lib/postgresql';
	if (!existsSync(root)) return undefined;
	const majors = readdirSync(root)
		.filter((d) => existsSync(path.join(root, d, 'bin', 'postgres')))
		.sort((a, b) => Number(b) - Number(a));
	return majors.length ? path.join(root, majors[0], 'bin') : undefined;
}

function hasCommand(command: string) {
	try {
		execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' });
		return true;
	} catch {
		return false;
	}
}

/** Installs PostgreSQL and Redis from Debian's packages when missing (`apt-get update` once). */
export async function ensureServicePackages(say: (message: string) => void = () => undefined): Promise<{ postgresBin: string }> {
	const missing = [
		...(postgresBinDir() ? [] : ['postgresql']),
		...(hasCommand('redis-server') ? [] : ['redis-server']),
	];
	if (missing.length) {
		const [command, ...prefix] = isRoot() ? ['apt-get'] : ['sudo', 'apt-get'];
		const apt = (...args: string[]) => run(command, [...prefix, ...args], { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
		say(`installing ${missing.join(' and ')} from Debian's packages`);
		await apt('update', '-qq');
		await apt('install', '-y', '-qq', '-o', 'DPkg::Lock::Timeout=600', ...missing);
	}
	const postgresBin = postgresBinDir();
	if (!postgresBin) throw new Error('PostgreSQL server binaries are not under /usr/lib/postgresql/<major>/bin after installing postgresql');
	return { postgresBin };
}

/** A server process in a process group of its own, its output in a log file. */
class ServiceProcess {
	private child?: ChildProcess;
	private log?: WriteStream;
	output = '';

	constructor(
		readonly name: string,
		readonly logFile: string,
	) {}

	start(command: string, args: string[], options: { uid?: number; gid?: number; cwd?: string }) {
		this.log = createWriteStream(this.logFile, { flags: 'a' });
		const child = spawn(command, args, { ...options, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
		this.child = child;
		const killOnExit = () => killGroup(child.pid, 'SIGKILL');
		process.once('exit', killOnExit);
		child.once('exit', () => process.removeListener('exit', killOnExit));
		const onData = (chunk: Buffer) => {
			this.output = (this.output + chunk.toString()).slice(-50_000);
			this.log?.write(chunk);
		};
		child.stdout?.on('data', onData);
		child.stderr?.on('data', onData);
	}

	get running() {
		return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
	}

	async waitFor(line: RegExp, timeoutMs = 60_000) {
		const started = Date.now();
		while (!line.test(this.output)) {
			if (!this.running) throw new Error(`${this.name} exited while starting (log: ${this.logFile}):\n${this.output.slice(-3000)}`);
			if (Date.now() - started > timeoutMs) throw new Error(`${this.name} did not start within ${timeoutMs} ms (log: ${this.logFile})`);
			await sleep(50);
		}
	}

	/** Asks the server to stop with `signal`, then kills whatever is left of its group. */
	async stop(signal: NodeJS.Signals) {
		const pid = this.child?.pid;
		if (!pid) return;
		if (this.running) {
			const exited = new Promise<void>((resolve) => this.child?.once('exit', () => resolve()));
			killGroup(pid, signal);
			await Promise.race([exited, sleep(15_000)]);
		}
		killGroup(pid, 'SIGKILL');
		this.child = undefined;
		await new Promise<void>((resolve) => (this.log ? this.log.end(resolve) : resolve()));
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

/** The `postgres` system user's ids: PostgreSQL refuses to run as root. */
function postgresUser(): { uid: number; gid: number } {
	const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
	const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
	return { uid, gid };
}

export class Postgres {
	readonly database = 'n8n';
	readonly user = 'postgres';
	port = 0;
	private readonly server: ServiceProcess;
	private readonly dataDir: string;

	constructor(
		private readonly binDir: string,
		private readonly dir: string,
	) {
		this.dataDir = path.join(dir, 'data');
		this.server = new ServiceProcess('PostgreSQL', path.join(dir, 'postgres.log'));
	}

	get logFile() {
		return this.server.logFile;
	}

	async start(): Promise<void> {
		// As root the cluster belongs to the postgres user; otherwise to whoever runs this.
		const owner: { uid?: number; gid?: number } = isRoot() ? postgresUser() : {};
		mkdirSync(this.dir, { recursive: true });
		if (owner.uid !== undefined) chownSync(this.dir, owner.uid, owner.gid!);
		if (!existsSync(path.join(this.dataDir, 'PG_VERSION'))) {
			await runAs(owner, path.join(this.binDir, 'initdb'), ['-D', this.dataDir, '-U', this.user, '--auth=trust', '-E', 'UTF8', '--no-sync'], this.dir);
		}
		this.port = await freePort();
		this.server.start(
			path.join(this.binDir, 'postgres'),
			[
				'-D', this.dataDir,
				'-p', String(this.port),
				'-c', 'listen_addresses=127.0.0.1',
				// TCP only: no socket in /var/run/postgresql, which belongs to the system instance.
				'-c', 'unix_socket_directories=',
				// A throw-away cluster: durability across a power cut buys nothing here.
				'-c', 'fsync=off',
				'-c', 'synchronous_commit=off',
				'-c', 'full_page_writes=off',
				'-c', 'max_connections=200',
			],
			{ ...owner, cwd: this.dir },
		);
		await this.server.waitFor(/database system is ready to accept connections/);
		await run(path.join(this.binDir, 'createdb'), ['-h', '127.0.0.1', '-p', String(this.port), '-U', this.user, this.database]);
	}

	/** n8n's settings for this database. */
	environment(): NodeJS.ProcessEnv {
		return {
			DB_TYPE: 'postgresdb',
			DB_POSTGRESDB_HOST: '127.0.0.1',
			DB_POSTGRESDB_PORT: String(this.port),
			DB_POSTGRESDB_DATABASE: this.database,
			DB_POSTGRESDB_USER: this.user,
			DB_POSTGRESDB_PASSWORD: '',
		};
	}

	/** Runs one SQL statement and returns psql's unaligned output. */
	async query(sql: string): Promise<string> {
		const psql = path.join(this.binDir, 'psql');
		return await run(psql, ['-h', '127.0.0.1', '-p', String(this.port), '-U', this.user, '-d', this.database, '-At', '-c', sql]);
	}

	async stop(): Promise<void> {
		// SIGINT is PostgreSQL's fast shutdown.
		await this.server.stop('SIGINT');
	}
}

export class Redis {
	port = 0;
	private readonly server: ServiceProcess;

	constructor(private readonly dir: string) {
		this.server = new ServiceProcess('Redis', path.join(dir, 'redis.log'));
	}

	get logFile() {
		return this.server.logFile;
	}

	async start(): Promise<void> {
		mkdirSync(this.dir, { recursive: true });
		this.port = await freePort();
		this.server.start(
			'redis-server',
			['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', this.dir, '--daemonize', 'no'],
			{ cwd: this.dir },
		);
		await this.server.waitFor(/Ready to accept connections/);
	}

	environment(): NodeJS.ProcessEnv {
		return { QUEUE_BULL_REDIS_HOST: '127.0.0.1', QUEUE_BULL_REDIS_PORT: String(this.port) };
	}

	async stop(): Promise<void> {
		await this.server.stop('SIGTERM');
	}
}

async function runAs(owner: { uid?: number; gid?: number }, command: string, args: string[], cwd: string) {
	await new Promise<void>((resolve, reject) => {
		const child = spawn(command, args, { ...owner, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
		let output = '';
		child.stdout.on('data', (c: Buffer) => (output += c.toString()));
		child.stderr.on('data', (c: Buffer) => (output += c.toString()));
		child.on('error', reject);
		child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${command} exited with ${code}:\n${output.slice(-3000)}`))));
	});
}
