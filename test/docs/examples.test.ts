// What the example files may rely on in every topology a user runs them in. The end-to-end suites
// run them in one n8n process and in queue mode; these checks name the rule when a file breaks it.
import { describe, expect, it } from 'vitest';

import { dataTablesOf, readExamples } from '../../scripts/workflows';

const examples = readExamples();

describe('the example workflows', () => {
	it('keep nothing in workflow static data, which queue-mode workers start without', () => {
		expect(examples.length).toBeGreaterThanOrEqual(8);
		for (const { file, workflow } of examples) {
			for (const node of workflow.nodes) {
				// n8n 2.41.1 enqueues a webhook's execution without the workflow's static data, and the
				// worker writes back only what that execution holds: a memory there is lost or overwritten.
				expect(JSON.stringify(node.parameters), `${file}: "${node.name}"`).not.toMatch(/\$getWorkflowStaticData/);
			}
		}
	});

	it('name in their note every data table they use, with its columns, for the user to create', () => {
		const withTables = examples.filter(({ workflow }) => dataTablesOf(workflow).length > 0);
		expect(withTables.map((e) => e.file).sort()).toEqual(['chat-message-when-delivered.json', 'send-registered-letter-from-pdf.json']);
		for (const { file, workflow } of withTables) {
			const note = workflow.nodes.find((n) => n.type === 'n8n-nodes-base.stickyNote')?.parameters.content as string;
			for (const table of dataTablesOf(workflow)) {
				expect(table.columns.length, `${file}: ${table.name} has no column an insert writes`).toBeGreaterThan(0);
				expect(note, file).toContain(`\`${table.name}\``);
				for (const column of table.columns) expect(note, `${file}: column ${column.name}`).toContain(`\`${column.name}\``);
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
