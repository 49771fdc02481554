/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
/**
 * The node and credential types the harness knows: every node and credential this package
 * declares in package.json's `n8n` field (loaded from source, under the names n8n gives them once
 * the package is installed), plus the small test-only nodes of testNodes.cjs.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import type { ICredentialType, INodeType, IVersionedNodeType } from 'n8n-workflow';

import { packageTypesOf } from './n8n/host.cjs';
import { testNodes } from './testNodes.cjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const PACKAGE_NAME = 'n8n-nodes-postal-service';

// A declared entry whose source is not written yet is skipped here (scripts/release/check-pack.mjs, run in
// CI, fails the build for it), so the tests of the other nodes keep running meanwhile.
async function modulesOf(distPaths: string[] = []): Promise<Array<Record<string, unknown>>> {
	const sources = distPaths.map((file) => path.join(root, file.replace(/^dist\//, '').replace(/\.js$/, '.ts'))).filter((file) => existsSync(file));
	// Imported (not required) so the test runner compiles the TypeScript and applies its aliases.
	return await Promise.all(sources.map(async (file) => (await import(file)) as Record<string, unknown>));
}

// Node types from elsewhere (n8n's own nodes, baselines of the benchmarks), added by name.
const extraNodeTypes = new Map<string, INodeType | IVersionedNodeType>();

/** Adds a node type the package does not declare; call it before the first run of the process. */
export function registerNodeType(name: string, type: INodeType | IVersionedNodeType): void {
	extraNodeTypes.set(name, type);
}

/** The package's node types (with the test nodes and those registered) and its credential types. */
export async function loadTypes(): Promise<{ nodes: Map<string, INodeType | IVersionedNodeType>; credentials: Map<string, ICredentialType> }> {
	const { n8n } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
	const { nodes, credentials } = packageTypesOf(PACKAGE_NAME, await modulesOf(n8n.nodes), await modulesOf(n8n.credentials));
	for (const [name, type] of [...testNodes(), ...extraNodeTypes]) nodes.set(name, type);
	return { nodes, credentials };
}
