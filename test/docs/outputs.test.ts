import { describe, expect, it } from 'vitest';

import { NODE } from '../node/fixture';
import { nodeType } from '../harness/engine';
import { titleOf } from './outputs';
import { readDoc, readSection, SECTIONS, writeSection } from './sections';

const outputsPage = () => readDoc('docs/outputs.md');

describe('the sections of the pages made from a real run', () => {
	// Each maker says what it runs: outputs.ts (it names a read with no example), events.ts, sections.ts, routes.ts.
	it.for(SECTIONS)('$file: the $name section is what a run makes now', { timeout: 60_000 }, async ({ name, file, make }) => {
		const shown = readSection(readDoc(file), name);
		expect(shown, `${file} has no ${name} markers`).toBeDefined();
		// When this fails after a deliberate change: `npm run docs:outputs` rewrites the section.
		expect(shown, `${file} (received) against a real run (expected)`).toBe(await make());
	});

	it('are rewritten by `npm run docs:outputs` in place, leaving the rest of the page as it is', () => {
		const text = outputsPage();
		const changed = writeSection(text, 'replaced', 'outputs');
		expect(readSection(changed, 'outputs')).toBe('replaced');
		// Written back, the section gives the page as it was: nothing around it moved.
		expect(writeSection(changed, readSection(text, 'outputs')!, 'outputs')).toBe(text);
	});
});

describe('docs/outputs.md and the guides', () => {
	// The reads that simplify have one switch each; the other reads answer with a few fields or a file (the README says why).
	it("lists in its Simplify table what each switch keeps, as the switch's help names it: at most ten of the service's fields beside the texts that read them", async () => {
		const switches = (await nodeType(NODE)).description.properties.filter((p) => p.name === 'simplify');
		const at = (p: (typeof switches)[number]) => [String(p.displayOptions?.show?.resource), String(p.displayOptions?.show?.operation)];
		expect(switches.map((p) => at(p).join('.')).sort()).toEqual(['chatTemplate.getMany', 'order.get', 'registeredEmail.get']);
		for (const property of switches) {
			expect(property).toMatchObject({ displayName: 'Simplify', type: 'boolean', default: true });
			expect(property.description).toMatch(/^Whether to return only the fields most workflows use \((\w+, )+\w+\) instead of the service's whole answer$/);
			const kept = /\(([^)]*)\)/.exec(property.description!)![1].split(', ');
			expect(kept.filter((field) => field !== 'statusText' && field !== 'currency').length, property.description).toBeLessThanOrEqual(10);
			if (kept.includes('value')) expect(kept, 'a price comes with its currency').toContain('currency');
			if (kept.includes('status') && at(property)[0] !== 'chatTemplate') expect(kept).toContain('statusText');
			const title = titleOf(at(property)[0], at(property)[1]);
			const row = outputsPage()
				.split('\n')
				.find((line) => line.startsWith(`| ${title} | on by default`));
			expect(row, title).toBeDefined();
			expect([...row!.split(' | ')[1].matchAll(/`(\w+)`/g)].map(([, field]) => field), title).toEqual(kept);
		}
	});

	it("send both guides' readers to the trigger reference for the items of the events", () => {
		// The guides keep to setting up: the items live in the trigger reference alone. guides.test.ts proves the
		// heading exists and that the Portuguese guide links where the English one does.
		expect(readDoc('README.md')).toContain('](docs/trigger.md#one-item-of-each-event)');
	});
});
