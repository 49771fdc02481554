/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
/**
 * One address for one route, whoever asks: the node (every operation), `npm run check-service` and
 * each credential's Test, for every shape a Base URL comes in (a trailing slash or several, a path
 * prefix, another host name and a port, a query). A server on 127.0.0.1 records what each asked.
 * Figures: requests whose address is not the Base URL's own path followed by the route's, and
 * Base URLs with a query that anything asked at all (the node and check-service refuse them).
 */
import type { IDataObject } from 'n8n-workflow';

import { ROUTES } from '../../nodes/PostalService/contract/routes';
import type { ReliabilityRow, ReliabilitySuite, SuiteContext } from './types';

const TOKEN = 'addr-token-93be';
const EMAIL = 'conta@example.com';

/** A route's path as a pattern, its placeholders any one segment. */
const ROUTE_PATTERNS = Object.entries(ROUTES).map(([name, route]) => ({
	name,
	pattern: new RegExp(`${route.path.replace(/\{\w+\}/g, '[^/]+')}$`),
}));

export const suite: ReliabilitySuite = {
	name: 'Addresses',
	async run(context: SuiteContext): Promise<ReliabilityRow[]> {
		process.env.N8N_LOG_LEVEL ??= 'silent';
		const { runCredentialTest, runNode } = await import('../harness/engine');
		const { startHttpServer } = await import('../harness/httpServer');
		const { everyOperation } = await import('../harness/sends');
		const { checkService } = await import('../../scripts/check-service/run');
		// Whatever is asked gets an answer the node reads as no success: only the address matters here.
		const server = await startHttpServer((_req, res) => {
			res.setHeader('content-type', 'application/json');
			res.end('{"status":400,"status_message":"Requisição incompleta","data":null}');
		});
		const OPERATIONS = Object.values(await everyOperation());
		const root = server.url;
		const alias = root.replace('127.0.0.1', 'localhost');
		const SHAPES: Array<{ base: string; prefix?: string }> = [
			{ base: root, prefix: '' },
			{ base: `${root}/`, prefix: '' },
			{ base: `${root}//`, prefix: '' },
			{ base: `${root}/homolog-api`, prefix: '/homolog-api' },
			{ base: `${root}/homolog-api/`, prefix: '/homolog-api' },
			{ base: `${alias}/a/b`, prefix: '/a/b' },
			{ base: `${root}/api?key=1` },
			{ base: `${root}/api/#top` },
		];
		let misplaced = 0;
		let requests = 0;
		let queryAsked = 0;
		// By path: Send and Get Price share one (test=0 or 1).
		const routesByClient: Record<string, Set<string>> = { node: new Set(), 'check-service': new Set(), 'credential Test': new Set() };
		try {
			for (const shape of SHAPES) {
				const asked: Record<string, string[]> = {};
				const collect = (client: string) => {
					asked[client] = server.requests.splice(0).map((r) => r.url.split('?')[0]);
				};
				for (const operation of OPERATIONS) {
					await runNode({
						type: 'n8n-nodes-postal-service.postalService',
						parameters: operation.parameters as IDataObject,
						items: operation.items,
						credentials: {
							postalServiceApi: { baseUrl: shape.base, securityToken: TOKEN },
							postalServiceChatApi: { baseUrl: shape.base, email: EMAIL, securityToken: TOKEN },
						},
						continueOnFail: true,
					});
				}
				collect('node');
				await checkService({ baseUrl: shape.base, email: EMAIL, token: TOKEN }).catch(() => undefined);
				collect('check-service');
				await runCredentialTest('postalServiceApi', { baseUrl: shape.base, securityToken: TOKEN });
				await runCredentialTest('postalServiceChatApi', { baseUrl: shape.base, email: EMAIL, securityToken: TOKEN });
				collect('credential Test');
				for (const [client, paths] of Object.entries(asked)) {
					if (shape.prefix === undefined) {
						// The node and check-service refuse a Base URL with a query; a credential's Test is n8n's request, which cannot.
						if (client !== 'credential Test') queryAsked += paths.length;
						continue;
					}
					for (const path of paths) {
						requests++;
						const route = ROUTE_PATTERNS.find(({ pattern }) => pattern.test(path));
						const prefix = route ? path.replace(route.pattern, '') : undefined;
						if (route) routesByClient[client].add(route.pattern.source);
						if (prefix !== shape.prefix) {
							misplaced++;
							context.log(`${client}, Base URL ${shape.base}: asked ${path}`);
						}
					}
				}
			}
		} finally {
			await server.close();
		}
		const covered = Object.entries(routesByClient).map(([client, routes]) => `${client} ${routes.size}`).join(', ');
		return [
			{
				suite: 'Addresses',
				case: `${SHAPES.length - 2} Base URL shapes (trailing slashes, a path prefix, another host and port) × every operation of the node, npm run check-service and both credentials' Test`,
				runs: requests,
				measure: "requests not at the Base URL's path followed by the route's",
				bad: misplaced,
				note: `routes asked of ${new Set(Object.values(ROUTES).map((r) => `${r.method} ${r.path}`)).size}: ${covered}`,
			},
			{
				suite: 'Addresses',
				case: 'a Base URL with a query or a fragment, to the node and npm run check-service',
				runs: 2,
				measure: 'requests sent (both refuse it, saying why)',
				bad: queryAsked,
			},
		];
	},
};
