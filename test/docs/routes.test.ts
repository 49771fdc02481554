import { describe, expect, it } from 'vitest';

import { routesSection } from './routes';
import { readDoc, readSection } from './sections';

describe('docs/reference.md: each operation, its route and whether it writes', () => {
	it('is the table a real run makes', { timeout: 60_000 }, async () => {
		const shown = readSection(readDoc('docs/reference.md'), 'routes');
		expect(shown, 'docs/reference.md has no routes markers').toBeDefined();
		// When this fails after a deliberate change: `npm run docs:outputs` rewrites the table.
		expect(shown, 'docs/reference.md (received) against a real run (expected)').toBe(await routesSection());
	});
});
