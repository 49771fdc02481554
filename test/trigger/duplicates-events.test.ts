/**
 * The event key: a delivery whose signed body, delivery_id aside, already ran is a retry of that
 * event, whatever its delivery_id. The body's timestamp is when the event was generated, so a retry
 * repeats it and its data, and two genuine events differ in one of them: none is dropped.
 */
import { randomUUID } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { deliver, delivery, envelope, SECRET, sign } from './support';

let nextOrder = 7_000_000;
let nextDelivery = 90_000_000;

/** Delivers the bodies one after the other to one workflow; how many items ran after the trigger for each. */
async function runsAfter(bodies: Array<IDataObject | Buffer>): Promise<number[]> {
	const workflowId = randomUUID();
	const runs: number[] = [];
	for (const body of bodies) {
		const request = delivery(body);
		if (Buffer.isBuffer(body)) request.headers['x-webhook-signature'] = sign(body, SECRET);
		const outcome = await deliver(request, { workflowId });
		expect(outcome.status).toBe(200);
		runs.push(outcome.after.length);
	}
	return runs;
}

/** The same event again under a delivery_id of its own, as a service that numbers each attempt anew sends it. */
const renumbered = (body: IDataObject): IDataObject => ({ ...body, delivery_id: nextDelivery++ });

const unreadableReceipt = (id: string, generated: string) =>
	envelope('rr.created', { id, type: 'letter', rr_type: 'rr', tracking_code: 'YA3BR', file: null }, { timestamp: generated });

const record = (codigo: string, at: string) => ({ codigo, dtHrCriado: at, descricao: codigo, unidade: { endereco: { cidade: 'Recife', uf: 'PE' } } });
const tracking = (id: string, records: object[], generated: string) =>
	envelope(
		'tracking.updated',
		{ id, type: 'letter', tracking_code: 'YA4BR', tracking_records: { codObjeto: 'YA4BR', eventos: records }, status_delivery: '', updated_at: generated },
		{ event_detail_type: 'new_tracking_record', timestamp: generated },
	);

describe('the event key: genuine events run, retries do not', () => {
	it('runs two unreadable return receipts (file: null) of one type on one order, generated days apart', async () => {
		const id = String(nextOrder++);
		const first = unreadableReceipt(id, '2026-11-20 10:00:00');
		const second = unreadableReceipt(id, '2026-11-23 16:30:00');
		expect(await runsAfter([first, second, renumbered(first), renumbered(second), second])).toEqual([1, 1, 0, 0, 0]);
	});

	it('runs a tracking update that adds an older record reported late, the newest record unchanged', async () => {
		const id = String(nextOrder++);
		const newest = record('OEC', '2026-11-20T14:00:00');
		const first = tracking(id, [newest, record('RO', '2026-11-19T09:00:00')], '2026-11-20 14:05:00');
		const late = tracking(id, [newest, record('DO', '2026-11-19T18:00:00'), record('RO', '2026-11-19T09:00:00')], '2026-11-20 14:05:00');
		expect(await runsAfter([first, late, renumbered(late), renumbered(first)])).toEqual([1, 1, 0, 0]);
	});

	it('drops a retry the service serialized again (other key order and spacing) under a new delivery_id', async () => {
		const body = tracking(String(nextOrder++), [record('PO', '2026-11-20T10:00:00')], '2026-11-20 10:01:00');
		const again = Buffer.from(JSON.stringify(Object.fromEntries(Object.entries(renumbered(body)).reverse()), null, 2));
		expect(await runsAfter([body, again])).toEqual([1, 0]);
	});

	it('tells apart events that differ only in a number beyond what a JavaScript number holds', async () => {
		const id = String(nextOrder++);
		const text = (value: string) =>
			Buffer.from(
				JSON.stringify(envelope('order.created', { id, type: 'letter', status: 0, value: 0 }, { timestamp: '2026-11-20 10:00:00' })).replace('"value":0', `"value":${value}`),
			);
		// Each pair is one number to JSON.parse.
		expect(JSON.parse('9007199254740993')).toBe(JSON.parse('9007199254740992'));
		expect(JSON.parse('0.10000000000000000001')).toBe(JSON.parse('0.1'));
		const bodies = [text('9007199254740993'), text('9007199254740992'), text('0.10000000000000000001'), text('0.1')];
		expect(await runsAfter(bodies)).toEqual([1, 1, 1, 1]);
	});
});
