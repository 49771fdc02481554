/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
/**
 * The sandbox's own webhook dispatcher in front of the trigger, for the sandbox-*.test.ts files:
 * the sandbox serializes, signs, delivers and retries as the spec says; the receiver hands every
 * request, byte for byte, to the trigger through n8n-core, and answers with the node's status,
 * which the sandbox records.
 */
import { randomBytes } from 'node:crypto';

import { afterEach } from 'vitest';

import { startSandbox, type Sandbox } from '../../sandbox';
import type { Delivery as SentDelivery } from '../../sandbox';
import { startTriggerReceiver, type TriggerReceiver } from './receiver';
import { SECRET } from './support';

const TOKEN = 'trigger-sandbox-token';
// Milliseconds per "minute" of the service's retry back-off: retries after 50, 100 and 200 ms.
const TIME_SCALE = 10;

/** Starts a sandbox and a receiver in each test that asks (the last pair is stopped after the test). */
export function useSandboxDispatcher() {
	let sandbox: Sandbox | undefined;
	let receiver: TriggerReceiver | undefined;

	afterEach(async () => {
		await sandbox?.stop();
		await receiver?.close();
		sandbox = undefined;
		receiver = undefined;
	});

	return async function setup(options: {
		environment?: 'production' | 'homolog';
		parameters?: Record<string, unknown>;
		endpointSecret?: string | null;
		events?: string[];
	}) {
		sandbox = await startSandbox({
			port: 0,
			token: TOKEN,
			webhookSecret: SECRET,
			environment: options.environment ?? 'production',
			timeScale: TIME_SCALE,
			quiet: true,
		});
		receiver = await startTriggerReceiver({ parameters: options.parameters as never });
		const endpoint = sandbox.control.registerWebhook({
			url: receiver.url,
			events: options.events,
			...(options.endpointSecret !== undefined ? { secret: options.endpointSecret } : {}),
		});
		return { sandbox, receiver, endpoint };
	};
}

/** A registered electronic letter with return receipt (shipType 10), created through the API. */
export async function createLetter(s: Sandbox): Promise<string> {
	const form = new URLSearchParams({
		userSecurityToken: TOKEN,
		shipType: '10',
		name: 'Ana Souza',
		addr1: 'Rua da Aurora',
		street_number: '100',
		zip: '50050-000',
		city: 'Recife',
		state: 'PE',
		country: 'Brasil',
		ecarta_msg: 'Prezada Ana, segue a notificação combinada.',
	});
	const response = await fetch(`${s.baseUrl}/api/v2/post`, { method: 'POST', body: form });
	const body = (await response.json()) as { status: number; data: unknown; status_message: string };
	if (response.status !== 200 || typeof body.data !== 'string') {
		throw new Error(`order not created: ${response.status} ${JSON.stringify(body)}`);
	}
	return body.data;
}

export const finished = (d: SentDelivery) => d.state === 'delivered' || d.state === 'failed';

/** The sandbox's deliveries, once there are at least `count` and each has reached its last state. */
export async function settled(s: Sandbox, count: number): Promise<SentDelivery[]> {
	return await s.control.waitForDeliveries((all) => all.length >= count && all.every(finished), 20_000);
}

/** Random bytes of the given size between a PDF's header and end marker. */
export function pdfOf(size: number): Buffer {
	const head = Buffer.from('%PDF-1.4\n');
	const tail = Buffer.from('\n%%EOF\n');
	return Buffer.concat([head, randomBytes(size - head.length - tail.length), tail]);
}
