/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

import type { AssumedNames } from './renamed';
import type { Environment } from '../nodes/PostalServiceTrigger/webhookLists';
import { errorReply, type Ctx, type Family, type Reply } from './http';
import { Receiver } from './receiver';
import { namesFor } from './renamed';
import { seedState } from './seed';
import type { State } from './state';
import { WebhookDispatcher, type DeliveryIds } from './webhooks';

export interface SandboxSettings {
	port: number;
	token: string;
	email: string;
	webhookSecret: string;
	environment: Environment;
	/** Milliseconds per "minute" of webhook retry back-off. */
	timeScale: number;
	authFailureLimit: number;
	balance: number;
	quiet: boolean;
	stateFile?: string;
	/** How long a webhook receiver may take to answer (the spec's 30 s). */
	webhookTimeoutMs: number;
	/**
	 * `delivery`: every retry and resend of a delivery carries its first delivery_id (the key "to
	 * deduplicate" on); `attempt`: each carries a new one (the "unique id of this delivery attempt").
	 */
	deliveryIds?: DeliveryIds;
	/** Serve another reading of every name the interface does not show, or of these keys (renamed.ts). */
	renamedAssumptions?: boolean | readonly (keyof AssumedNames)[];
}

export interface LoggedRequest {
	method: string;
	path: string;
	query: Record<string, string>;
	headers: Record<string, string | string[] | undefined>;
	fields: Record<string, unknown>;
	files: Array<{ field: string; fileName: string; mimeType: string; size: number; sha256: string }>;
	status: number;
	at: string;
	/** Positions in one sequence of arrivals and finished answers: how many requests overlapped. */
	arrived: number;
	answered?: number;
}

export const FAULT_KINDS = ['500', '503', '429', 'drop', 'dropAfterAccept', 'slow', 'trickle', 'redirect', 'html', 'empty'] as const;

export interface Fault {
	method?: string;
	path: string;
	kind: (typeof FAULT_KINDS)[number];
	count: number;
	/** Matching requests let through untouched before the fault starts. */
	skip: number;
	/** `slow`: the delay before the answer; `trickle`: the pause between two bytes of it. */
	delayMs: number;
	/** `redirect`: the target (Location) and the status (301, 302, 303, 307 or 308). */
	location?: string;
	status?: number;
}

/** Everything the routes and the control API share: settings, state, webhooks, faults. */
export class SandboxCore {
	state: State;
	readonly dispatcher: WebhookDispatcher;
	/** What the examples posted to the user's own systems (a team chat, a CRM) while pointed here. */
	readonly receiver = new Receiver();
	requestLog: LoggedRequest[] = [];
	faults: Fault[] = [];
	maintenance = false;
	latencyMs = 0;
	baseUrl = '';
	/** The names this sandbox answers to where the interface shows none. */
	readonly names: AssumedNames;
	private readonly authFailures = new Map<string, number>();
	private readonly sleeps = new Map<NodeJS.Timeout, () => void>();

	constructor(readonly settings: SandboxSettings) {
		this.names = namesFor(settings.renamedAssumptions);
		this.state = seedState(settings.balance);
		this.dispatcher = new WebhookDispatcher({
			environment: () => this.settings.environment,
			deliveryIds: () => this.settings.deliveryIds ?? 'delivery',
			timeScale: settings.timeScale,
			defaultSecret: settings.webhookSecret,
			timeoutMs: settings.webhookTimeoutMs,
			onChange: () => this.save(),
		});
		this.load();
	}

	/**
	 * Counts failed authentications per client; past the limit the answer is 429 instead of 401.
	 * A successful authentication clears the count, so a client that fixes its credentials goes on.
	 */
	checkAuth(ctx: Ctx, ok: boolean, family: Family, message: string): Reply | null {
		if (ok) {
			this.authFailures.delete(ctx.client);
			return null;
		}
		const failures = (this.authFailures.get(ctx.client) ?? 0) + 1;
		this.authFailures.set(ctx.client, failures);
		if (failures > this.settings.authFailureLimit) {
			return errorReply(family, 429, 'Muitas tentativas de autenticação inválidas; tente novamente mais tarde');
		}
		return errorReply(family, 401, message);
	}

	/** A delay that `stop()` can cut short, so that no timer outlives the sandbox. */
	sleep(ms: number): Promise<void> {
		return new Promise((resolve) => {
			const timer = setTimeout(() => {
				this.sleeps.delete(timer);
				resolve();
			}, ms);
			this.sleeps.set(timer, resolve);
		});
	}

	cancelSleeps(): void {
		for (const [timer, resolve] of this.sleeps) {
			clearTimeout(timer);
			resolve();
		}
		this.sleeps.clear();
	}

	takeFault(method: string, path: string): Fault | undefined {
		const fault = this.faults.find(
			(f) => f.count > 0 && path.startsWith(f.path) && (!f.method || f.method.toUpperCase() === method),
		);
		if (!fault) return undefined;
		if (fault.skip > 0) {
			fault.skip--;
			return undefined;
		}
		fault.count--;
		this.faults = this.faults.filter((f) => f.count > 0);
		return fault;
	}

	reset(): void {
		this.dispatcher.clear();
		this.state = seedState(this.settings.balance);
		this.requestLog = [];
		this.receiver.clear();
		this.faults = [];
		this.maintenance = false;
		this.latencyMs = 0;
		this.authFailures.clear();
		this.save();
	}

	/** Writes the state file (when one was given) after every change: a development tool can afford it. */
	save(): void {
		if (!this.settings.stateFile) return;
		const snapshot = {
			version: 1,
			state: this.state,
			webhooks: {
				endpoints: this.dispatcher.endpoints,
				deliveries: this.dispatcher.deliveries,
				notices: this.dispatcher.notices,
			},
		};
		writeFileSync(this.settings.stateFile, JSON.stringify(snapshot));
	}

	private load(): void {
		const file = this.settings.stateFile;
		if (!file || !existsSync(file)) return;
		const snapshot = JSON.parse(readFileSync(file, 'utf8'));
		if (snapshot?.version !== 1) return;
		// Keys added since the file was written take their seeded value.
		this.state = { ...seedState(this.settings.balance), ...snapshot.state };
		this.dispatcher.restore(snapshot.webhooks);
	}
}
