/**
 * Duplicate fuzz, the event key: genuine events that a key of hand-picked fields would take for
 * one, each sent with retries (the same bytes, or the same event under a new delivery_id), shuffled,
 * up to 10 at a time. Two families: unreadable return receipts (file: null) of one order generated
 * at different times, and tracking updates that add an older record reported late while the
 * newest record stays the same (all generated in the same second, so only their data differs).
 *
 * Figures: genuine events dropped, retries run; both must be 0.
 */
import { randomUUID } from 'node:crypto';

import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { deliver, delivery, envelope } from '../trigger/support';
import { countRuns, freshId, inBatches, mulberry32, shuffled, type SuiteRow, type ReliabilitySuite } from './types';

const at = (day: number, minute: number) => `2026-11-${String(1 + day).padStart(2, '0')} ${String(8 + Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}:00`;

/** Unreadable return receipts of one order: one type, generated at distinct times (days apart or minutes). */
const receipts = fc
	.record({ rrType: fc.constantFrom('rr', 'rr_electronic'), times: fc.uniqueArray(fc.tuple(fc.nat(27), fc.nat(599)), { minLength: 2, maxLength: 4, selector: ([d, m]) => `${d}:${m}` }) })
	.map(({ rrType, times }) => (order: string) =>
		times.map(([day, minute]) =>
			envelope('rr.created', { id: order, type: 'letter', rr_type: rrType, tracking_code: `YA${order}BR`, file: null }, { timestamp: at(day, minute) }),
		),
	);

/** Tracking updates of one order, each adding a record older than the newest, all generated in one second. */
const lateRecords = fc
	.record({ base: fc.integer({ min: 1, max: 3 }), late: fc.uniqueArray(fc.integer({ min: 1, max: 500 }), { minLength: 1, maxLength: 3 }) })
	.map(({ base, late }) => (order: string) => {
		const record = (hour: number) => ({ codigo: `R${hour}`, dtHrCriado: `2026-11-20T${String(hour % 24).padStart(2, '0')}:00:00`, descricao: `event ${hour}`, unidade: { endereco: { cidade: 'Recife', uf: 'PE' } } });
		const newest = record(600);
		let records = Array.from({ length: base }, (_, i) => record(501 + i)).reverse();
		const updates = [[newest, ...records]];
		for (const hour of late) {
			records = [...records, record(hour)].sort((a, b) => Number(b.codigo.slice(1)) - Number(a.codigo.slice(1)));
			updates.push([newest, ...records]);
		}
		return updates.map((eventos) => {
			const data = { id: order, type: 'letter', tracking_code: `YA${order}BR`, tracking_records: { codObjeto: `YA${order}BR`, eventos }, status_delivery: '', updated_at: '2026-11-20 14:05:00' };
			return envelope('tracking.updated', data, { timestamp: '2026-11-20 14:05:00', event_detail_type: 'new_tracking_record' });
		});
	});

/** Genuine events of one order, given its id. */
type EventsOf = (order: string) => IDataObject[];

const FAMILIES: Array<{ name: string; events: fc.Arbitrary<EventsOf>; scenarios: number }> = [
	{ name: 'unreadable return receipts (file: null) of one order generated at different times', events: receipts, scenarios: 30 },
	{ name: 'tracking updates adding an older record reported late, the newest record unchanged', events: lateRecords, scenarios: 30 },
];

/** What tells one genuine event from another in an item: when it was generated, and its data. */
const eventOf = (json: IDataObject) => `${String(json.timestamp)}|${JSON.stringify(json.data)}`;

export const suite: ReliabilitySuite = {
	name: 'Duplicate fuzz',
	async run(context) {
		const rows: SuiteRow[] = [];
		for (const [index, family] of FAMILIES.entries()) {
			const scenarios = fc.sample(fc.record({ orders: fc.array(family.events, { minLength: 1, maxLength: 5 }), prng: fc.integer() }), {
				seed: context.seed + 200 + index,
				numRuns: Math.max(1, Math.round(family.scenarios * context.scale)),
			});
			let events = 0;
			let attempts = 0;
			let executions = 0;
			let dropped = 0;
			let retriesRun = 0;
			for (const { orders, prng } of scenarios) {
				const random = mulberry32(prng);
				const workflowId = randomUUID();
				const genuine = orders.flatMap((eventsOf, n) => eventsOf(String(900 + n)).map((envelope) => ({ envelope, id: freshId() })));
				// Each event once, and up to three retries: the same bytes, or the same event under a new delivery_id.
				const sends = genuine.flatMap((event) => Array.from({ length: 1 + Math.floor(random() * 4) }, (_, n) => ({ event, deliveryId: n > 0 && random() < 0.5 ? freshId() : event.id })));
				const runs = new Map<string, number>();
				await inBatches(shuffled(sends, random), random, async ({ event, deliveryId }) => {
					const result = await deliver(delivery(event.envelope, { deliveryId }), { workflowId });
					attempts++;
					if (result.started) executions++;
					for (const item of result.after) runs.set(eventOf(item.json), (runs.get(eventOf(item.json)) ?? 0) + 1);
				});
				const counted = countRuns(genuine.map(({ envelope }) => eventOf(envelope)), runs);
				events += genuine.length;
				dropped += counted.lost;
				retriesRun += counted.twice;
			}
			rows.push({
				case: `event key: ${family.name}, each with retries under the same and a new delivery_id`,
				runs: attempts,
				measure: 'genuine events dropped; retries run',
				bad: dropped + retriesRun,
				note: `${events} genuine events, ${executions} executions, ${dropped} dropped, ${retriesRun} retries run`,
			});
		}
		return rows;
	},
};
