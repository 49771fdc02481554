/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
// One n8n process (the server, a queue worker or a webhook processor) started offline on
// 127.0.0.1 with a user folder of its own, and stopped with everything it started.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { cacheDir, freePort, waitUntil } from './common';
import { GroupProcess } from './process';

/** What an n8n process is: the server (`n8n start`), a queue worker, or a webhook processor. */
export type N8nRole = 'start' | 'worker' | 'webhook';

/** The line each role prints once it serves. */
const READY_LINE: Record<N8nRole, RegExp> = {
	start: /Editor is now accessible/,
	worker: /n8n worker is now ready/,
	webhook: /Webhook listener waiting for requests/,
};

export interface N8nOptions {
	/** Folder n8n keeps its database, settings and community packages in. */
	userFolder: string;
	port?: number;
	env?: NodeJS.ProcessEnv;
	/** Default `start`. */
	role?: N8nRole;
	/** Names the log file (`<name>.log`, where n8n's own output goes); default `n8n`. */
	name?: string;
	/** Folder of the log file; default the user folder. */
	logDir?: string;
}

/**
 * The Node binary an installed n8n runs on: install-n8n.sh records the major the release declares
 * (`.node-major`); the Node 24 running the scripts serves every release that allows it.
 */
export function nodeFor(n8nDir: string): string {
	const recorded = path.join(n8nDir, '.node-major');
	const major = existsSync(recorded) ? readFileSync(recorded, 'utf8').trim() : process.versions.node.split('.')[0];
	if (major === process.versions.node.split('.')[0]) return process.execPath;
	const binary = path.join(cacheDir, `node${major}`, 'package', 'bin', 'node');
	if (!existsSync(binary)) throw new Error(`n8n in ${n8nDir} runs on Node ${major}: run scripts/node/node-major.sh ${major} first`);
	return binary;
}

/**
 * n8n's lines when a community package did not load, or was not installed: it starts anyway. The
 * last three come from installing packages listed in N8N_COMMUNITY_PACKAGES (the main process) and
 * from reinstalling the ones it recorded (every process, with N8N_REINSTALL_MISSING_PACKAGES).
 */
const LOAD_PROBLEMS = [
	/Failed to load package "([^"]+)"[^\n]*\n[^\n]*/,
	/Failed to (?:install|update|reinstall) community package[^\n]*/,
	/n8n detected that some packages are missing[^\n]*/,
];

/** How long a process may take to start: 11-14 s idle, near 3 minutes on 2 cores under a load average of 25. */
const START_LIMIT_MS = 300_000;

/** One n8n server process (plus the task runner it launches), restartable with the same data. */
export class N8nServer {
	readonly userFolder: string;
	readonly logFile: string;
	readonly role: N8nRole;
	readonly name: string;
	port = 0;
	brokerPort = 0;
	/** The worker's health server (workers only). */
	healthPort = 0;
	private readonly group: GroupProcess;
	/** n8n's message when it could not load a community package (it starts anyway). */
	loadProblem?: string;

	constructor(
		readonly n8nDir: string,
		private readonly options: N8nOptions,
	) {
		this.userFolder = options.userFolder;
		this.role = options.role ?? 'start';
		this.name = options.name ?? 'n8n';
		this.logFile = path.join(options.logDir ?? this.userFolder, `${this.name}.log`);
		this.group = new GroupProcess(this.name, this.logFile);
	}

	/** The process id of n8n itself (its task runner shares its process group; benchmarks read its CPU time). */
	get pid(): number | undefined {
		return this.group.pid;
	}

	get baseUrl() {
		return `http://127.0.0.1:${this.port}`;
	}

	get running() {
		return this.group.running;
	}

	/** Starts n8n and resolves once the editor and the webhooks answer; returns the seconds it took. */
	async start(): Promise<number> {
		const started = Date.now();
		mkdirSync(this.userFolder, { recursive: true });
		this.port = this.port || this.options.port || (await freePort());
		this.brokerPort = await freePort();
		if (this.role === 'worker') this.healthPort ||= await freePort();
		this.loadProblem = undefined;
		const bin = path.join(this.n8nDir, 'node_modules', 'n8n', 'bin', 'n8n');
		this.group.spawn(nodeFor(this.n8nDir), [bin, this.role], {
			cwd: this.userFolder,
			env: { ...inheritedEnvironment(), ...this.environment(), ...this.options.env },
		});
		await this.group.waitFor(READY_LINE[this.role], START_LIMIT_MS, 100).catch(async (error: Error) => {
			if (this.running) await this.stop();
			throw error;
		});
		const base = this.role === 'worker' ? `http://127.0.0.1:${this.healthPort}` : this.baseUrl;
		const ready = () => fetch(`${base}/healthz/readiness`).then((response) => response.ok, () => false);
		const late = () => new Error(`${this.name} did not become ready within ${START_LIMIT_MS / 1000} s (log: ${this.logFile})`);
		await waitUntil(ready, START_LIMIT_MS, late, 100, started);
		const failed = LOAD_PROBLEMS.map((pattern) => pattern.exec(this.group.output)).find(Boolean);
		if (failed) this.loadProblem = failed[0];
		return (Date.now() - started) / 1000;
	}

	environment(): NodeJS.ProcessEnv {
		return {
			N8N_USER_FOLDER: this.userFolder,
			N8N_PORT: String(this.port),
			N8N_LISTEN_ADDRESS: '127.0.0.1',
			N8N_HOST: '127.0.0.1',
			N8N_PROTOCOL: 'http',
			N8N_WEBHOOK_URL: `${this.baseUrl}/`,
			N8N_EDITOR_BASE_URL: `${this.baseUrl}/`,
			N8N_RUNNERS_BROKER_PORT: String(this.brokerPort),
			N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
			// Offline: nothing here may reach the internet.
			N8N_DIAGNOSTICS_ENABLED: 'false',
			N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
			N8N_TEMPLATES_ENABLED: 'false',
			N8N_PERSONALIZATION_ENABLED: 'false',
			N8N_HIRING_BANNER_ENABLED: 'false',
			// Releases without that module refuse to start when it is named.
			...(existsSync(path.join(this.n8nDir, 'node_modules', 'n8n', 'dist', 'modules', 'mcp-registry'))
				? { N8N_DISABLED_MODULES: 'mcp-registry' }
				: {}),
			// Plain http on 127.0.0.1, so the login cookie must not require https.
			N8N_SECURE_COOKIE: 'false',
			N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
			N8N_GRACEFUL_SHUTDOWN_TIMEOUT: '10',
			// Binary data in files, as one n8n process keeps it by default in 2.x and as n8n 3 will
			// require; queue mode sets database mode (scripts/queue/queue.ts). A caller's setting wins.
			N8N_DEFAULT_BINARY_DATA_MODE: process.env.N8N_DEFAULT_BINARY_DATA_MODE ?? 'filesystem',
			N8N_LOG_LEVEL: process.env.N8N_LOG_LEVEL ?? 'info',
			DB_TYPE: 'sqlite',
			EXECUTIONS_DATA_SAVE_MANUAL_EXECUTIONS: 'true',
			// Processes sharing a user folder must not share an event log file.
			N8N_EVENTBUS_LOGWRITER_LOGBASENAME: `n8nEventLog-${this.name}`,
			...(this.role === 'worker'
				? { QUEUE_HEALTH_CHECK_ACTIVE: 'true', QUEUE_HEALTH_CHECK_PORT: String(this.healthPort), N8N_WORKER_SERVER_ADDRESS: '127.0.0.1' }
				: {}),
		};
	}

	/** Stops n8n gracefully, then anything left in its process group (the task runner). */
	async stop(): Promise<void> {
		await this.group.end('SIGTERM', 20_000);
	}

	async restart(): Promise<number> {
		await this.stop();
		return await this.start();
	}

	/** Kills n8n and its task runner at once (SIGKILL), as a crash or a lost machine would. */
	async kill(): Promise<void> {
		await this.group.end('SIGKILL', 0);
	}

	/** Output n8n printed since it last started (also kept in `logFile`). */
	get recentOutput() {
		return this.group.output;
	}
}

// A test runner's variables (NODE_ENV=test, loaders in NODE_OPTIONS) change how n8n behaves, and
// `npm run`'s (npm_config_local_prefix and the like) would point the npm that n8n runs to install a
// community package at this repository.
function inheritedEnvironment(): NodeJS.ProcessEnv {
	const env = { ...process.env };
	for (const key of Object.keys(env)) {
		if (key === 'NODE_ENV' || key === 'NODE_OPTIONS' || key.startsWith('VITEST') || key === 'TEST' || /^npm_/i.test(key)) delete env[key];
	}
	return env;
}
