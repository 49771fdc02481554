/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
/**
 * `npm run lint` keeps the layering of the published code: every import points down, and no import
 * circle. Each layer's file is linted with an import of every other place, and the verdict is held
 * against the table of what the layering allows (docs/architecture.md).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { ESLint } from 'eslint';
import { afterAll, describe, expect, it } from 'vitest';

const config = path.resolve(__dirname, '../../eslint.project.config.mjs');
const root = mkdtempSync(path.join(tmpdir(), 'postal-layering-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const eslint = new ESLint({ cwd: root, overrideConfigFile: config });
const RULE = '@typescript-eslint/no-restricted-imports';

const N = 'nodes/PostalService';
/** Where an import can come from, each as a file of the package. */
const FILES = {
	contract: `${N}/contract/x.ts`,
	transport: `${N}/transport/x.ts`,
	methods: `${N}/methods/x.ts`,
	'the run loop': `${N}/actions/run.ts`,
	'actions/resources': `${N}/actions/resources.ts`,
	'the floor of actions/': `${N}/actions/x.ts`,
	"a resource's index": `${N}/actions/order/index.ts`,
	operation: `${N}/actions/order/x.operation.ts`,
	shared: `${N}/actions/shared/x.ts`,
	trigger: 'nodes/PostalServiceTrigger/x.ts',
	credential: 'credentials/x.ts',
};
/** What can be imported, as a path from the package's root; `type` imports only types. */
const TARGETS = {
	'contract/': `${N}/contract/lists`,
	'transport/': `${N}/transport`,
	'types of transport/': `type ${N}/transport`,
	'methods/': `${N}/methods`,
	'actions/run': `${N}/actions/run`,
	'actions/resources': `${N}/actions/resources`,
	'actions/item': `${N}/actions/item`,
	'actions/types': `${N}/actions/types`,
	'a resource': `${N}/actions/order`,
	'actions/shared/': `${N}/actions/shared/letterOrder`,
	'an operation': `${N}/actions/order/get.operation`,
	'the action node': `${N}/PostalService.node`,
	'the trigger': 'nodes/PostalServiceTrigger/delivery',
	'credentials/': 'credentials/serviceAnswerRules',
};
type From = keyof typeof FILES;
type Target = keyof typeof TARGETS;
const FLOOR: Target[] = ['contract/', 'types of transport/', 'actions/item', 'actions/types'];
/** The layering: what each place may import (its own folder aside, and zod, luxon and n8n-workflow outside contract/). */
const ALLOWED: Record<From, Target[]> = {
	contract: ['contract/'],
	transport: ['contract/', 'transport/', 'types of transport/'],
	methods: ['contract/', 'transport/', 'types of transport/', 'methods/'],
	'the run loop': [...FLOOR, 'transport/', 'actions/resources'],
	'actions/resources': ['contract/', 'actions/item', 'actions/types', 'actions/resources', 'a resource'],
	'the floor of actions/': FLOOR,
	"a resource's index": ['an operation'],
	operation: [...FLOOR, 'actions/shared/'],
	shared: [...FLOOR, 'actions/shared/'],
	trigger: ['contract/', 'the trigger'],
	credential: ['credentials/'],
};

function specifier(from: string, to: string): string {
	const relative = path.posix.relative(path.posix.dirname(from), to);
	return relative.startsWith('.') ? relative : `./${relative}`;
}

describe('npm run lint: the layering of the published code', () => {
	const cases = (Object.keys(FILES) as From[]).flatMap((from) => (Object.keys(TARGETS) as Target[]).map((target) => [from, target] as const));
	it.each(cases)('%s importing %s', async (from, target) => {
		const file = FILES[from];
		const [kind, to] = TARGETS[target].startsWith('type ') ? ['import type', TARGETS[target].slice(5)] : ['import', TARGETS[target]];
		const [result] = await eslint.lintText(`${kind} { x } from '${specifier(file, to)}';\nexport const y: x = 1;\n`, { filePath: path.join(root, file) });
		const refused = result.messages.filter((m) => m.ruleId === RULE);
		expect(refused.length === 0, `${from} → ${target}: ${refused.map((m) => m.message).join('; ')}`).toBe(ALLOWED[from].includes(target));
	});

	it('refuses a package other than zod and luxon in contract/', async () => {
		const [result] = await eslint.lintText("import type { INode } from 'n8n-workflow';\nimport { z } from 'zod';\nimport { DateTime } from 'luxon';\n", { filePath: path.join(root, FILES.contract) });
		expect(result.messages.filter((m) => m.ruleId === RULE).map((m) => m.line)).toEqual([1]);
	});

	it('refuses an import circle', async () => {
		const dir = path.join(root, N, 'contract');
		mkdirSync(dir, { recursive: true });
		writeFileSync(path.join(dir, 'a.ts'), "import { b } from './b';\nexport const a = b;\n");
		writeFileSync(path.join(dir, 'b.ts'), "import { a } from './a';\nexport const b = 1;\nexport const c = a;\n");
		const results = await eslint.lintFiles([path.join(dir, 'a.ts'), path.join(dir, 'b.ts')]);
		expect(results.flatMap((r) => r.messages.map((m) => m.ruleId))).toEqual(['import-x/no-cycle', 'import-x/no-cycle']);
	});
});
