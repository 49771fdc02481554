import { describe, expect, it } from 'vitest';

import { RESOURCES } from '../../nodes/PostalService/actions/resources';
import { NODE } from '../node/fixture';
import { nodeType } from '../harness/engine';
import { eventsSection } from './events';
import { outputsSection, titleOf } from './outputs';
import { EVENTS, OUTPUTS, readDoc, readSection, writeSection } from './sections';

const outputsPage = () => readDoc(OUTPUTS.files[0]);

describe('docs/outputs.md: Outputs', () => {
	it('shows exactly what each read operation returns from a real run', { timeout: 60_000 }, async () => {
		const shown = readSection(outputsPage(), OUTPUTS.name);
		expect(shown, 'docs/outputs.md has no Outputs markers').toBeDefined();
		// When this fails after a deliberate change of an output: `npm run docs:outputs` rewrites the section.
		expect(shown, 'docs/outputs.md (received) against a real run (expected)').toBe(await outputsSection());
	});

	it('is rewritten by `npm run docs:outputs` in place, leaving the rest of the page as it is', () => {
		const text = outputsPage();
		expect(writeSection(text, readSection(text)!)).toBe(text);
		const changed = writeSection(text, 'replaced');
		expect(readSection(changed)).toBe('replaced');
		const [before, after] = text.split(readSection(text)!);
		expect(changed.startsWith(before.trimEnd())).toBe(true);
		expect(changed.endsWith(after.trimStart())).toBe(true);
	});

	it('has an example of every read operation the node offers', () => {
		const section = readSection(outputsPage()) ?? '';
		const headings = [...section.matchAll(/^### (.+)$/gm)].map(([, title]) => title);
		const reads = Object.entries(RESOURCES).flatMap(([resource, { operations }]) =>
			Object.keys(operations)
				// The operations that send, change or spend are described where they are documented.
				.filter((operation) => !operations[operation].writes)
				.map((operation) => titleOf(resource, operation)),
		);
		expect(reads.length).toBeGreaterThan(0);
		for (const read of reads) expect(headings.some((title) => title.startsWith(read)), read).toBe(true);
	});

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
});

describe('the trigger reference and the guides: the items of the trigger events', () => {
	it('shows in the trigger reference what the trigger emits for every event in a real run', { timeout: 60_000 }, async () => {
		const made = await eventsSection();
		for (const file of EVENTS.files) {
			// When this fails after a deliberate change of an item: `npm run docs:outputs` rewrites it.
			expect(readSection(readDoc(file), EVENTS.name), `${file} (received) against a real run (expected)`).toBe(made);
		}
	});

	it("send both guides' readers to those items", () => {
		// The guides keep to setting up: the items live in the trigger reference alone, under one heading.
		expect(readDoc(EVENTS.files[0])).toContain('### One item of each event');
		expect(readDoc('README.md')).toContain('](docs/trigger.md#one-item-of-each-event)');
		expect(readDoc('docs/pt-BR/README.md')).toContain('](../trigger.md#one-item-of-each-event)');
	});
});
