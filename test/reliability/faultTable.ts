/**
 * The fault matrix's faults (each sandbox fault, and each answer of a proxy in front of the service
 * after it passed the request on) and what an error must say after one.
 */
import { BARE, type ProxyAnswer } from './foreignProxy';

export interface Fault {
	kind: string;
	/** The service may have acted on the request: an error must say it was not sent again. */
	unclear: boolean;
	delayMs?: number;
	/** The node's Timeout for the run. */
	timeout: number;
	/** Answered by a proxy in front of the service, after it passed the request on. */
	proxy?: ProxyAnswer;
}

export const FAULTS: Record<string, Fault> = {
	'500': { kind: '500', unclear: true, timeout: 5000 },
	'503': { kind: '503', unclear: false, timeout: 5000 },
	'429': { kind: '429', unclear: false, timeout: 5000 },
	drop: { kind: 'drop', unclear: true, timeout: 5000 },
	dropAfterAccept: { kind: 'dropAfterAccept', unclear: true, timeout: 5000 },
	slow: { kind: 'slow', unclear: true, delayMs: 600, timeout: 300 },
	trickle: { kind: 'trickle', unclear: true, delayMs: 100, timeout: 300 },
	redirect: { kind: 'redirect', unclear: true, timeout: 5000 },
	html: { kind: 'html', unclear: true, timeout: 5000 },
	empty: { kind: 'empty', unclear: true, timeout: 5000 },
	// A proxy or load balancer in front of the service answers for it after the service did the work.
	...Object.fromEntries(
		Object.entries(BARE).map(([name, answer]) => [`proxy ${name}`, { kind: 'proxy', unclear: true, timeout: 5000, proxy: { kind: 'replace', ...answer } as ProxyAnswer }]),
	),
	'proxy reset after the body': { kind: 'proxy', unclear: true, timeout: 5000, proxy: { kind: 'reset' } },
};

const WHAT_TO_DO = /\b(check|try again|fix|wait|raise|look|turn off|read|put|choose)\b/i;
const GENERIC = /^(unknown error|error|the request failed|request failed with status code \d+)\.?$/i;

/** Whether an error says what happened and what to do (and, after an unclear fault, that nothing was resent). */
export function isClear(message: string, description: string, fault: Fault): boolean {
	const text = `${message}\n${description}`;
	if (!message.trim() || GENERIC.test(message.trim())) return false;
	if (!WHAT_TO_DO.test(text)) return false;
	return !fault.unclear || /not sent again|nothing was sent/i.test(text);
}
