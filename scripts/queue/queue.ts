/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
// n8n's queue mode on one machine, as teams run it when one process is not enough: PostgreSQL,
// Redis, a main process that serves the editor and the API but takes no production webhooks,
// workers that run the executions, and webhook processors that take the deliveries. Every n8n
// process has a home and an n8n folder (`.n8n`) of its own, as separate containers have, and shares
// with the others only the settings a deployment gives them all: the encryption key, the database,
// Redis, and the community package to install, named with its version and checksum in
// N8N_COMMUNITY_PACKAGES as n8n's documentation tells users (n8n 2.21 and later). The package comes
// from a stand-in for the public registry (scripts/queue/registry.ts), since it is not published.
// Everything started here is stopped by stop(), also on Ctrl-C.
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import {
	buildAndPack,
	ensureN8nInstalled,
	freePort,
	N8nServer,
	signedInClient,
	N8N_VERSION,
	PACKAGE_NAME,
	type StartOptions,
} from '../dev/n8n';
import { StandInRegistry, type ServedPackage } from './registry';
import { ensureServicePackages, Postgres, Redis } from './services';

export interface QueueOptions {
	n8nDir: string;
	workers?: number;
	progress?: (message: string) => void;
	/** Stop everything and exit on SIGINT/SIGTERM (default); off for callers with handlers of their own. */
	stopOnSignals?: boolean;
}

/** The largest request a webhook processor takes, in MiB: a 10 MB return receipt is ~14 MB of base64 JSON. */
export const WEBHOOK_PAYLOAD_SIZE_MAX_MIB = 16;

export class QueueTopology {
	readonly dir: string;
	readonly postgres: Postgres;
	readonly redis: Redis;
	/** Serves the packed package as registry.npmjs.org would, to the n8n processes only. */
	readonly registry: StandInRegistry;
	main!: N8nServer;
	workers: N8nServer[] = [];
	webhooks: N8nServer[] = [];
	/** The package every n8n process installs at start (usePackage()). */
	package?: ServedPackage;
	/** Each process's settings, kept so that a changed package reaches its next start. */
	private readonly settings: NodeJS.ProcessEnv[] = [];
	/** The package changed since the processes installed it: their next start installs it afresh. */
	private packageChanged = false;
	private stopped = false;
	private readonly onSignal = () => void this.stop().finally(() => process.exit(130));
	private readonly say: (message: string) => void;

	/** Creates the folder (`postgresBin` from ensureServicePackages()); start() then starts everything. */
	constructor(
		private readonly options: QueueOptions,
		postgresBin: string,
	) {
		this.say = options.progress ?? (() => undefined);
		// Holds the services' data, each process's home and one log file per process.
		this.dir = mkdtempSync(path.join(tmpdir(), 'postal-queue-'));
		// PostgreSQL runs as its own user and must be able to reach its folder inside this one.
		chmodSync(this.dir, 0o711);
		this.postgres = new Postgres(postgresBin, path.join(this.dir, 'postgres'));
		this.redis = new Redis(path.join(this.dir, 'redis'));
		this.registry = new StandInRegistry(path.join(this.dir, 'registry'));
		if (options.stopOnSignals !== false) {
			process.once('SIGINT', this.onSignal);
			process.once('SIGTERM', this.onSignal);
		}
	}

	/**
	 * The packed package the n8n processes install: served by the stand-in registry and listed with
	 * its version and checksum in N8N_COMMUNITY_PACKAGES. Called again with a rebuilt tarball, the
	 * processes install the new one at their next start (restartN8n()).
	 */
	async usePackage(tarball: string): Promise<ServedPackage> {
		const served = await this.registry.serve(tarball);
		if (served.name !== PACKAGE_NAME) throw new Error(`${tarball} holds ${served.name}, not ${PACKAGE_NAME}`);
		this.packageChanged = this.package !== undefined && this.package.integrity !== served.integrity;
		this.package = served;
		for (const env of this.settings) Object.assign(env, packageSettings(served));
		return served;
	}

	get logFiles(): string[] {
		return [this.postgres.logFile, this.redis.logFile, this.registry.logFile, ...this.n8nProcesses.map((p) => p.logFile)];
	}

	get n8nProcesses(): N8nServer[] {
		return [this.main, ...this.workers, ...this.webhooks].filter(Boolean);
	}

	/** Starts the services and the stand-in registry, then every n8n process; resolves with the seconds n8n's processes took. */
	async start(): Promise<number> {
		const served = this.package;
		if (!served) throw new Error('QueueTopology.start(): no package to install; call usePackage(tarball) first');
		const since = Date.now();
		await Promise.all([this.postgres.start(), this.redis.start(), this.registry.start()]);
		this.say(
			`PostgreSQL on 127.0.0.1:${this.postgres.port}, Redis on 127.0.0.1:${this.redis.port}, ` +
				`the stand-in for registry.npmjs.org behind 127.0.0.1:${this.registry.port} (${(Date.now() - since) / 1000}s)`,
		);

		// Two webhook processors behind the balancer, so that deliveries spread over processes as in a deployment.
		const webhookPorts = await Promise.all([freePort(), freePort()]);
		const shared: NodeJS.ProcessEnv = {
			EXECUTIONS_MODE: 'queue',
			N8N_ENCRYPTION_KEY: randomBytes(24).toString('hex'),
			...this.postgres.environment(),
			...this.redis.environment(),
			// n8n's default in queue mode, stated: filesystem binary data is not shared between processes.
			N8N_DEFAULT_BINARY_DATA_MODE: 'database',
			N8N_PAYLOAD_SIZE_MAX: String(WEBHOOK_PAYLOAD_SIZE_MAX_MIB),
			// The URL the editor shows for production webhooks: the first webhook processor.
			N8N_WEBHOOK_URL: `http://127.0.0.1:${webhookPorts[0]}/`,
			...this.registry.environment(),
			...packageSettings(served),
		};
		const server = (role: 'start' | 'worker' | 'webhook', name: string, env: NodeJS.ProcessEnv = {}, port?: number) => {
			// A process's home (its N8N_USER_FOLDER, with `.n8n` inside): its own, as each container of a deployment has.
			const userFolder = path.join(this.dir, `home-${name}`);
			// npm's cache in the process's home, as on a machine of its own.
			const settings = { ...shared, npm_config_cache: path.join(userFolder, '.npm'), ...env };
			this.settings.push(settings);
			return new N8nServer(this.options.n8nDir, { userFolder, logDir: this.dir, role, name, port, env: settings });
		};
		this.main = server('start', 'main', { N8N_DISABLE_PRODUCTION_MAIN_PROCESS: 'true' });
		this.workers = Array.from({ length: this.options.workers ?? 1 }, (_, i) => server('worker', `worker-${i + 1}`));
		this.webhooks = webhookPorts.map((port, i) => server('webhook', `webhook-${i + 1}`, {}, port));
		return await this.startN8n();
	}

	/**
	 * The main process first (it migrates the database and installs the package listed in
	 * N8N_COMMUNITY_PACKAGES before it serves), then the others together once it is ready: in n8n
	 * 2.41 they install the package the main process recorded. Resolves with the seconds it took.
	 */
	private async startN8n(): Promise<number> {
		const since = Date.now();
		this.packageChanged = false;
		await this.main.start();
		await Promise.all([...this.workers, ...this.webhooks].map((p) => p.start()));
		const seconds = (Date.now() - since) / 1000;
		const states = this.n8nProcesses.map((p) => `${p.name} with ${PACKAGE_NAME}@${this.installedVersion(p) ?? 'NOT installed'}`);
		this.say(`n8n's processes started in ${seconds.toFixed(1)}s: ${states.join(', ')}`);
		return seconds;
	}

	/**
	 * Restarts every n8n process (main first), keeping the database. After usePackage() with a
	 * rebuilt tarball they start as new containers would, without the package on disk, and install
	 * the new one: n8n compares versions only, so a rebuild under the same version would not be
	 * installed over the old one.
	 */
	async restartN8n(): Promise<number> {
		await Promise.all(this.n8nProcesses.map((p) => p.stop()));
		if (this.packageChanged) {
			for (const p of this.n8nProcesses) rmSync(path.join(p.userFolder, '.n8n', 'nodes'), { recursive: true, force: true });
		}
		return await this.startN8n();
	}

	/** The version of the package in a process's n8n folder, where n8n's installer puts it. */
	installedVersion(p: N8nServer): string | undefined {
		const manifest = path.join(p.userFolder, '.n8n', 'nodes', 'node_modules', PACKAGE_NAME, 'package.json');
		if (!existsSync(manifest)) return undefined;
		return (JSON.parse(readFileSync(manifest, 'utf8')) as { version?: string }).version;
	}

	/** n8n's message when a process could not install or load the package, or the process that lacks it with n8n's own lines about installing. */
	get loadProblem(): string | undefined {
		const problem = this.n8nProcesses.map((p) => p.loadProblem).find(Boolean);
		if (problem) return problem;
		const version = this.package?.version;
		const lacking = this.n8nProcesses.find((p) => p.running && this.installedVersion(p) !== version);
		if (!lacking) return undefined;
		const lines = lacking.recentOutput.split('\n').filter((line) => /community package|missing packages|reinstall/i.test(line));
		return `${lacking.name} has ${PACKAGE_NAME}@${this.installedVersion(lacking) ?? 'nothing'} instead of ${version} (log: ${lacking.logFile}):\n  ${lines.join('\n  ')}`;
	}

	/** Stops n8n's processes, then Redis and PostgreSQL; removes the folder unless `keep`. */
	async stop(options: { keep?: boolean } = {}): Promise<void> {
		if (this.stopped) return;
		this.stopped = true;
		process.removeListener('SIGINT', this.onSignal);
		process.removeListener('SIGTERM', this.onSignal);
		await Promise.allSettled(this.n8nProcesses.map((p) => p.stop()));
		await Promise.allSettled([this.redis.stop(), this.postgres.stop(), this.registry.stop()]);
		if (!options.keep) rmSync(this.dir, { recursive: true, force: true });
	}

	describe(): string {
		return [
			`PostgreSQL  127.0.0.1:${this.postgres.port}  (log ${this.postgres.logFile})`,
			`Redis       127.0.0.1:${this.redis.port}  (log ${this.redis.logFile})`,
			`registry    stand-in for registry.npmjs.org behind the proxy 127.0.0.1:${this.registry.port}  (log ${this.registry.logFile})`,
			`main        ${this.main.baseUrl}  (log ${this.main.logFile})`,
			...this.workers.map((w) => `${w.name.padEnd(12)}health 127.0.0.1:${w.healthPort}  (log ${w.logFile})`),
			...this.webhooks.map((w) => `${w.name.padEnd(12)}${w.baseUrl}  (log ${w.logFile})`),
		].join('\n');
	}
}

/**
 * The queue-mode counterpart of prepareN8n(): n8n installed (once), this package built and packed,
 * the topology started with every n8n process installing the package at start, the owner signed in
 * on the main process with a public-API key. On any failure everything started is stopped and the
 * log files are named in the error.
 */
export async function prepareQueueN8n(options: Omit<QueueOptions, 'n8nDir'> & StartOptions) {
	const say = options.progress ?? (() => undefined);
	const n8nDir = await ensureN8nInstalled();
	say(`n8n ${N8N_VERSION} ready in ${n8nDir}`);
	const topology = new QueueTopology({ ...options, n8nDir }, (await ensureServicePackages(say)).postgresBin);
	options.onStart?.(() => topology.stop());
	try {
		const tarball = await buildAndPack(path.join(topology.dir, 'pack'));
		const served = await topology.usePackage(tarball);
		say(`package built and packed: ${path.basename(tarball)}, listed in N8N_COMMUNITY_PACKAGES as ${served.name}@${served.version} (${served.integrity.slice(0, 19)}…)`);
		const startSeconds = await topology.start();
		if (topology.loadProblem) {
			if (!options.tolerateLoadProblem) throw new Error(`n8n could not install or load the package:\n${topology.loadProblem}`);
			say(`WARNING: n8n could not install or load the package:\n${topology.loadProblem}`);
		}
		const client = await signedInClient(topology.main.baseUrl);
		return { topology, client, startSeconds };
	} catch (error) {
		const logs = topology.logFiles.join('\n  ');
		await topology.stop({ keep: true });
		throw new Error(`${(error as Error).message}\nlog files:\n  ${logs}`);
	}
}

/**
 * What every n8n process is given to install the package, as n8n's documentation tells users since
 * n8n 2.21: the package, its version and its checksum (n8n 3 refuses to start with an unverified
 * package listed without one), the instance's packages managed by these settings.
 *
 * In n8n 2.41 only the main process reads N8N_COMMUNITY_PACKAGES (`n8n start` runs the settings
 * loaders; `n8n worker` and `n8n webhook` do not): it installs the package, checking the checksum
 * against the registry, and records it in the database. Workers and webhook processors install what
 * the main process recorded when they start, with N8N_REINSTALL_MISSING_PACKAGES; that reinstall
 * takes no checksum, so it needs unverified packages allowed (2.x's default, stated here).
 */
function packageSettings(served: ServedPackage): NodeJS.ProcessEnv {
	return {
		N8N_COMMUNITY_PACKAGES_MANAGED_BY_ENV: 'true',
		N8N_COMMUNITY_PACKAGES: JSON.stringify([{ name: served.name, version: served.version, checksum: served.integrity }]),
		N8N_REINSTALL_MISSING_PACKAGES: 'true',
		N8N_UNVERIFIED_PACKAGES_ENABLED: 'true',
	};
}
