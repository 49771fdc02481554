/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
/**
 * Whether an operation writes is not a flag kept by hand: an operation file may call a route that is
 * not safe to repeat only when it says `writes` (n8n's Retry On Fail is then refused), and the types
 * refuse it anywhere else. Generated from the route table: every route, called from an operation
 * that does not write and from one that does, type-checked as the build does.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';

import { ROUTES, type RouteName } from '../../nodes/PostalService/contract/routes';

const types = path.resolve(__dirname, '../../nodes/PostalService/actions/types');
const dir = mkdtempSync(path.join(tmpdir(), 'postal-writes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const routes = Object.keys(ROUTES) as RouteName[];
const operation = (name: string, route: RouteName, writes: boolean) => `
export const ${name} = {
	option: { name: 'X', value: 'x', description: 'x', action: 'x' },
	description: [],
	${writes ? 'writes: true as const,' : ''}
	prepare(): ${writes ? 'WriteWork' : 'ItemWork'} {
		return { send: async (call) => (await call('${route}'), []) };
	},
} satisfies OperationModule;`;

/** The fixture's errors, by the name of the constant whose lines they fall in. */
function typeErrors(): Map<string, string[]> {
	const file = path.join(dir, 'operations.ts');
	const cases = routes.flatMap((route) => [operation(`${route}_read`, route, false), operation(`${route}_write`, route, true)]);
	// Work that may write, in a file that does not say so.
	cases.push(operation('unmarked', 'createOrder', true).replace('writes: true as const,', ''));
	writeFileSync(file, `import type { ItemWork, OperationModule, WriteWork } from ${JSON.stringify(types)};\n${cases.join('\n')}\n`);
	const program = ts.createProgram([file], { strict: true, noEmit: true, skipLibCheck: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.CommonJS, moduleResolution: ts.ModuleResolutionKind.Node10, esModuleInterop: true });
	const source = program.getSourceFile(file)!;
	const names = [...source.text.matchAll(/^export const (\w+)/gm)].map((m) => ({ name: m[1], line: source.getLineAndCharacterOfPosition(m.index).line }));
	const errors = new Map<string, string[]>();
	for (const diagnostic of ts.getPreEmitDiagnostics(program).filter((d) => d.file === source)) {
		const line = source.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line;
		const owner = names.filter((n) => n.line <= line).pop()?.name ?? '(file)';
		errors.set(owner, [...(errors.get(owner) ?? []), ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')]);
	}
	return errors;
}

describe('Operations that write, known from the routes they call', () => {
	const errors = typeErrors();

	it('the fixture compiles but for the cases below', () => {
		expect(errors.get('(file)')).toBeUndefined();
	});

	it.each(routes.map((route) => [route, ROUTES[route].idempotent] as const))('%s (safe to repeat: %s) from an operation that does not write', (route, idempotent) => {
		if (idempotent) expect(errors.get(`${route}_read`)).toBeUndefined();
		else expect(errors.get(`${route}_read`)?.join(' ')).toMatch(new RegExp(`"${route}"' is not assignable to parameter of type 'SafeRoute'`));
	});

	it.each(routes)('%s from an operation marked writes', (route) => {
		expect(errors.get(`${route}_write`)).toBeUndefined();
	});

	it('an operation whose work may write must say so', () => {
		expect(errors.get('unmarked')?.join(' ')).toMatch(/Property 'writes' is missing/);
	});
});
