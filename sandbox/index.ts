/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
import type { AddressInfo } from 'node:net';

import { ENVIRONMENT_NAMES } from '../nodes/PostalServiceTrigger/webhookLists';
import { createControl } from './control';
import { SandboxCore, type SandboxSettings } from './core';
import { RECEIVER_PATH } from './receiver';
import { createSandboxServer } from './server';
import { DELIVERY_ID_READINGS } from './webhooks';

export type { SandboxControl } from './control';
export type { Delivery } from './webhooks';
export type { Received } from './receiver';
export { RECEIVER_PATH } from './receiver';

export type SandboxOptions = Partial<SandboxSettings>;

/** A running sandbox: its address and demo account, its control, and `stop()`. */
export type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

export const DEFAULTS: SandboxSettings = {
	port: 0,
	token: 'sandbox-token',
	email: 'demo@example.com',
	webhookSecret: 'sandbox-webhook-secret',
	environment: 'homolog',
	timeScale: 60_000,
	authFailureLimit: 10,
	balance: 1000,
	quiet: false,
	webhookTimeoutMs: 30_000,
	deliveryIds: 'delivery',
};

export async function startSandbox(options: SandboxOptions = {}) {
	const defined = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined));
	const settings: SandboxSettings = { ...DEFAULTS, ...defined };
	if (!ENVIRONMENT_NAMES.includes(settings.environment)) {
		throw new Error(`environment must be ${ENVIRONMENT_NAMES.join(' or ')}, not ${settings.environment}`);
	}
	if (!DELIVERY_ID_READINGS.includes(settings.deliveryIds ?? 'delivery')) {
		throw new Error(`deliveryIds must be ${DELIVERY_ID_READINGS.join(' or ')}, not ${settings.deliveryIds}`);
	}
	const core = new SandboxCore(settings);
	const control = createControl(core);
	const server = createSandboxServer(core, control);
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(settings.port, '127.0.0.1', () => {
			server.off('error', reject);
			resolve();
		});
	});
	const { port } = server.address() as AddressInfo;
	core.baseUrl = `http://127.0.0.1:${port}`;
	let stopped = false;
	return {
		/** `http://127.0.0.1:<port>`: the production-style routes live here. */
		baseUrl: core.baseUrl,
		port,
		token: settings.token,
		email: settings.email,
		webhookSecret: settings.webhookSecret,
		environment: settings.environment,
		/** The homolog panel page. */
		panelUrl: `${core.baseUrl}/`,
		/** `<baseUrl>/_receiver`: takes and records any request, standing in for the user's own systems. */
		receiverUrl: `${core.baseUrl}${RECEIVER_PATH}`,
		control,
		/** Closes the server, every connection and every pending webhook timer. */
		async stop(): Promise<void> {
			if (stopped) return;
			stopped = true;
			core.cancelSleeps();
			const closed = new Promise<void>((resolve) => server.close(() => resolve()));
			server.closeAllConnections();
			await core.dispatcher.stop();
			await closed;
			core.save();
		},
	};
}
