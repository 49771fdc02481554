/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
/**
 * n8n's own nodes for the side-by-side cases, taken from the n8n the end-to-end suite installs
 * (`scripts/dev/install-n8n.sh`): the HTTP Request node runs in the same engine as the package.
 */
import { existsSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import path from 'node:path';

import type { IVersionedNodeType } from 'n8n-workflow';

import { cacheDir, N8N_VERSION } from '../scripts/dev/n8n';

export const n8nDir = path.join(cacheDir, `n8n-${N8N_VERSION}`);

export function n8nInstalled(): boolean {
	return existsSync(path.join(n8nDir, '.installed'));
}

type Resolve = (request: string, parent: unknown, ...rest: unknown[]) => string;

/**
 * n8n-nodes-base would load the installed n8n's own copy of n8n-workflow; the engine here runs
 * with this checkout's copy (same version), and both must be one module for n8n's `instanceof`
 * checks and its expression engine. Requests for it from the installed n8n go to ours.
 */
function shareWorkflowLibrary() {
	const ours = createRequire(__filename).resolve('n8n-workflow');
	const moduleWithResolve = Module as unknown as { _resolveFilename: Resolve };
	const original = moduleWithResolve._resolveFilename;
	const installed = path.join(n8nDir, 'node_modules') + path.sep;
	moduleWithResolve._resolveFilename = function (request, parent, ...rest) {
		const from = (parent as { filename?: string } | undefined)?.filename ?? '';
		if (request === 'n8n-workflow' && from.startsWith(installed)) return ours;
		return original.call(this, request, parent, ...rest);
	};
}

let shared = false;

/** The HTTP Request node (all its versions; V3 serves 4.x). */
export function httpRequestNode(): IVersionedNodeType {
	if (!n8nInstalled()) {
		throw new Error(`n8n ${N8N_VERSION} is not installed in ${n8nDir}: run \`bash scripts/dev/install-n8n.sh\` first (about 10 minutes, once)`);
	}
	if (!shared) shareWorkflowLibrary();
	shared = true;
	const requireFromN8n = createRequire(path.join(n8nDir, 'node_modules', 'n8n-nodes-base', 'package.json'));
	const { HttpRequest } = requireFromN8n('./dist/nodes/HttpRequest/HttpRequest.node.js') as { HttpRequest: new () => IVersionedNodeType };
	return new HttpRequest();
}
