/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
/**
 * The node types a benchmark's child registers beside the package's: the start node that makes every
 * case's items, and n8n's own HTTP Request node, taken from the n8n the end-to-end suite installs
 * (`scripts/dev/install-n8n.sh`) so that it runs in the same engine as the package.
 */
import { existsSync, readFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import path from 'node:path';

import type { IBinaryData, IDataObject, IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription, IVersionedNodeType } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { cacheDir, N8N_VERSION } from '../scripts/dev/n8n';

export const n8nDir = path.join(cacheDir, `n8n-${N8N_VERSION}`);
export const n8nInstalled = () => existsSync(path.join(n8nDir, '.installed'));

/** A full collection where the process allows it (benchmark children run with --expose-gc). */
export const collectGarbage = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

/**
 * Emits `count` items, each with its own letter (the PDF with a line of its own after the end, so
 * every file differs), stored through n8n's binary helpers or as base64 in its JSON.
 */
export class BenchItemsNode implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Bench Items',
		name: 'benchItems',
		group: ['transform'],
		version: 1,
		description: 'Benchmarks only',
		defaults: { name: 'Bench Items' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		properties: [{ displayName: 'Setup', name: 'setup', type: 'json', default: '{}' }],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const setup = JSON.parse(this.getNodeParameter('setup', 0) as string) as { count: number; pdfFile: string; pdf?: string; collect?: boolean };
		const pdf = setup.pdf ? readFileSync(setup.pdfFile) : undefined;
		const items: INodeExecutionData[] = [];
		for (let i = 0; i < setup.count; i++) {
			const json: IDataObject = { n: i };
			const file = pdf && Buffer.concat([pdf, Buffer.from(`% letter ${i}\n`)]);
			if (file && setup.pdf === 'base64') json.pdfBase64 = file.toString('base64');
			let binary: IBinaryData | undefined;
			if (file && setup.pdf === 'binary') binary = await this.helpers.prepareBinaryData(file, 'letter.pdf', 'application/pdf');
			items.push(binary ? { json, binary: { data: binary } } : { json });
			// For a peak-memory run: the copies made for each file are garbage at once; collected as they
			// go, they leave the process's peak to what the items hold and what the send takes.
			if (setup.collect && pdf && i % 8 === 7) collectGarbage();
		}
		if (setup.collect) collectGarbage();
		return [items];
	}
}

type Resolve = (request: string, parent: unknown, ...rest: unknown[]) => string;

/**
 * n8n-nodes-base would load the installed n8n's own copy of n8n-workflow; the engine here runs with
 * this checkout's copy (same version), and both must be one module for n8n's `instanceof` checks and
 * its expression engine. Requests for it from the installed n8n go to ours.
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

/** The HTTP Request node (all its versions; V3 serves 4.x). Called once per process. */
export function httpRequestNode(): IVersionedNodeType {
	shareWorkflowLibrary();
	const requireFromN8n = createRequire(path.join(n8nDir, 'node_modules', 'n8n-nodes-base', 'package.json'));
	const { HttpRequest } = requireFromN8n('./dist/nodes/HttpRequest/HttpRequest.node.js') as { HttpRequest: new () => IVersionedNodeType };
	return new HttpRequest();
}
