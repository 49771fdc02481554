import type { AssumptionKey } from './assumptions';

export type Verdict = 'holds' | 'differs' | 'cannot tell';

/** One line of the report: a guess of assumptions.ts, or a statement the interface makes. */
export interface Finding {
	kind: 'assumption' | 'statement';
	/** For an assumption, its key in ASSUMED; for a statement, what the interface says. */
	subject: string;
	key?: AssumptionKey;
	verdict: Verdict;
	/** What the service answered (token hidden), or why the check cannot tell. */
	evidence: string;
}

export class Findings {
	readonly list: Finding[] = [];

	/** `redact` hides the token in whatever an answer put into the evidence, before it is kept. */
	constructor(private readonly redact: (text: string) => string = (text) => text) {}

	assumption(key: AssumptionKey, verdict: Verdict, evidence: string, detail?: string): void {
		this.list.push({ kind: 'assumption', subject: detail ? `${key}.${detail}` : key, key, verdict, evidence: this.redact(evidence) });
	}

	statement(subject: string, agrees: boolean | null, evidence: string): void {
		const verdict: Verdict = agrees === null ? 'cannot tell' : agrees ? 'holds' : 'differs';
		this.list.push({ kind: 'statement', subject, verdict, evidence: this.redact(evidence) });
	}
}

/** The table `check-service` prints: one row per finding, assumptions first. */
export function formatTable(findings: Finding[]): string {
	const label = (f: Finding) =>
		f.kind === 'statement' ? { holds: 'agrees', differs: 'DISAGREES', 'cannot tell': 'cannot tell' }[f.verdict] : f.verdict === 'differs' ? 'DIFFERS' : f.verdict;
	const sections: Array<[string, Finding[]]> = [
		['Assumptions (nodes/PostalService/contract/assumptions.ts)', findings.filter((f) => f.kind === 'assumption')],
		['What the interface states', findings.filter((f) => f.kind === 'statement')],
	];
	const lines: string[] = [];
	for (const [title, rows] of sections) {
		const width = Math.max(...rows.map((f) => f.subject.length), 10);
		lines.push(title);
		for (const f of rows) lines.push(`  ${f.subject.padEnd(width)}  ${label(f).padEnd(11)}  ${f.evidence}`);
		lines.push('');
	}
	const count = (kind: Finding['kind'], verdict: Verdict) => findings.filter((f) => f.kind === kind && f.verdict === verdict).length;
	lines.push(
		`Assumptions: ${count('assumption', 'holds')} hold, ${count('assumption', 'differs')} differ, ${count('assumption', 'cannot tell')} cannot be told from here. ` +
			`Statements: ${count('statement', 'holds')} agree, ${count('statement', 'differs')} disagree, ${count('statement', 'cannot tell')} cannot be told.`,
	);
	return lines.join('\n');
}
