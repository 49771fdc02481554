/**
 * The operation → route table of docs/reference.md, made from a real run: every operation of the
 * node sends its request to a fresh sandbox, and each request is named by the route table
 * (`contract/routes.ts`) it matches; whether the operation writes comes from its module.
 * `outputs.test.ts` compares the result with the page; `npm run docs:outputs` rewrites it.
 */
import { RESOURCES } from '../../nodes/PostalService/actions/resources';
import { ROUTES } from '../../nodes/PostalService/contract/routes';
import { everyOperation } from '../harness/sends';
import { run, startExampleSandbox } from './outputs';

/** A route as the page writes it: the token and ids as placeholders, and the price's test=1. */
function routeText(method: string, path: string, fields: Record<string, unknown>): string {
	const route = Object.values(ROUTES).find((r) => r.method === method && new RegExp(`^${r.path.replace(/\{\w+\}/g, '[^/]+')}$`).test(path));
	if (!route) return `${method} ${path} (not in the route table)`;
	const template = route.path.replace(/\{(\w+)\}/g, '<$1>');
	return `\`${method} ${template}${fields.test === '1' ? '` with `test=1' : ''}\``;
}

export async function routesSection(): Promise<string> {
	const sandbox = await startExampleSandbox();
	const operations = await everyOperation();
	const rows = ['| Resource | Operation | Route | Writes (Retry On Fail refused) |', '|---|---|---|---|'];
	try {
		for (const [resource, { name, operations: modules }] of Object.entries(RESOURCES)) {
			for (const [operation, module] of Object.entries(modules)) {
				const given = operations[`${resource}.${operation}`];
				if (!given) throw new Error(`test/harness/sends.ts everyOperation() has no parameters for ${resource}.${operation}`);
				sandbox.control.clearRequests();
				await run(sandbox, given.parameters as never, given.items, true);
				const routes = [...new Set(sandbox.control.requests().map((r) => routeText(r.method, r.path, r.fields)))];
				rows.push(`| ${name} | ${module.option.name} | ${routes.join(', ') || 'none'} | ${module.writes ? 'yes' : 'no'} |`);
			}
		}
	} finally {
		await sandbox.stop();
	}
	return rows.join('\n');
}
