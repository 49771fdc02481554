// n8n loads the package from its tarball: the nodes, the tool variant, the credentials, the icons.
import { describe, expect, it } from 'vitest';

import { PACKAGE_NAME } from '../../../scripts/dev/n8n';
import { editorJson, type E2eEnvironment, type Scope } from '../support/environment';

export const nodeType = (name: string) => `${PACKAGE_NAME}.${name}`;
/** What n8n lists once it loaded the package: both nodes and the tool variant, and the three credentials. */
export const LOADED = {
	'/types/nodes.json': ['postalService', 'postalServiceTool', 'postalServiceTrigger'].map(nodeType),
	'/types/credentials.json': ['postalServiceApi', 'postalServiceChatApi', 'postalServiceWebhookApi'],
};

export function packageCases(env: () => E2eEnvironment, scope: Scope) {
	describe('n8n loads the package', () => {
		it('lists both nodes, the tool variant of the action node and the three credentials', async () => {
			const listed: Record<string, Array<{ name: string; group?: string[] }>> = {};
			for (const [route, names] of Object.entries(LOADED)) {
				listed[route] = await editorJson(env(), route);
				expect(listed[route].map((type) => type.name), route).toEqual(expect.arrayContaining(names));
			}
			expect(listed['/types/nodes.json'].find((n) => n.name === nodeType('postalServiceTrigger'))?.group).toContain('trigger');
		});

		if (scope === 'smoke') return;

		it('serves the node icons as SVG', async () => {
			const nodes = await editorJson<Array<{ name: string; iconUrl?: { light: string; dark: string } }>>(env(), '/types/nodes.json');
			const iconUrl = nodes.find((n) => n.name === nodeType('postalService'))?.iconUrl;
			expect(iconUrl).toBeDefined();
			const bodies: string[] = [];
			for (const url of [iconUrl!.light, iconUrl!.dark]) {
				const response = await fetch(`${env().editorUrl}/${url}`);
				expect(response.status, url).toBe(200);
				expect(response.headers.get('content-type')).toMatch(/image\/svg\+xml/);
				const body = await response.text();
				expect(body).toMatch(/<svg[\s>]/);
				bodies.push(body);
			}
			expect(bodies[0]).not.toBe(bodies[1]);
		});
	});
}
