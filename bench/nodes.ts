/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
/**
 * Node types of the benchmarks only, run by n8n's engine like any node: the items every case starts
 * from, and the two baselines a node author could write instead of the package (a loop over n8n's
 * own request helper, and a loop over undici with one keep-alive pool).
 */
import { readFileSync } from 'node:fs';

import type { IBinaryData, IDataObject, IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';
import { Agent, FormData as UndiciFormData, request } from 'undici';

/** A full collection where the process allows it (benchmark children run with --expose-gc). */
const collectGarbage = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

/** What a baseline sends for each item: the same route and fields as the package. */
export interface BaselineRequest {
	kind: 'read' | 'create';
	/** Where the letter's PDF comes from, for creates. */
	pdf?: 'binary' | 'base64' | 'url';
	fields?: Record<string, string>;
	concurrency?: number;
	/** A new connection for every request (what n8n's request helper does), to price keep-alive. */
	fresh?: boolean;
}

function describe(name: string, displayName: string, inputs: boolean): INodeTypeDescription {
	return {
		displayName,
		name,
		group: ['transform'],
		version: 1,
		description: 'Benchmarks only',
		defaults: { name: displayName },
		inputs: inputs ? [NodeConnectionTypes.Main] : [],
		outputs: [NodeConnectionTypes.Main],
		credentials: inputs ? [{ name: 'postalServiceApi', required: true }] : [],
		properties: [{ displayName: 'Setup', name: 'setup', type: 'json', default: '{}' }],
	};
}

/**
 * Emits `count` items. By default each item carries its own letter (the PDF with a line of its own
 * after the end, so every file differs), stored through n8n's binary helpers or as base64 in its
 * JSON, as when each recipient gets their own document. With `shared` one stored file (or one
 * string) is referred to by every item, as after a node that fans one file out to many recipients.
 */
export class BenchItemsNode implements INodeType {
	description = describe('benchItems', 'Bench Items', false);

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const setup = JSON.parse(this.getNodeParameter('setup', 0) as string) as { count: number; pdfFile?: string; pdf?: string; shared?: boolean; collect?: boolean };
		const pdf = setup.pdfFile && (setup.pdf === 'binary' || setup.pdf === 'base64') ? readFileSync(setup.pdfFile) : undefined;
		const fileOf = (i: number) => (setup.shared || !pdf ? pdf : Buffer.concat([pdf, Buffer.from(`% letter ${i}\n`)]));
		const sharedBinary = pdf && setup.shared && setup.pdf === 'binary' ? await this.helpers.prepareBinaryData(pdf, 'letter.pdf', 'application/pdf') : undefined;
		const sharedBase64 = pdf && setup.shared && setup.pdf === 'base64' ? pdf.toString('base64') : undefined;
		const items: INodeExecutionData[] = [];
		for (let i = 0; i < setup.count; i++) {
			const json: IDataObject = { n: i };
			if (setup.pdf === 'base64' && pdf) json.pdfBase64 = sharedBase64 ?? fileOf(i)!.toString('base64');
			let binary: IBinaryData | undefined;
			if (setup.pdf === 'binary' && pdf) binary = sharedBinary ? { ...sharedBinary } : await this.helpers.prepareBinaryData(fileOf(i)!, 'letter.pdf', 'application/pdf');
			items.push(binary ? { json, binary: { data: binary } } : { json });
			// For a peak-memory run: the copies made for each file are garbage at once; collected as they
			// go, they leave the process's peak to what the items hold and what the send takes.
			if (setup.collect && pdf && i % 8 === 7) collectGarbage();
		}
		if (setup.collect) collectGarbage();
		return [items];
	}
}

async function credentials(ctx: IExecuteFunctions) {
	const c = await ctx.getCredentials('postalServiceApi');
	return { baseUrl: String(c.baseUrl).replace(/\/+$/, ''), token: String(c.securityToken) };
}

/** The create's multipart body as a node author would simply build it: FormData, the file read whole into a Blob. */
async function letterForm<F extends FormData | UndiciFormData>(
	Form: new () => F,
	ctx: IExecuteFunctions,
	setup: BaselineRequest,
	itemIndex: number,
	token: string,
): Promise<F> {
	const form = new Form();
	for (const [name, value] of Object.entries(setup.fields ?? {})) form.append(name, value);
	form.append('userSecurityToken', token);
	if (setup.pdf === 'binary') {
		const meta = ctx.helpers.assertBinaryData(itemIndex, 'data');
		const buffer = await ctx.helpers.getBinaryDataBuffer(itemIndex, 'data');
		form.append('pdfFile', new Blob([new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.length)], { type: meta.mimeType }), meta.fileName);
	} else if (setup.pdf === 'base64') {
		form.append('pdfFile', String(ctx.getInputData()[itemIndex].json.pdfBase64));
	} else {
		form.append('pdfFile', 'http://127.0.0.1:9/letter.pdf');
	}
	return form;
}

/** Runs `send` for every item with at most `concurrency` in flight, keeping input order. */
async function eachItem(
	count: number,
	concurrency: number,
	send: (itemIndex: number) => Promise<IDataObject>,
): Promise<INodeExecutionData[]> {
	const out: INodeExecutionData[] = new Array(count);
	let next = 0;
	const worker = async () => {
		while (next < count) {
			const itemIndex = next++;
			out[itemIndex] = { json: await send(itemIndex), pairedItem: { item: itemIndex } };
		}
	};
	await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
	return out;
}

function unwrap(body: unknown): IDataObject {
	const parsed = (typeof body === 'string' ? JSON.parse(body) : body) as IDataObject;
	if (parsed.status !== 200) throw new Error(`the server answered ${JSON.stringify(parsed).slice(0, 200)}`);
	return parsed.data as IDataObject;
}

/** The same request helper the package uses, credentials read once, nothing else. */
export class HelperLoopNode implements INodeType {
	description = describe('helperLoop', 'Helper Loop', true);

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const setup = JSON.parse(this.getNodeParameter('setup', 0) as string) as BaselineRequest;
		const { baseUrl, token } = await credentials(this);
		const items = this.getInputData();
		const output = await eachItem(items.length, setup.concurrency ?? 1, async (itemIndex) => {
			const form = setup.kind === 'create' ? await letterForm(FormData, this, setup, itemIndex, token) : undefined;
			const response = (await this.helpers.httpRequest({
				method: form ? 'POST' : 'GET',
				url: form ? `${baseUrl}/api/v2/post` : `${baseUrl}/api/v2/balance/${encodeURIComponent(token)}`,
				headers: { Accept: 'application/json' },
				body: form,
				json: !form,
				returnFullResponse: true,
				ignoreHttpStatusErrors: true,
				timeout: 60_000,
			})) as { body: unknown };
			return unwrap(response.body);
		});
		return [output];
	}
}

/** undici directly: one keep-alive pool per execution, the body read to its end. */
export class UndiciLoopNode implements INodeType {
	description = describe('undiciLoop', 'Undici Loop', true);

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const setup = JSON.parse(this.getNodeParameter('setup', 0) as string) as BaselineRequest;
		const { baseUrl, token } = await credentials(this);
		const dispatcher = new Agent({ keepAliveTimeout: 10_000, connections: setup.concurrency ?? 1 });
		try {
			const items = this.getInputData();
			const output = await eachItem(items.length, setup.concurrency ?? 1, async (itemIndex) => {
				const form = setup.kind === 'create' ? await letterForm(UndiciFormData, this, setup, itemIndex, token) : undefined;
				const response = await request(form ? `${baseUrl}/api/v2/post` : `${baseUrl}/api/v2/balance/${encodeURIComponent(token)}`, {
					method: form ? 'POST' : 'GET',
					headers: { accept: 'application/json' },
					body: form,
					dispatcher,
					reset: setup.fresh === true,
				});
				return unwrap(await response.body.json());
			});
			return [output];
		} finally {
			await dispatcher.close();
		}
	}
}
