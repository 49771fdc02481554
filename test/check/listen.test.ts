import { DateTime } from 'luxon';
import { afterEach, describe, expect, it } from 'vitest';

import { signBody } from '../../nodes/PostalServiceTrigger/verification';
import { startSandbox, type Sandbox } from '../../sandbox';
import { listen, type Listener } from '../../scripts/check-service/listen';

const SECRET = 'listen-secret';
const open: Array<Sandbox | Listener> = [];
afterEach(async () => {
	while (open.length > 0) {
		const item = open.pop()!;
		await ('stop' in item ? item.stop() : item.close());
	}
});

async function listener(): Promise<{ url: string; listener: Listener; lines: string[] }> {
	const lines: string[] = [];
	const l = await listen({ port: 0, host: '127.0.0.1', secret: SECRET, log: (line) => lines.push(line) });
	open.push(l);
	return { url: l.url, listener: l, lines };
}

const wall = (zone: string, minutesAgo = 0) => DateTime.now().minus({ minutes: minutesAgo }).setZone(zone).toFormat('yyyy-MM-dd HH:mm:ss');

describe('check-service --listen', () => {
	it('answers the three questions from the sandbox: São Paulo header, environment in the body, a resend keeps its delivery_id', async () => {
		const sandbox = await startSandbox({ port: 0, quiet: true, webhookSecret: SECRET });
		open.push(sandbox);
		const { url, listener: l, lines } = await listener();
		const endpoint = sandbox.control.registerWebhook({ url });
		const test = sandbox.control.sendTestEvent(endpoint.id);
		await sandbox.control.waitForDeliveries((all) => all[0]?.state === 'delivered');
		await sandbox.control.resendDelivery(test.deliveryId);
		expect(l.answers()).toEqual({ verified: 2, refused: 0, headerTimeZone: 'America/Sao_Paulo', environmentInBody: true, resendKeepsDeliveryId: true });
		expect(lines[1]).toMatch(/a resend of delivery 1: same delivery_id/);
	});

	it('and the other answers from a service that reads otherwise, a header of neither clock; a bad signature is refused and counted', async () => {
		const { url, listener: l, lines } = await listener();
		const post = (body: string, headers: Record<string, string>) =>
			fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json', 'x-webhook-timestamp': wall('UTC'), ...headers } });
		const event = (id: number) => JSON.stringify({ event: 'webhook.test', timestamp: '2026-01-01 10:00:00', webhook_id: 1, delivery_id: id, data: { message: 'x' } });
		expect((await post(event(7), { 'x-webhook-signature': signBody(SECRET, event(7)) })).status).toBe(200);
		expect((await post(event(8), { 'x-webhook-signature': signBody(SECRET, event(8)) })).status).toBe(200);
		expect((await post(event(9), { 'x-webhook-signature': signBody('another secret', event(9)) })).status).toBe(401);
		expect(l.answers()).toEqual({ verified: 2, refused: 1, headerTimeZone: 'UTC', environmentInBody: false, resendKeepsDeliveryId: false });
		expect(lines.join('\n')).toMatch(/a resend of delivery 7: new delivery_id 8/);
		// A header an hour away from now under both readings follows neither clock.
		await post(event(10), { 'x-webhook-signature': signBody(SECRET, event(10)), 'x-webhook-timestamp': wall('UTC', 60) });
		expect(l.answers().headerTimeZone).toBe('neither');
	});
});
