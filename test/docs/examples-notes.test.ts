// What the example files' notes tell a user, and the files beside them (the Portuguese Setup steps,
// the walkthroughs' round trip, the mail merge sample), checked against the workflows themselves.
import { describe, expect, it } from 'vitest';

import { dataTablesOf, entryCredentialsOf, EXAMPLE_API_KEY_HEADER, placeholderHosts, SYSTEMS_NODE, type WorkflowNode } from '../../scripts/dev/workflows';
import { examples, note, notesOf, reachableFrom, SETUP, setupNote, setupSteps, STICKY } from './exampleGraph';
import { figuresOf, readDoc } from './sections';

describe('the example workflows', () => {
	it('name in their Setup note the credential each entry authenticates with, and the header a Header Auth one sends', () => {
		for (const { file, workflow } of examples) {
			for (const credential of entryCredentialsOf([workflow])) {
				expect(setupNote(workflow), file).toContain(`\`${credential.name}\``);
				if (credential.type === 'httpHeaderAuth') expect(setupNote(workflow), file).toContain(`\`${EXAMPLE_API_KEY_HEADER}\``);
			}
		}
	});

	it('say in their note the key each one is idempotent on, and, where a data table keeps it, what still races', () => {
		for (const { file, workflow } of examples) {
			expect(note(workflow), file).toMatch(/\*\*(?:Keys?|Chave)\b/);
			if (dataTablesOf(workflow).length) expect(note(workflow), file).toMatch(/still races/);
		}
	});

	it('name in their Setup note every data table they use, with its columns, for the user to create', () => {
		const withTables = examples.filter(({ workflow }) => dataTablesOf(workflow).length > 0);
		expect(withTables.length).toBeGreaterThanOrEqual(12);
		for (const { file, workflow } of withTables) {
			for (const table of dataTablesOf(workflow)) {
				expect(table.columns.length, `${file}: ${table.name} has no column`).toBeGreaterThan(0);
				const step = setupSteps(setupNote(workflow)).find((line) => line.includes(`\`${table.name}\``));
				expect(step, `${file}: no Setup step creates ${table.name}`).toBeDefined();
				for (const column of table.columns) expect(step, `${file}: column ${column.name}`).toContain(`\`${column.name}\``);
			}
		}
	});

	it('give one table the same columns, with the same types, in every example that uses it', () => {
		const first = new Map<string, { file: string; type: string }>();
		for (const { file, workflow } of examples) {
			for (const table of dataTablesOf(workflow)) {
				for (const { name, type } of table.columns) {
					const column = `${table.name}.${name}`;
					if (!first.has(column)) first.set(column, { file, type });
					expect(type, `${column} in ${file} and ${first.get(column)!.file}`).toBe(first.get(column)!.type);
				}
			}
		}
	});

	it('refuse a data table given other than by name, which a user could not create from the note', () => {
		const [{ workflow }] = examples.filter(({ file }) => file === 'chat-message-when-delivered.json');
		const byId = {
			...workflow,
			nodes: workflow.nodes.map((n) =>
				n.type === 'n8n-nodes-base.dataTable' ? { ...n, parameters: { ...n.parameters, dataTableId: { __rl: true, mode: 'id', value: 'x1' } } } : n,
			),
		};
		expect(() => dataTablesOf(byId)).toThrow(/not given by name/);
	});
});

/** Where a node or a note sits on the canvas; a node is drawn about 100 px square from its position. */
function box(n: WorkflowNode): { left: number; top: number; right: number; bottom: number } {
	const [x, y] = n.position;
	const width = n.type === STICKY ? Number(n.parameters.width ?? 240) : 100;
	const height = n.type === STICKY ? Number(n.parameters.height ?? 160) : 100;
	return { left: x, top: y, right: x + width, bottom: y + height };
}
/** How far a note may sit from the node it explains and still read as beside it. */
const BESIDE = 320;
const beside = (note: WorkflowNode, target: WorkflowNode) => {
	const [a, b] = [box(note), box(target)];
	return b.left <= a.right + BESIDE && b.right >= a.left - BESIDE && b.top <= a.bottom + BESIDE && b.bottom >= a.top - BESIDE;
};
/** A short note says one thing about the nodes beside it; the longest of them fits a few lines on the canvas. */
const SHORT_NOTE = 900;

describe('the example notes', () => {
	it('open with one Setup note: the title, what the workflow does, then what to create first as numbered steps', () => {
		for (const { file, workflow } of examples) {
			expect(notesOf(workflow).filter((n) => n.name === SETUP), file).toHaveLength(1);
			const content = setupNote(workflow);
			expect(content, file).toMatch(/^## \S/);
			expect(content, file).toMatch(/^### Setup$/m);
			const steps = setupSteps(content);
			expect(steps.length, `${file}: numbered steps under Setup`).toBeGreaterThanOrEqual(2);
			expect(steps.map((line) => Number(/^(\d+)\./.exec(line)![1])), file).toEqual(steps.map((_, i) => i + 1));
			// The last step is the one that starts it: nothing before it can be left out.
			expect(steps.at(-1), file).toMatch(/Activate|Publish|run it|Open chat/i);
		}
	});

	it('explain the rest in short notes, each beside a node it names', () => {
		for (const { file, workflow } of examples) {
			const others = notesOf(workflow).filter((n) => n.name !== SETUP);
			expect(others.length, `${file}: notes beside the nodes`).toBeGreaterThanOrEqual(1);
			for (const n of others) {
				const content = String(n.parameters.content);
				expect(content.length, `${file}: "${n.name}" is ${content.length} characters`).toBeLessThanOrEqual(SHORT_NOTE);
				const named = workflow.nodes.filter((target) => target.type !== STICKY && content.includes(`*${target.name}*`));
				expect(named.length, `${file}: "${n.name}" names no node in *italics*`).toBeGreaterThan(0);
				expect(named.some((target) => beside(n, target)), `${file}: "${n.name}" is far from ${named.map((t) => t.name).join(', ')}`).toBe(true);
			}
		}
	});

	it('cover nothing: no note lies over another note or over a node', () => {
		const overlap = (a: ReturnType<typeof box>, b: ReturnType<typeof box>) => b.left < a.right && b.right > a.left && b.top < a.bottom && b.bottom > a.top;
		for (const { file, workflow } of examples) {
			for (const n of notesOf(workflow)) {
				for (const other of workflow.nodes.filter((o) => o !== n)) {
					expect(overlap(box(n), box(other)), `${file}: "${n.name}" lies over "${other.name}"`).toBe(false);
				}
			}
		}
	});
});

describe('the Setup steps in Portuguese', () => {
	const GUIDE = 'docs/pt-BR/exemplos.md';
	const guide = readDoc(GUIDE);
	/** The numbered steps the Portuguese page gives for an example, after its name in bold on a line of its own. */
	const guideSteps = (name: string) => setupSteps(`### Setup\n${guide.split(`\n**${name}**\n`)[1] ?? ''}`);
	/** What a translation keeps of a step: its code, its bold labels and its node names in italics. */
	const figures = (step: string) => figuresOf('', step).filter(({ kind }) => ['code', 'label', 'name'].includes(kind)).map(({ kind, value }) => `${kind} ${value}`).sort();

	it.each(examples.map(({ file, workflow }) => ({ file, workflow })))(`$file: ${GUIDE} gives its Setup steps, each with the same code, labels and node names`, ({ file, workflow }) => {
		const english = setupSteps(setupNote(workflow));
		const portuguese = guideSteps(file.replace(/\.json$/, ''));
		expect(portuguese.length, `${file}: steps in ${GUIDE}`).toBe(english.length);
		english.forEach((step, i) => expect(figures(portuguese[i]), `${file}, step ${i + 1}`).toEqual(figures(step)));
	});
});

describe('your own systems, in one place', () => {
	const withSystems = examples.filter(({ workflow }) => workflow.nodes.some((n) => n.name === SYSTEMS_NODE));

	it('an example that calls a team chat, a CRM or a file store takes every address from its Your systems node', () => {
		for (const { file, workflow } of examples) {
			const elsewhere = placeholderHosts({ ...workflow, nodes: workflow.nodes.filter((n) => n.name !== SYSTEMS_NODE) });
			expect(elsewhere, `${file}: an address outside "${SYSTEMS_NODE}"`).toEqual([]);
		}
		expect(withSystems.map((e) => e.file)).toEqual(expect.arrayContaining(['insufficient-credits-reprocess.json', 'nightly-reconciliation.json', 'returned-letter-to-collection.json']));
	});

	it('runs Your systems before every node that reads it, from each start of the workflow', () => {
		for (const { file, workflow } of withSystems) {
			const after = reachableFrom(workflow, SYSTEMS_NODE);
			const readers = workflow.nodes.filter((n) => JSON.stringify(n.parameters).includes(`$('${SYSTEMS_NODE}')`));
			expect(readers.length, file).toBeGreaterThan(0);
			for (const reader of readers) expect(after.has(reader.name), `${file}: "${reader.name}" may run before ${SYSTEMS_NODE}`).toBe(true);
			// Each start (a trigger, a schedule, a webhook) leads to it, so no run reads an address it never set.
			const starts = workflow.nodes.filter((n) => n.type !== STICKY && !Object.values(workflow.connections as Record<string, { main?: Array<Array<{ node: string }>> }>).some((c) => c.main?.flat().some((t) => t.node === n.name)));
			for (const start of starts.filter((s) => [...reachableFrom(workflow, s.name)].some((name) => readers.some((r) => r.name === name)))) {
				expect(reachableFrom(workflow, start.name).has(SYSTEMS_NODE), `${file}: "${start.name}" reaches a reader without ${SYSTEMS_NODE}`).toBe(true);
			}
		}
	});
});

describe('the round trip in the walkthroughs', () => {
	const ROUND_TRIP = 'crm-client-to-return-receipt.json';
	const workflow = examples.find((e) => e.file === ROUND_TRIP)!.workflow;
	const dev = readDoc('scripts/dev/dev.ts');
	const fields = (workflow.nodes.find((n) => n.name === 'Client fields')!.parameters.assignments as { assignments: Array<{ name: string }> }).assignments.map((a) => a.name);

	// The Portuguese page's last section has the same figures (walkthrough.test.ts); the banner and the panel show these labels (quotes.test.ts).
	it("docs/first-registered-letter.md ends with 'From the CRM to the AR': the example, every field of the record, the banner's call and the panel's records", () => {
		const last = readDoc('docs/first-registered-letter.md').split(/^## /m).at(-1)!;
		expect(last.split('\n')[0]).toBe('From the CRM to the AR');
		expect(last).toContain(`examples/${ROUND_TRIP})`);
		for (const field of fields) expect(last, field).toContain(`\`${field}\``);
		for (const label of ['**CRM round trip**', '*Records of your CRM*', '**Assign tracking code**', '**Add tracking event**', '**Add return receipt**']) expect(last).toContain(label);
	});

	it('is pointed at by the banner, for a Portuguese reader', () => {
		expect(dev).toContain('docs/pt-BR/primeira-carta-registrada.md');
		expect(dev).toContain(`'${ROUND_TRIP}'`);
	});
});

describe('the mail merge sample', () => {
	// That row 4 (Carla Nunes) is the one row the node refuses is proven by running the note's curl line: test/e2e/support/exampleRequests.ts mailMergeSample.
	it('is named in the note by the row the node refuses', () => {
		expect(note(examples.find((e) => e.file === 'mail-merge-from-csv.json')!.workflow)).toContain('row 4 (Carla Nunes) has a 7-digit CEP, which the node refuses');
	});
});
