/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
/**
 * Batch Interval: "no more than Items per Batch requests start within any interval", whatever phase
 * a request belongs to. Every setting that makes more than one request per item × Items per Batch ×
 * Batch Interval, the starts read at the sandbox. Figure: intervals holding more starts than Items
 * per Batch. A start is seen when its headers reach the sandbox, which can come later than the node
 * sent them on a loaded machine: an interval counts as half as long, so that such a delay is not
 * taken for a burst, which starts within milliseconds.
 *
 * A run that has stopped starts nothing: each way a run stops (a refusal in the check pass, of a
 * price before its send, of a send, of a read, of a read while others wait to repeat theirs) × Items
 * per Batch 1–3 × a Batch Interval far longer than a request. The refusal is the last request of the
 * first interval, so every request that belongs to the run starts within that interval. Figure:
 * requests that started in a later interval, that is after the run had stopped.
 */
import type { IDataObject } from 'n8n-workflow';

import { credentialsAt } from '../harness/sends';
import { runAction, type SuiteRow, type ReliabilitySuite, type SuiteContext } from './types';

const TOKEN = 'pacing-token-51c2';
const SIZES = [1, 2];
/** The bound is relative to the interval: one length far above a request's own time suffices. */
const INTERVALS = [500];
const ITEMS = 3;
const SLACK = 0.5;
const STOP_SIZES = [1, 2, 3];
const STOP_INTERVAL = 2000;

export const suite: ReliabilitySuite = {
	name: 'Batch Interval',
	async run(context: SuiteContext): Promise<SuiteRow[]> {
		const { LETTER, makePdf } = await import('../harness/sends');
		const sandbox = await context.sandbox({ token: TOKEN });
		const credentials = credentialsAt(sandbox.baseUrl, TOKEN);
		const pdf = await makePdf(1);
		const letters = (count = ITEMS) => Array.from({ length: count }, (_, i) => ({ json: { i }, binary: { data: { data: pdf, fileName: 'carta.pdf', mimeType: 'application/pdf' } } }));

		/** What makes more than one request per item. */
		const SETTINGS: Array<{ name: string; parameters: IDataObject; items: () => Promise<Array<{ json: IDataObject; binary?: never }>> | unknown[] ; before?: () => void }> = [
			{ name: 'Letter > Send, Check With the Service First: Always', parameters: { ...LETTER, additionalFields: { checkWithService: 'always' } }, items: letters },
			{ name: 'Letter > Send, Maximum Price with Check: Never (a price, then the send, in one slot)', parameters: { ...LETTER, additionalFields: { checkWithService: 'never', maxPrice: 1000 } }, items: letters },
			{ name: 'Letter > Send, Maximum Price with Check: Auto', parameters: { ...LETTER, additionalFields: { maxPrice: 1000 } }, items: letters },
			{
				name: 'Letter > Get, each read tried again after a 500',
				parameters: { resource: 'order', operation: 'get', orderId: '={{ $json.id }}' },
				items: () => sandbox.control.orders().slice(0, ITEMS).map((o) => ({ json: { id: o.id } })),
				before: () => sandbox.control.injectFault({ method: 'GET', path: '/api/v2/get/', kind: '500', count: ITEMS }),
			},
		];

		const get = { resource: 'order', operation: 'get', orderId: '={{ $json.id }}' };
		const reads = (count: number) => sandbox.control.orders().slice(0, count).map((o) => ({ json: { id: o.id } }));
		const refused = (method: string, path: string) => (n: number) => [{ method, path, kind: '429', skip: n - 1 }];
		/** Each way a run stops: the settings, and the faults that make the size-th request of the first interval its refusal. */
		const STOPS: Array<{ name: string; parameters: IDataObject; items: (count: number) => unknown; faults: (size: number) => IDataObject[] }> = [
			{ name: 'a check refused (Check With the Service First: Always)', parameters: SETTINGS[0].parameters, items: letters, faults: refused('POST', '/api/v2/post') },
			{ name: 'a price refused, sends waiting behind prices (Maximum Price, Check: Never)', parameters: SETTINGS[1].parameters, items: letters, faults: refused('POST', '/api/v2/post') },
			{ name: 'a send refused (Check: Never)', parameters: { ...LETTER, additionalFields: { checkWithService: 'never' } }, items: letters, faults: refused('POST', '/api/v2/post') },
			{ name: 'a read refused (Letter > Get)', parameters: get, items: reads, faults: refused('GET', '/api/v2/get/') },
			{
				name: 'a read refused while the others wait to repeat theirs after a 500 (Letter > Get)',
				parameters: get,
				items: reads,
				faults: (n) => [...(n > 1 ? [{ method: 'GET', path: '/api/v2/get/', kind: '500', count: n - 1 }] : []), { method: 'GET', path: '/api/v2/get/', kind: '429' }],
			},
		];

		const rows: SuiteRow[] = [];
		for (const stop of STOPS) {
			let late = 0;
			let requests = 0;
			let stopped = 0;
			for (const size of STOP_SIZES) {
				// Twice Items per Batch: the window frees slots for new items while the refusal is under way.
				const items = await stop.items(2 * size);
				sandbox.control.clearRequests();
				for (const fault of stop.faults(size)) sandbox.control.injectFault(fault as never);
				const batching = { batch: { batchSize: size, batchInterval: STOP_INTERVAL } };
				const result = await runAction({ ...stop.parameters, options: { batching } }, { items: items as never, credentials });
				if (result.error) stopped++;
				const starts = sandbox.control.requests().map((r) => Date.parse(r.at)).sort((a, b) => a - b);
				requests += starts.length;
				const after = starts.filter((at) => at - starts[0] >= STOP_INTERVAL * SLACK).length;
				if (after > 0) context.log(`${stop.name}, ${size} per batch: ${after} request(s) started after the run stopped`);
				late += after;
			}
			rows.push({
				case: `a run that stops, ${stop.name}: Items per Batch ${STOP_SIZES.join(', ')} × Batch Interval ${STOP_INTERVAL} ms`,
				runs: STOP_SIZES.length,
				measure: 'requests started after the run stopped (runs that did not stop count too)',
				bad: late + (STOP_SIZES.length - stopped),
				note: `${requests} requests, ${late} of them after the stop`,
			});
		}

		for (const setting of SETTINGS) {
			let cells = 0;
			let bad = 0;
			let requests = 0;
			let tightest = Number.POSITIVE_INFINITY;
			for (const size of SIZES) {
				for (const interval of INTERVALS) {
					const items = await setting.items();
					sandbox.control.clearRequests();
					setting.before?.();
					const batching = { batch: { batchSize: size, batchInterval: interval } };
					await runAction({ ...setting.parameters, options: { batching } }, { items: items as never, credentials, continueOnFail: true });
					cells++;
					const starts = sandbox.control.requests().map((r) => Date.parse(r.at)).sort((a, b) => a - b);
					requests += starts.length;
					for (let k = 0; k + size < starts.length; k++) {
						const gap = starts[k + size] - starts[k];
						tightest = Math.min(tightest, gap / interval);
						if (gap < interval * SLACK) {
							bad++;
							context.log(`${setting.name}, ${size} per batch, ${interval} ms: requests ${k + 1} and ${k + size + 1} started ${gap} ms apart`);
						}
					}
				}
			}
			rows.push({
				case: `${setting.name}: Items per Batch ${SIZES.join(' or ')} × Batch Interval ${INTERVALS.join(' or ')} ms, ${ITEMS} items`,
				runs: cells,
				measure: 'intervals holding more request starts than Items per Batch',
				bad,
				note: `${requests} requests; the closest starts Items per Batch apart: ${tightest.toFixed(2)} × the interval`,
			});
		}
		return rows;
	},
};
