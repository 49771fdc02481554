/**
 * Where the service's interface is silent, the trigger holds under every reasonable reading: a
 * retry numbered anew, X-Webhook-Timestamp in São Paulo time or in UTC, a body without
 * `environment`. And the items say what the service's codes mean.
 */
import { randomUUID } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { deliver, delivery, envelope, serviceTime } from './support';

let nextOrder = 5_000_000;
const orderId = () => String(nextOrder++);

const statusUpdate = (id: string, from: number, to: number, updatedAt = serviceTime()) =>
	envelope('order.status_updated', { id, type: 'letter', status: { old: from, new: to }, updated_at: updatedAt, tracking: '', files: [] });

/** Delivers the bodies one after the other to one workflow; how many items ran after the trigger for each. */
async function runsAfter(bodies: IDataObject[]): Promise<number[]> {
	const workflowId = randomUUID();
	const runs: number[] = [];
	for (const body of bodies) {
		const outcome = await deliver(delivery(body), { workflowId });
		expect(outcome.status).toBe(200);
		runs.push(outcome.after.length);
	}
	return runs;
}

// A retry under a new delivery_id, for every event kind and across processes, is the duplicate
// fuzz's family (test/reliability/duplicates.suite.ts); test events and the option off are
// duplicates-execution.test.ts's. Here genuine events that repeat an earlier state.
describe('readings: a retry under a new delivery_id', () => {
	it('runs a status that comes back later (3 -> 4 -> 3), and new tracking events, as the events they are', async () => {
		const id = orderId();
		const track = (codigo: string, at: string) =>
			envelope(
				'tracking.updated',
				{ id, type: 'letter', tracking_code: 'YA2BR', tracking_records: { codObjeto: 'YA2BR', eventos: [{ codigo, dtHrCriado: at }] }, status_delivery: '', updated_at: serviceTime() },
				{ event_detail_type: 'new_tracking_record' },
			);
		const bodies = [
			statusUpdate(id, 3, 4, '2026-11-20 10:00:00'),
			statusUpdate(id, 4, 3, '2026-11-20 10:05:00'),
			statusUpdate(id, 3, 4, '2026-11-20 10:10:00'),
			track('PO', '2026-11-20T10:00:00'),
			track('RO', '2026-11-20T11:00:00'),
			envelope('rr.created', { id, type: 'letter', rr_type: 'rr', file: null }),
			envelope('rr.created', { id, type: 'letter', rr_type: 'rr_electronic', file: null }),
		];
		expect(await runsAfter(bodies)).toEqual([1, 1, 1, 1, 1, 1, 1]);
	});
});

describe('readings: the time zone of X-Webhook-Timestamp', () => {
	const parameters = { options: { maxAgeSeconds: 300 } };
	const utcNow = (offsetSeconds = 0) => new Date(Date.now() + offsetSeconds * 1000).toISOString().slice(0, 19).replace('T', ' ');
	const at = (header: string) => {
		const request = delivery(statusUpdate(orderId(), 0, 1));
		request.headers['x-webhook-timestamp'] = header;
		return request;
	};

	it('accepts a header written in São Paulo time and one written in UTC, and says which one it read', async () => {
		const saoPaulo = await deliver(at(serviceTime(-100)), { parameters });
		const utc = await deliver(at(utcNow(-100)), { parameters });
		expect([saoPaulo.status, utc.status]).toEqual([200, 200]);
		expect(saoPaulo.items.map((item) => item.json.timestampHeaderZone)).toEqual(['America/Sao_Paulo']);
		expect(utc.items.map((item) => item.json.timestampHeaderZone)).toEqual(['UTC']);
	});

	it('refuses a header too old or too far ahead under both readings', async () => {
		for (const header of [serviceTime(-600), utcNow(-600), serviceTime(600), utcNow(600)]) {
			const outcome = await deliver(at(header), { parameters });
			expect(outcome.status, header).toBe(401);
			expect(outcome.run).toBeUndefined();
		}
	});
});

// The environment read from the signed body only, whatever X-Webhook-Environment says, is the duplicate
// fuzz's family of bodies and headers (test/reliability/duplicates.suite.ts).

describe('readings: status texts next to the codes', () => {
	it('adds what a status means next to the service’s own codes, for letters and registered e-mail', async () => {
		const letter = statusUpdate(orderId(), 3, 4);
		const email = envelope('order.status_updated', { id: orderId(), type: 'email', status: { old: 1, new: 3 }, updated_at: serviceTime(), opened: false });
		const created = envelope('order.created', { id: orderId(), type: 'letter', status: 0, created_at: serviceTime() });
		const unknownCode = statusUpdate(orderId(), 6, 9);
		const data = async (body: IDataObject) => (await deliver(delivery(body))).items[0].json.data as IDataObject;
		expect(await data(letter)).toMatchObject({ status: { old: 3, new: 4 }, statusText: { old: 'Printed', new: 'Posted' } });
		expect(await data(email)).toMatchObject({ status: { old: 1, new: 3 }, statusText: { old: 'Paid, awaiting send', new: 'Sent' } });
		expect(await data(created)).toMatchObject({ status: 0, statusText: 'Processing' });
		expect(await data(unknownCode)).toMatchObject({ status: { old: 6, new: 9 }, statusText: { old: 'Returned' } });
	});
});

describe('readings: a delivery from the other environment while the editor listens', () => {
	it('shows it in a test execution, saying why the active workflow drops it, and still answers 200', async () => {
		const homolog = { ...statusUpdate(orderId(), 0, 1), environment: 'homolog' };
		const parameters = { environment: 'production' };
		const test = await deliver(delivery(homolog), { parameters, mode: 'manual' });
		expect(test.status).toBe(200);
		expect(test.items).toHaveLength(1);
		expect(test.items[0].json.notTakenWhenActive).toMatch(/environment homolog .*Environment: production.*active workflow answers 200 and drops it/);
		const active = await deliver(delivery(homolog), { parameters });
		expect(active.status).toBe(200);
		expect(active.run).toBeUndefined();
		const taken = await deliver(delivery(homolog), { parameters: { environment: 'both' }, mode: 'manual' });
		expect(taken.items[0].json.notTakenWhenActive).toBeUndefined();
	});
});
