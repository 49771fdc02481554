/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
// PostgreSQL and Redis for n8n's queue mode, from Debian's packages (installed when missing), each
// a throw-away instance of its own on a free port of 127.0.0.1: its data in a temporary folder,
// nothing kept, nothing shared with a system-wide instance.
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';

import { freePort, run } from '../dev/n8n';
import { GroupProcess } from '../dev/process';

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

/** Installs PostgreSQL and Redis from Debian's packages when missing (`apt-get update` once). */
export async function ensureServicePackages(say: (message: string) => void = () => undefined): Promise<{ postgresBin: string }> {
	const missing = [
		...(postgresBinDir() ? [] : ['postgresql']),
		...((await run('sh', ['-c', 'command -v redis-server']).then(() => true, () => false)) ? [] : ['redis-server']),
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

export class Postgres extends GroupProcess {
	readonly database = 'n8n';
	readonly user = 'postgres';
	port = 0;
	private readonly dataDir: string;

	constructor(
		private readonly binDir: string,
		private readonly dir: string,
	) {
		super('PostgreSQL', path.join(dir, 'postgres.log'));
		this.dataDir = path.join(dir, 'data');
	}

	async start(): Promise<void> {
		// As root the cluster belongs to the postgres user (PostgreSQL refuses to run as root); otherwise to whoever runs this.
		const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres']).toString().trim());
		const owner: { uid?: number; gid?: number } = isRoot() ? { uid: id('-u'), gid: id('-g') } : {};
		mkdirSync(this.dir, { recursive: true });
		if (owner.uid !== undefined) chownSync(this.dir, owner.uid, owner.gid!);
		if (!existsSync(path.join(this.dataDir, 'PG_VERSION'))) {
			await run(path.join(this.binDir, 'initdb'), ['-D', this.dataDir, '-U', this.user, '--auth=trust', '-E', 'UTF8', '--no-sync'], { ...owner, cwd: this.dir });
		}
		this.port = await freePort();
		this.spawn(
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
		await this.waitFor(/database system is ready to accept connections/, 60_000);
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
		await this.end('SIGINT', 15_000, true);
	}
}

export class Redis extends GroupProcess {
	port = 0;

	constructor(private readonly dir: string) {
		super('Redis', path.join(dir, 'redis.log'));
	}

	async start(): Promise<void> {
		mkdirSync(this.dir, { recursive: true });
		this.port = await freePort();
		this.spawn(
			'redis-server',
			['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', this.dir, '--daemonize', 'no'],
			{ cwd: this.dir },
		);
		await this.waitFor(/Ready to accept connections/, 60_000);
	}

	environment(): NodeJS.ProcessEnv {
		return { QUEUE_BULL_REDIS_HOST: '127.0.0.1', QUEUE_BULL_REDIS_PORT: String(this.port) };
	}

	async stop(): Promise<void> {
		await this.end('SIGTERM', 15_000, true);
	}
}
