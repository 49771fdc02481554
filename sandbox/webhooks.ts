/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
import { createHmac } from 'node:crypto';

import type { Agent } from 'undici';

import { WEBHOOK_EVENT_NAMES, type WebhookEvent } from '../nodes/PostalServiceTrigger/webhookLists';
import { saoPauloDateTime } from './util';
import {
	PAUSE_AFTER_FAILURES,
	RETRY_DELAYS_MINUTES,
	STORED_BODY_LIMIT,
	type AccountNotice,
	type Delivery,
	type DeliveryAttempt,
	type DeliveryIds,
	type WebhookEndpoint,
} from './webhookTypes';

export type { WebhookEvent };

export * from './webhookTypes';

export interface DispatcherSettings {
	environment: () => string;
	deliveryIds: () => DeliveryIds;
	timeScale: number;
	defaultSecret: string;
	timeoutMs: number;
	onChange: () => void;
}

export class WebhookDispatcher {
	endpoints: WebhookEndpoint[] = [];
	deliveries: Delivery[] = [];
	/** The e-mails the service would send to the account (endpoint paused). */
	notices: AccountNotice[] = [];
	private nextEndpointId = 1;
	private nextDeliveryId = 1;
	private readonly timers = new Set<NodeJS.Timeout>();
	private readonly inflight = new Set<Promise<void>>();
	private readonly aborts = new Set<AbortController>();
	private agent: Agent | undefined;
	private stopped = false;

	constructor(private readonly settings: DispatcherSettings) {}

	register(input: { url: string; events?: string[]; secret?: string | null; name?: string }): WebhookEndpoint {
		const url = new URL(input.url).toString();
		const events = input.events && input.events.length > 0 ? input.events : ['*'];
		const unknown = events.find((event) => event !== '*' && !(WEBHOOK_EVENT_NAMES as readonly string[]).includes(event));
		if (unknown !== undefined) throw new Error(`unknown webhook event: ${unknown}`);
		const id = this.nextEndpointId++;
		const endpoint: WebhookEndpoint = {
			id,
			name: input.name ?? `Endpoint ${id}`,
			url,
			events,
			secret: input.secret === undefined ? this.settings.defaultSecret : input.secret,
			paused: false,
			consecutiveFailures: 0,
			created_at: saoPauloDateTime(),
		};
		this.endpoints.push(endpoint);
		this.settings.onChange();
		return endpoint;
	}

	endpoint(id: number): WebhookEndpoint {
		const endpoint = this.endpoints.find((e) => e.id === Number(id));
		if (!endpoint) throw new Error(`no webhook endpoint ${id}`);
		return endpoint;
	}

	pause(id: number): void {
		this.endpoint(id).paused = true;
		this.settings.onChange();
	}

	resume(id: number): void {
		const endpoint = this.endpoint(id);
		endpoint.paused = false;
		endpoint.consecutiveFailures = 0;
		this.settings.onChange();
	}

	remove(id: number): void {
		this.endpoints = this.endpoints.filter((e) => e.id !== Number(id));
		this.settings.onChange();
	}

	/** Fans a real event out to every active endpoint subscribed to it. */
	emit(event: WebhookEvent, data: Record<string, unknown>, extra: Record<string, unknown> = {}): Delivery[] {
		if (this.stopped) return [];
		const generatedAt = saoPauloDateTime();
		const created: Delivery[] = [];
		for (const endpoint of this.endpoints) {
			if (endpoint.paused) continue;
			if (!endpoint.events.includes('*') && !endpoint.events.includes(event)) continue;
			created.push(this.send(endpoint, event, generatedAt, data, extra));
		}
		return created;
	}

	sendTest(id: number): Delivery {
		const endpoint = this.endpoint(id);
		const data = {
			message: 'Este é um evento de teste enviado pelo painel.',
			webhook_id: endpoint.id,
			webhook_name: endpoint.name,
		};
		return this.send(endpoint, 'webhook.test', saoPauloDateTime(), data, {});
	}

	/** Sends a stored delivery again, byte for byte, as the panel's resend button does. */
	async resend(deliveryId: number): Promise<Delivery> {
		const delivery = this.deliveries.find((d) => d.deliveryId === Number(deliveryId));
		if (!delivery) throw new Error(`no delivery ${deliveryId}`);
		const done = this.attempt(delivery, false);
		this.track(done);
		await done;
		return delivery;
	}

	clear(): void {
		this.cancelTimers();
		this.endpoints = [];
		this.deliveries = [];
		this.notices = [];
		this.nextEndpointId = 1;
		this.nextDeliveryId = 1;
	}

	async stop(): Promise<void> {
		this.stopped = true;
		this.cancelTimers();
		for (const controller of this.aborts) controller.abort();
		// Every attempt under way finishes before the agent closes; scheduled retries were cancelled above.
		while (this.inflight.size > 0) await Promise.allSettled([...this.inflight]);
		await this.agent?.close();
	}

	restore(saved: { endpoints: WebhookEndpoint[]; deliveries: Delivery[]; notices?: AccountNotice[] }): void {
		this.endpoints = saved.endpoints;
		this.deliveries = saved.deliveries.map((d) =>
			d.state === 'pending' || d.state === 'retrying' ? { ...d, state: 'failed', nextAttemptAt: null } : d,
		);
		this.notices = saved.notices ?? [];
		this.nextEndpointId = Math.max(0, ...this.endpoints.map((e) => e.id)) + 1;
		this.nextDeliveryId = Math.max(0, ...this.deliveries.flatMap((d) => [d.deliveryId, ...d.attempts.map((a) => a.deliveryId ?? 0)])) + 1;
	}

	/**
	 * A real event whose delivery failed for good (its retries spent, or a resend refused) is one
	 * failure; three in a row pause the endpoint. Counting attempts instead would pause a dead
	 * endpoint after its second retry, and the third retry the interface promises would never come.
	 */
	private countFailure(endpoint: WebhookEndpoint): void {
		endpoint.consecutiveFailures++;
		if (endpoint.consecutiveFailures >= PAUSE_AFTER_FAILURES && !endpoint.paused) {
			endpoint.paused = true;
			this.notices.push({
				at: saoPauloDateTime(),
				subject: `Webhook "${endpoint.name}" pausado após ${PAUSE_AFTER_FAILURES} falhas consecutivas`,
				webhookId: endpoint.id,
			});
		}
	}

	private cancelTimers(): void {
		for (const timer of this.timers) clearTimeout(timer);
		this.timers.clear();
	}

	private track(promise: Promise<void>): void {
		this.inflight.add(promise);
		void promise.finally(() => this.inflight.delete(promise));
	}

	/** Stores a new delivery and makes its first attempt; a test event is never retried nor counted. */
	private send(
		endpoint: WebhookEndpoint,
		event: string,
		generatedAt: string,
		data: Record<string, unknown>,
		extra: Record<string, unknown>,
	): Delivery {
		const deliveryId = this.nextDeliveryId++;
		const payload = {
			event,
			environment: this.settings.environment(),
			timestamp: generatedAt,
			webhook_id: endpoint.id,
			delivery_id: deliveryId,
			...extra,
			data,
		};
		const delivery: Delivery = {
			deliveryId,
			webhookId: endpoint.id,
			event,
			body: JSON.stringify(payload),
			payload,
			state: 'pending',
			test: event === 'webhook.test',
			attempts: [],
			nextAttemptAt: null,
		};
		this.deliveries.push(delivery);
		this.track(this.attempt(delivery, true));
		return delivery;
	}

	private async attempt(delivery: Delivery, scheduleRetry: boolean): Promise<void> {
		const endpoint = this.endpoints.find((e) => e.id === delivery.webhookId);
		if (!endpoint || this.stopped) return;
		const at = saoPauloDateTime();
		// Under the `attempt` reading a retry or a resend is the same event under a delivery_id of its own.
		const renumbered = this.settings.deliveryIds() === 'attempt' && delivery.attempts.length > 0;
		const deliveryId = renumbered ? this.nextDeliveryId++ : delivery.deliveryId;
		const body = renumbered ? JSON.stringify({ ...delivery.payload, delivery_id: deliveryId }) : delivery.body;
		const headers: Record<string, string> = {
			'content-type': 'application/json',
			'user-agent': 'Service-Webhooks/1.0',
			'x-webhook-event': delivery.event,
			'x-webhook-delivery': String(deliveryId),
			'x-webhook-timestamp': at,
			'x-webhook-environment': String(delivery.payload.environment),
		};
		if (endpoint.secret) {
			headers['x-webhook-signature'] =
				'sha256=' + createHmac('sha256', endpoint.secret).update(body, 'utf8').digest('hex');
		}
		const controller = new AbortController();
		this.aborts.add(controller);
		const timeout = setTimeout(() => controller.abort(), this.settings.timeoutMs);
		const started = Date.now();
		const attempt: DeliveryAttempt = { deliveryId, at, responseBody: '', durationMs: 0 };
		delivery.attempts.push(attempt);
		delivery.nextAttemptAt = null;
		try {
			// undici is loaded with the first delivery, which keeps the start of the sandbox quick.
			const { Agent, request } = await import('undici');
			if (this.stopped) throw new Error('the sandbox stopped');
			this.agent ??= new Agent({ keepAliveTimeout: 1_000, connections: 16 });
			const response = await request(endpoint.url, {
				method: 'POST',
				headers,
				body,
				signal: controller.signal,
				dispatcher: this.agent,
			});
			attempt.status = response.statusCode;
			const text = await response.body.text();
			attempt.responseBody = text.slice(0, STORED_BODY_LIMIT);
		} catch (error) {
			attempt.error = controller.signal.aborted
				? `no answer within ${this.settings.timeoutMs} ms`
				: error instanceof Error
					? error.message
					: String(error);
		} finally {
			clearTimeout(timeout);
			this.aborts.delete(controller);
			attempt.durationMs = Date.now() - started;
		}
		if (this.stopped) return;
		const ok = attempt.status !== undefined && attempt.status >= 200 && attempt.status < 300;
		if (ok) {
			delivery.state = 'delivered';
			if (!delivery.test) endpoint.consecutiveFailures = 0;
			this.settings.onChange();
			return;
		}
		delivery.state = 'failed';
		const retriesDone = delivery.attempts.length - 1;
		if (scheduleRetry && !delivery.test && !endpoint.paused && retriesDone < RETRY_DELAYS_MINUTES.length) {
			const delayMs = RETRY_DELAYS_MINUTES[retriesDone] * this.settings.timeScale;
			delivery.state = 'retrying';
			delivery.nextAttemptAt = saoPauloDateTime(new Date(Date.now() + delayMs));
			const timer = setTimeout(() => {
				this.timers.delete(timer);
				const current = this.endpoints.find((e) => e.id === delivery.webhookId);
				if (!current || current.paused) {
					delivery.state = 'failed';
					delivery.nextAttemptAt = null;
					this.settings.onChange();
					return;
				}
				this.track(this.attempt(delivery, true));
			}, delayMs);
			this.timers.add(timer);
		} else if (!delivery.test) {
			this.countFailure(endpoint);
		}
		this.settings.onChange();
	}
}
