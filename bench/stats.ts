/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
/** Medians and spreads of small samples (a handful of interleaved rounds), and the machine's load beside them. */
import { loadavg } from 'node:os';

/** The one-minute load average, printed beside figures that the machine's other work moves. */
export const loadAverage = () => Number(loadavg()[0].toFixed(2));

export interface Spread {
	median: number;
	p25: number;
	p75: number;
	min: number;
	max: number;
	n: number;
}

/** Linear interpolation between the closest ranks. */
export function quantile(values: number[], q: number): number {
	if (values.length === 0) return NaN;
	const sorted = [...values].sort((a, b) => a - b);
	const position = (sorted.length - 1) * q;
	const low = Math.floor(position);
	const high = Math.ceil(position);
	return sorted[low] + (sorted[high] - sorted[low]) * (position - low);
}

export function spread(values: number[]): Spread {
	return {
		median: quantile(values, 0.5),
		p25: quantile(values, 0.25),
		p75: quantile(values, 0.75),
		min: Math.min(...values),
		max: Math.max(...values),
		n: values.length,
	};
}

export const round = (value: number, digits = 2) => Number(value.toFixed(digits));

export function roundSpread(s: Spread, digits = 2): Spread {
	return { median: round(s.median, digits), p25: round(s.p25, digits), p75: round(s.p75, digits), min: round(s.min, digits), max: round(s.max, digits), n: s.n };
}
