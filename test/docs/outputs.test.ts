import { readFileSync } from 'node:fs';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { RESOURCES } from '../../nodes/PostalService/actions/resources';
import { NODE } from '../node/fixture';
import { nodeType } from '../harness/engine';
import { outputsSection, readSection, writeSection } from './outputs';

const readme = () => readFileSync(path.resolve(__dirname, '../../README.md'), 'utf8');

// The operations that send, change or spend: their outputs are described where they are documented.
const WRITES = new Set(['order.create', 'order.cancel', 'registeredEmail.cancel', 'chatMessage.send', 'chatMessage.reprocess', 'savedContact.update']);

describe('README: Outputs', () => {
	it('shows exactly what each read operation returns from a real run', { timeout: 60_000 }, async () => {
		const shown = readSection(readme());
		expect(shown, 'the README has no Outputs markers').toBeDefined();
		// When this fails after a deliberate change of an output: `npm run docs:outputs` rewrites the section.
		expect(shown, 'README (received) against a real run (expected)').toBe(await outputsSection());
	});

	it('is rewritten by `npm run docs:outputs` in place, leaving the rest of the README as it is', () => {
		const text = readme();
		expect(writeSection(text, readSection(text)!)).toBe(text);
		const changed = writeSection(text, 'replaced');
		expect(readSection(changed)).toBe('replaced');
		const [before, after] = text.split(readSection(text)!);
		expect(changed.startsWith(before.trimEnd())).toBe(true);
		expect(changed.endsWith(after.trimStart())).toBe(true);
	});

	it('has an example of every read operation the node offers', () => {
		const section = readSection(readme()) ?? '';
		const headings = [...section.matchAll(/^#### (.+)$/gm)].map(([, title]) => title);
		const reads = Object.entries(RESOURCES).flatMap(([resource, { name, operations }]) =>
			Object.entries(operations)
				.filter(([operation]) => !WRITES.has(`${resource}.${operation}`))
				.map(([, module]) => `${name} > ${module.option.name}`),
		);
		expect(reads.length).toBeGreaterThan(0);
		for (const read of reads) expect(headings.some((title) => title.startsWith(read)), read).toBe(true);
	});

	it('lists in its Simplify table the fields each switch keeps, as the help of the switch names them', async () => {
		const { description } = await nodeType(NODE);
		const switches = description.properties.filter((p) => p.name === 'simplify');
		expect(switches.length).toBeGreaterThan(0);
		for (const property of switches) {
			const resource = String(property.displayOptions?.show?.resource);
			const operation = String(property.displayOptions?.show?.operation);
			const title = `${RESOURCES[resource].name} > ${RESOURCES[resource].operations[operation].option.name}`;
			const row = readme()
				.split('\n')
				.find((line) => line.startsWith(`| ${title} | on by default`));
			expect(row, title).toBeDefined();
			const documented = [...row!.split(' | ')[1].matchAll(/`(\w+)`/g)].map(([, field]) => field);
			const kept = /\(([^)]+)\)/.exec(property.description ?? '')![1].split(', ');
			expect(documented, title).toEqual(kept);
		}
	});
});
