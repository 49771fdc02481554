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

import { testNodes, toolVariant } from './testNodes.cjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const PACKAGE_NAME = 'n8n-nodes-postal-service';

function sourceOf(distPath: string): string {
	return path.join(root, distPath.replace(/^dist\//, '').replace(/\.js$/, '.ts'));
}

// A declared entry whose source is not written yet is skipped here (scripts/release/check-pack.mjs, run in
// CI, fails the build for it), so the tests of the other nodes keep running meanwhile.
function declared(list: string[]): string[] {
	return list.map(sourceOf).filter((file) => existsSync(file));
}

function manifest(): { nodes: string[]; credentials: string[] } {
	const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
	return { nodes: pkg.n8n.nodes ?? [], credentials: pkg.n8n.credentials ?? [] };
}

async function instances<T>(file: string): Promise<T[]> {
	// Imported (not required) so the test runner compiles the TypeScript and applies its aliases.
	const exported = (await import(file)) as Record<string, new () => T>;
	return Object.values(exported)
		.filter((value) => typeof value === 'function')
		.map((Class) => new Class());
}

// Node types from elsewhere (n8n's own nodes, baselines of the benchmarks), added by name.
const extraNodeTypes = new Map<string, INodeType | IVersionedNodeType>();

/** Adds a node type the package does not declare; call it before the first run of the process. */
export function registerNodeType(name: string, type: INodeType | IVersionedNodeType): void {
	extraNodeTypes.set(name, type);
}

export async function loadNodeTypes(): Promise<Map<string, INodeType | IVersionedNodeType>> {
	const types = new Map<string, INodeType | IVersionedNodeType>();
	for (const file of declared(manifest().nodes)) {
		for (const node of await instances<INodeType | IVersionedNodeType>(file)) {
			types.set(`${PACKAGE_NAME}.${node.description.name}`, node);
			if ('execute' in node && node.description.usableAsTool) types.set(`${PACKAGE_NAME}.${node.description.name}Tool`, toolVariant(node as INodeType));
		}
	}
	for (const [name, type] of testNodes()) types.set(name, type);
	for (const [name, type] of extraNodeTypes) types.set(name, type);
	return types;
}

export async function loadCredentialTypes(): Promise<Map<string, ICredentialType>> {
	const types = new Map<string, ICredentialType>();
	for (const file of declared(manifest().credentials)) {
		for (const credential of await instances<ICredentialType>(file)) {
			types.set(credential.name, credential);
		}
	}
	return types;
}
