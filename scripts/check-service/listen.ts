/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { isValidSignature, timestampReading } from '../../nodes/PostalServiceTrigger/verification';

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
			// The zone the trigger's own reading takes, when that puts the header within five minutes of now.
			const reading = timestampReading(header('x-webhook-timestamp'));
			answers.headerTimeZone = reading && Math.abs(reading.ageSeconds) < 300 ? reading.zone : 'neither';
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
