/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
/**
 * Duplicate fuzz, n8n's processed-data store failing: one delivery whose first attempt meets
 * failures of the store at every call the trigger makes for it (before or after the call's write
 * lands; one, two or three calls in a row; every call), answered as n8n answers (once the execution
 * is stored: the one answer point). Then what follows in life: the service retries when the answer
 * was lost on the way (as the same bytes or under a new delivery_id), and a resend from the panel
 * comes later, of it and of an earlier delivery whose own check had failed, once the store is back.
 *
 * Figures: deliveries lost after a 2xx, lost, run twice (within one process); all must be 0.
 */
import { randomUUID } from 'node:crypto';

import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';

import { processedData } from '../harness/engine';
import type { StoreFault } from '../harness/processedData.cjs';
import { deliver, statusDelivery } from '../trigger/support';
import { freshId, type SuiteRow, type ReliabilitySuite } from './types';

/** Failure patterns of the store: which calls of the first attempt fail, counted from `step`. */
const FAULT_PATTERNS: Array<{ name: string; calls: (step: number) => number[] }> = [
	{ name: 'one call', calls: (step) => [step] },
	{ name: 'two calls in a row', calls: (step) => [step, step + 1] },
	{ name: 'three calls in a row', calls: (step) => [step, step + 1, step + 2] },
	{ name: 'every call (store down)', calls: () => Array.from({ length: 40 }, (_, i) => i) },
];

interface Case {
	/** An earlier delivery of the node makes the store's row exist. */
	rowExists: boolean;
	/** An earlier delivery ran while the store failed, so its keys wait to be written. */
	earlierUnwritten: boolean;
	/** The 200 of the first attempt is lost on the way: the service retries (three times at most). */
	answerLost: boolean;
	/** The service's retries and the panel's resend carry a new delivery_id. */
	renumbered: boolean;
}

const CASES: Case[] = [false, true].flatMap((rowExists) =>
	[false, true].flatMap((earlierUnwritten) =>
		[false, true].flatMap((answerLost) => [false, true].map((renumbered) => ({ rowExists, earlierUnwritten, answerLost, renumbered }))),
	),
);

/** `warnings`: what the trigger logged about the store (one per failed check is expected). */
const newTally = () => ({ cases: 0, attempts: 0, lostAfter2xx: 0, lost: 0, twice: 0, failedExecutions: 0, warnings: 0 });
type Tally = ReturnType<typeof newTally>;

/** Runs one case; resolves with how many store calls its first attempt made. */
async function runCase(faults: StoreFault[], options: Case, tally: Tally): Promise<number> {
	const workflowId = randomUUID();
	/** Per delivery (by the id of its first attempt): runs after the trigger, and whether n8n ever answered it 2xx. */
	const deliveries = new Map<string, { runs: number; answered: boolean }>();
	const send = async (id: string, deliveryId = id): Promise<boolean> => {
		const result = await deliver(statusDelivery('production', id, deliveryId), { workflowId, parameters: { environment: 'both' } });
		tally.attempts++;
		if (result.run?.error !== undefined) tally.failedExecutions++;
		const ok = result.response.ended && result.response.statusCode >= 200 && result.response.statusCode < 300;
		const seen = deliveries.get(id) ?? { runs: 0, answered: false };
		deliveries.set(id, { runs: seen.runs + result.after.length, answered: seen.answered || ok });
		return ok;
	};
	if (options.rowExists) await send(freshId());
	const earlier = freshId();
	if (options.earlierUnwritten) {
		processedData.failCalls(workflowId, [{ call: 0, when: 'before' }]);
		await send(earlier);
	}
	const id = freshId();
	processedData.failCalls(workflowId, faults);
	let answered = (await send(id)) && !options.answerLost;
	const firstAttemptCalls = processedData.callsSinceFaults(workflowId);
	processedData.failCalls(workflowId, []);
	const again = () => (options.renumbered ? freshId() : id);
	for (let retry = 0; !answered && retry < 3; retry++) answered = await send(id, again());
	// Later, from the panel: this delivery, and the earlier one.
	await send(id, again());
	if (options.earlierUnwritten) await send(earlier);
	tally.cases++;
	for (const { runs, answered: got2xx } of deliveries.values()) {
		if (runs === 0) tally.lost++;
		if (runs === 0 && got2xx) tally.lostAfter2xx++;
		if (runs > 1) tally.twice += runs - 1;
	}
	return firstAttemptCalls;
}

export const suite: ReliabilitySuite = {
	name: 'Duplicate fuzz',
	async run(context) {
		const rows: SuiteRow[] = [];
		// Counted instead of printed, one line per failed check.
		const logger = Container.get(Logger);
		const warn = logger.warn.bind(logger);
		let warnings = 0;
		logger.warn = (message: string) => void (message.includes('processed-data store failed') ? warnings++ : warn(message));
		// The steps come from what the trigger does: a call it adds is a step the faults are tried at.
		const steps = new Map<Case, number>();
		for (const options of CASES) {
			const clean = newTally();
			steps.set(options, await runCase([], options, clean));
			if (clean.lost + clean.twice + clean.failedExecutions > 0) throw new Error(`without store faults: ${JSON.stringify({ options, clean })}`);
		}
		warnings = 0;
		for (const pattern of FAULT_PATTERNS) {
			const tally = newTally();
			for (const options of CASES) {
				const calls = pattern.name.startsWith('every') ? 1 : steps.get(options)!;
				for (let step = 0; step < calls; step++) {
					for (const when of ['before', 'after'] as const) {
						await runCase(pattern.calls(step).map((call) => ({ call, when })), options, tally);
					}
				}
			}
			tally.warnings = warnings;
			warnings = 0;
			rows.push({
				case: `store fails ${pattern.name} at each step of the trigger's check (before or after its write), n8n answering once the execution is stored`,
				runs: tally.attempts,
				measure: 'deliveries lost after a 2xx; lost; run twice',
				bad: tally.lostAfter2xx + tally.lost + tally.twice + tally.failedExecutions,
				note: `${tally.cases} cases, ${tally.failedExecutions} executions failed, ${tally.lostAfter2xx} lost after 2xx, ${tally.lost} lost, ${tally.twice} twice; ${tally.warnings} warnings logged`,
			});
		}
		logger.warn = warn;
		context.log(`store faults: tried at each call of a first attempt (${[...new Set(steps.values())].join(' or ')} calls without a fault)`);
		return rows;
	},
};
