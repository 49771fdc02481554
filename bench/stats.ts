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
