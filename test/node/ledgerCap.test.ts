/**
 * Retry On Fail's ledger holds at most MAX_OUTCOMES outcomes per process (filling it through n8n
 * takes 100,000 sends, so its bound is checked on the ledger itself, at a small capacity). At the
 * cap it refuses new writes; it never forgets an execution still running, whose retry would then
 * send again an item whose first answer was lost.
 */
import { describe, expect, it } from 'vitest';

import { MAX_OUTCOMES, RetryLedger } from '../../nodes/PostalService/actions/sendOnce';

describe('the retry ledger at its cap', () => {
	it('keeps 100,000 outcomes, as the README says', () => {
		expect(MAX_OUTCOMES).toBe(100_000);
	});

	it('refuses a new write when full rather than forget a running execution', () => {
		const ledger = new RetryLedger<string>(2, 60_000);
		ledger.execution('A', 0);
		ledger.remember('A', '0', 'unclear', 0);
		ledger.execution('B', 1);
		ledger.remember('B', '0', 'accepted', 1);
		expect(ledger.hasRoom(2)).toBe(false);
		// Execution C arrives while A and B still run: nothing of theirs is forgotten.
		ledger.execution('C', 3);
		expect(ledger.hasRoom(3)).toBe(false);
		expect(ledger.execution('A', 4).outcomes.get('0')).toBe('unclear');
		expect(ledger.execution('B', 4).outcomes.get('0')).toBe('accepted');
	});

	it('makes room when an execution finishes or has been idle', () => {
		const ledger = new RetryLedger<string>(2, 60_000);
		ledger.execution('A', 0);
		ledger.remember('A', '0', 'unclear', 0);
		ledger.execution('B', 1);
		ledger.remember('B', '0', 'unclear', 1);
		ledger.forget('B');
		expect(ledger.hasRoom(2)).toBe(true);
		ledger.execution('C', 2);
		ledger.remember('C', '0', 'unclear', 2);
		expect(ledger.hasRoom(3)).toBe(false);
		// A was last used at 0 and C at 2: past the idle time, A goes, C (used since) stays.
		expect(ledger.hasRoom(60_001)).toBe(true);
		expect(ledger.execution('C', 60_001).outcomes.get('0')).toBe('unclear');
		expect(ledger.execution('A', 60_001).outcomes.size).toBe(0);
	});
});
