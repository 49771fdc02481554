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
	it('lists in its Simplify table the fields each switch keeps, as the help of the switch names them', async () => {
		const { description } = await nodeType(NODE);
		const switches = description.properties.filter((p) => p.name === 'simplify');
		expect(switches.length).toBeGreaterThan(0);
		for (const property of switches) {
			const title = titleOf(String(property.displayOptions?.show?.resource), String(property.displayOptions?.show?.operation));
			const row = outputsPage()
				.split('\n')
				.find((line) => line.startsWith(`| ${title} | on by default`));
			expect(row, title).toBeDefined();
			const documented = [...row!.split(' | ')[1].matchAll(/`(\w+)`/g)].map(([, field]) => field);
			const kept = /\(([^)]+)\)/.exec(property.description ?? '')![1].split(', ');
			expect(documented, title).toEqual(kept);
		}
	});

	it("send both guides' readers to the trigger reference for the items of the events", () => {
		// The guides keep to setting up: the items live in the trigger reference alone. guides.test.ts proves the
		// heading exists and that the Portuguese guide links where the English one does.
		expect(readDoc('README.md')).toContain('](docs/trigger.md#one-item-of-each-event)');
	});
});
