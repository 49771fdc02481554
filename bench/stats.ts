/** Medians and spreads of small samples (a handful of interleaved rounds). */
export interface Spread {
	median: number;
	p25: number;
	p75: number;
	min: number;
	max: number;
	n: number;
}

/** Linear interpolation between the closest ranks of sorted values. */
function quantile(sorted: number[], q: number): number {
	const position = (sorted.length - 1) * q;
	const [low, high] = [Math.floor(position), Math.ceil(position)];
	return sorted[low] + (sorted[high] - sorted[low]) * (position - low);
}

export function spread(values: number[]): Spread {
	const sorted = [...values].sort((a, b) => a - b);
	const [median, p25, p75] = [0.5, 0.25, 0.75].map((q) => quantile(sorted, q));
	return { median, p25, p75, min: sorted[0], max: sorted[sorted.length - 1], n: values.length };
}

export const round = (value: number, digits = 2) => Number(value.toFixed(digits));

export function roundSpread(s: Spread, digits = 2): Spread {
	return { median: round(s.median, digits), p25: round(s.p25, digits), p75: round(s.p75, digits), min: round(s.min, digits), max: round(s.max, digits), n: s.n };
}

/** A ratio the table prints: the subject's figure over the baseline's, round by round, and the goal it is held to. */
export interface ComparisonSpec {
	label: string;
	subject: string;
	/** A contender id (in the engine part, also `ideal`: items ÷ 50 × the server's latency). */
	baseline: string;
	goal?: { max: number; text: string };
}

export const goal = (max: number) => ({ max, text: `≤ ${max}×` });

/** The ratios of one comparison, one per round: their median and range, and whether the goal is met. */
export function compare<C extends ComparisonSpec>(comparison: C, ratios: number[]) {
	const ratio = roundSpread(spread(ratios), 2);
	return { ...comparison, ratio, met: comparison.goal ? ratio.median <= comparison.goal.max : undefined };
}

/**
 * Runs every contender once per round, in one process or against one server, each round starting
 * with another contender so that none is always first after a pause; `done` hears each finished round.
 */
export async function interleave<T>(ids: string[], rounds: number, run: (id: string) => Promise<T>, done: (round: number, samples: Array<[string, T]>) => void) {
	const samples: Record<string, T[]> = Object.fromEntries(ids.map((id) => [id, []]));
	for (let round = 0; round < rounds; round++) {
		const finished: Array<[string, T]> = [];
		for (const id of ids.map((_, i) => ids[(i + round) % ids.length])) {
			const sample = await run(id);
			samples[id].push(sample);
			finished.push([id, sample]);
		}
		done(round, finished);
	}
	return samples;
}
