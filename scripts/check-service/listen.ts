/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { isValidSignature } from '../../nodes/PostalServiceTrigger/verification';

/** What the deliveries received so far say about the trigger's three open questions. */
export interface WebhookAnswers {
	verified: number;
	refused: number;
	/** Which clock X-Webhook-Timestamp follows, by the deliveries' own times. */
	headerTimeZone: 'America/Sao_Paulo' | 'UTC' | 'neither' | 'not seen';
	environmentInBody: boolean | 'not seen';
	/** Whether a resend (same event, same body but for the id) kept its delivery_id. */
	resendKeepsDeliveryId: boolean | 'not seen';
}

export interface Listener {
	url: string;
	answers(): WebhookAnswers;
	close(): Promise<void>;
}

const FIVE_MINUTES = 5 * 60_000;

/** Minutes São Paulo's wall clock is behind UTC at this instant (3 since 2019). */
function saoPauloOffsetMs(now: Date): number {
	const wall = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' })
		.format(now)
		.replace(', ', 'T');
	return Math.round((now.getTime() - Date.parse(`${wall}Z`)) / 60_000) * 60_000;
}

export function readHeaderClock(header: string, now = new Date()): WebhookAnswers['headerTimeZone'] {
	const asUtc = Date.parse(`${header.trim().replace(' ', 'T')}Z`);
	if (!Number.isFinite(asUtc)) return 'neither';
	if (Math.abs(now.getTime() - (asUtc + saoPauloOffsetMs(now))) < FIVE_MINUTES) return 'America/Sao_Paulo';
	if (Math.abs(now.getTime() - asUtc) < FIVE_MINUTES) return 'UTC';
	return 'neither';
}

/**
 * Receives the service's deliveries (the panel's test button, a resend), checks each signature with
 * the trigger's own code, answers 200, and reports each finding through `log`.
 */
export async function listen(options: { port: number; host?: string; secret: string; log: (line: string) => void }): Promise<Listener> {
	const answers: WebhookAnswers = { verified: 0, refused: 0, headerTimeZone: 'not seen', environmentInBody: 'not seen', resendKeepsDeliveryId: 'not seen' };
	const seen = new Map<string, unknown>();
	const server: Server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const raw = Buffer.concat(chunks);
			const header = (name: string) => String(req.headers[name] ?? '');
			if (!isValidSignature(options.secret, raw, req.headers['x-webhook-signature'] as string | undefined)) {
				answers.refused++;
				options.log(`refused a delivery: its signature does not match the signing secret (X-Webhook-Signature: ${header('x-webhook-signature') || 'absent'})`);
				res.writeHead(401).end();
				return;
			}
			answers.verified++;
			let body: Record<string, unknown> = {};
			try {
				body = JSON.parse(raw.toString('utf8'));
			} catch {
				options.log('a signed delivery whose body is not JSON');
			}
			answers.headerTimeZone = readHeaderClock(header('x-webhook-timestamp'));
			answers.environmentInBody = typeof body.environment === 'string';
			const { delivery_id: deliveryId, ...rest } = body;
			const key = JSON.stringify(rest);
			const line = [
				`delivery ${String(deliveryId)} (${header('x-webhook-event')}) verified`,
				`X-Webhook-Timestamp ${header('x-webhook-timestamp')} reads as ${answers.headerTimeZone}`,
				`environment in body: ${answers.environmentInBody ? String(body.environment) : 'no'}`,
			];
			if (seen.has(key)) {
				answers.resendKeepsDeliveryId = seen.get(key) === deliveryId;
				line.push(`a resend of delivery ${String(seen.get(key))}: ${answers.resendKeepsDeliveryId ? 'same delivery_id' : `new delivery_id ${String(deliveryId)}`}`);
			} else {
				seen.set(key, deliveryId);
			}
			options.log(line.join('; '));
			res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
		});
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(options.port, options.host ?? '0.0.0.0', () => resolve());
	});
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://${options.host ?? '127.0.0.1'}:${port}/`,
		answers: () => ({ ...answers }),
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

export function formatAnswers(a: WebhookAnswers): string {
	const yesNo = (v: boolean | 'not seen') => (v === 'not seen' ? 'not seen yet' : v ? 'yes' : 'no');
	return [
		`Deliveries verified: ${a.verified}, refused (bad signature): ${a.refused}`,
		`X-Webhook-Timestamp is read as:         ${a.headerTimeZone}`,
		`environment is in the body:             ${yesNo(a.environmentInBody)}`,
		`a resend keeps its delivery_id:         ${yesNo(a.resendKeepsDeliveryId)}${a.resendKeepsDeliveryId === 'not seen' ? ' (press Resend on a delivery in the panel)' : ''}`,
	].join('\n');
}
