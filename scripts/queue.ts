// n8n's queue mode on one machine, as teams run it when one process is not enough: PostgreSQL,
// Redis, a main process that serves the editor and the API but takes no production webhooks,
// workers that run the executions, and webhook processors that take the deliveries. Every n8n
// process shares one encryption key and one n8n folder (`.n8n`) holding the packed package, as a
// shared volume would in a real deployment. Everything started here is stopped by stop(), also on Ctrl-C.
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import {
	buildAndPack,
	ensureN8nInstalled,
	freePort,
	installPackage,
	N8nClient,
	N8nServer,
	N8N_VERSION,
	type PreparedN8n,
} from './n8n';
import { ensureServicePackages, Postgres, Redis } from './services';

export interface QueueOptions {
	n8nDir: string;
	/** Holds the services' data, the shared user folder and one log file per process; default a new temporary folder. */
	dir?: string;
	webhookProcessors?: number;
	workers?: number;
	/** Settings for every n8n process, over the defaults below. */
	env?: NodeJS.ProcessEnv;
	echo?: boolean;
	progress?: (message: string) => void;
	/** Stop everything and exit on SIGINT/SIGTERM (default); off for callers with handlers of their own. */
	stopOnSignals?: boolean;
}

/** The largest request a webhook processor takes, in MiB: a 10 MB return receipt is ~14 MB of base64 JSON. */
export const WEBHOOK_PAYLOAD_SIZE_MAX_MIB = 16;

export class QueueTopology {
	readonly dir: string;
	readonly userFolder: string;
	readonly postgres: Postgres;
	readonly redis: Redis;
	main!: N8nServer;
	workers: N8nServer[] = [];
	webhooks: N8nServer[] = [];
	private stopped = false;
	private readonly onSignal = () => void this.stop().finally(() => process.exit(130));

	private constructor(
		private readonly options: QueueOptions,
		postgresBin: string,
	) {
		this.dir = options.dir ?? mkdtempSync(path.join(tmpdir(), 'postal-queue-'));
		// PostgreSQL runs as its own user and must be able to reach its folder inside this one.
		chmodSync(this.dir, 0o711);
		this.userFolder = path.join(this.dir, 'n8n');
		mkdirSync(path.join(this.userFolder, '.n8n'), { recursive: true });
		this.postgres = new Postgres(postgresBin, path.join(this.dir, 'postgres'));
		this.redis = new Redis(path.join(this.dir, 'redis'));
		if (options.stopOnSignals !== false) {
			process.once('SIGINT', this.onSignal);
			process.once('SIGTERM', this.onSignal);
		}
	}

	/**
	 * A process's home: its own, as each container of a deployment has, with `.n8n` (settings,
	 * community packages) the one folder they all share, as a shared volume would be. Sharing the
	 * whole home would also share n8n's cache of editor files, which each process rewrites as it
	 * starts while the main process serves them.
	 */
	private homeOf(name: string): string {
		const home = path.join(this.dir, `home-${name}`);
		if (!existsSync(home)) {
			mkdirSync(home, { recursive: true });
			symlinkSync(path.join(this.userFolder, '.n8n'), path.join(home, '.n8n'));
		}
		return home;
	}

	/** Creates the folder and checks the services' packages; start() then starts everything. */
	static async create(options: QueueOptions): Promise<QueueTopology> {
		const { postgresBin } = await ensureServicePackages(options.progress);
		return new QueueTopology(options, postgresBin);
	}

	get logFiles(): string[] {
		return [this.postgres.logFile, this.redis.logFile, ...this.n8nProcesses.map((p) => p.logFile)];
	}

	get n8nProcesses(): N8nServer[] {
		return [this.main, ...this.workers, ...this.webhooks].filter(Boolean);
	}

	/** Starts the services, then the main process (it migrates the database), then the others together. */
	async start(): Promise<Record<string, number>> {
		const say = this.options.progress ?? (() => undefined);
		const timings: Record<string, number> = {};
		let since = Date.now();
		await Promise.all([this.postgres.start(), this.redis.start()]);
		timings.servicesSeconds = (Date.now() - since) / 1000;
		say(`PostgreSQL on 127.0.0.1:${this.postgres.port}, Redis on 127.0.0.1:${this.redis.port} (${timings.servicesSeconds}s)`);

		const webhookPorts = await Promise.all(Array.from({ length: this.options.webhookProcessors ?? 2 }, () => freePort()));
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
			...this.options.env,
		};
		const server = (role: 'start' | 'worker' | 'webhook', name: string, env: NodeJS.ProcessEnv = {}, port?: number) =>
			new N8nServer(this.options.n8nDir, {
				userFolder: this.homeOf(name),
				logDir: this.dir,
				role,
				name,
				port,
				echo: this.options.echo,
				env: { ...shared, ...env },
			});
		this.main = server('start', 'main', { N8N_DISABLE_PRODUCTION_MAIN_PROCESS: 'true' });
		this.workers = Array.from({ length: this.options.workers ?? 1 }, (_, i) => server('worker', `worker-${i + 1}`));
		this.webhooks = webhookPorts.map((port, i) => server('webhook', `webhook-${i + 1}`, {}, port));

		since = Date.now();
		timings.mainSeconds = await this.main.start();
		say(`main process on ${this.main.baseUrl} (${timings.mainSeconds.toFixed(1)}s)`);
		since = Date.now();
		await Promise.all([...this.workers, ...this.webhooks].map((p) => p.start()));
		timings.workersAndWebhooksSeconds = (Date.now() - since) / 1000;
		say(
			`${this.workers.length} worker(s) and webhook processors on ${this.webhooks.map((w) => w.baseUrl).join(', ')} (${timings.workersAndWebhooksSeconds.toFixed(1)}s)`,
		);
		return timings;
	}

	/** Restarts every n8n process (main first), keeping the database: a changed package is loaded. */
	async restartN8n(): Promise<number> {
		const since = Date.now();
		await Promise.all(this.n8nProcesses.map((p) => p.stop()));
		await this.main.start();
		await Promise.all([...this.workers, ...this.webhooks].map((p) => p.start()));
		return (Date.now() - since) / 1000;
	}

	/** n8n's message when a process could not load the package. */
	get loadProblem(): string | undefined {
		return this.n8nProcesses.map((p) => p.loadProblem).find(Boolean);
	}

	/** Stops n8n's processes, then Redis and PostgreSQL; removes the folder unless `keep`. */
	async stop(options: { keep?: boolean } = {}): Promise<void> {
		if (this.stopped) return;
		this.stopped = true;
		process.removeListener('SIGINT', this.onSignal);
		process.removeListener('SIGTERM', this.onSignal);
		await Promise.allSettled(this.n8nProcesses.map((p) => p.stop()));
		await Promise.allSettled([this.redis.stop(), this.postgres.stop()]);
		if (!options.keep) rmSync(this.dir, { recursive: true, force: true });
	}

	describe(): string {
		return [
			`PostgreSQL  127.0.0.1:${this.postgres.port}  (log ${this.postgres.logFile})`,
			`Redis       127.0.0.1:${this.redis.port}  (log ${this.redis.logFile})`,
			`main        ${this.main.baseUrl}  (log ${this.main.logFile})`,
			...this.workers.map((w) => `${w.name.padEnd(12)}health 127.0.0.1:${w.healthPort}  (log ${w.logFile})`),
			...this.webhooks.map((w) => `${w.name.padEnd(12)}${w.baseUrl}  (log ${w.logFile})`),
		].join('\n');
	}
}

export interface PreparedQueue extends Omit<PreparedN8n, 'server'> {
	topology: QueueTopology;
}

/**
 * The queue-mode counterpart of prepareN8n(): n8n installed (once), this package built, packed and
 * laid out in the shared user folder, the topology started, the owner signed in on the main
 * process with a public-API key. On any failure everything started is stopped and the log files
 * are named in the error.
 */
export async function prepareQueueN8n(options: Omit<QueueOptions, 'n8nDir'> & { build?: boolean; keepOnFailure?: boolean }): Promise<PreparedQueue> {
	const say = options.progress ?? (() => undefined);
	const n8nDir = await ensureN8nInstalled();
	say(`n8n ${N8N_VERSION} ready in ${n8nDir}`);
	const topology = await QueueTopology.create({ ...options, n8nDir });
	try {
		const tarball = await buildAndPack(path.join(topology.dir, 'pack'), { build: options.build });
		await installPackage(topology.userFolder, tarball);
		say(`package built, packed and installed: ${path.basename(tarball)}`);
		const timings = await topology.start();
		if (topology.loadProblem) throw new Error(`n8n could not load the package:\n${topology.loadProblem}`);
		const client = new N8nClient(topology.main.baseUrl);
		await client.signIn();
		await client.createApiKey();
		return { topology, client, tarball, startSeconds: timings.mainSeconds + timings.workersAndWebhooksSeconds };
	} catch (error) {
		const logs = topology.logFiles.join('\n  ');
		await topology.stop({ keep: options.keepOnFailure ?? true });
		throw new Error(`${(error as Error).message}\nlog files:\n  ${logs}`);
	}
}
