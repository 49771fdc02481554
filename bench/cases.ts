/**
 * What is compared, as data: each contender is one workflow (a start node that makes the items, then
 * the package's node or n8n's HTTP Request node doing the same sends) run through n8n's engine. A
 * group is a set of contenders timed in one process, interleaved; a comparison is a ratio between two
 * contenders of a group; a memory case compares how far each raises a fresh process's peak.
 */
import type { WorkflowJson } from '../test/harness/engine';
import { LETTER } from '../test/harness/sends';
import { LETTER_FIELDS, TOKEN } from './server';
import { goal, type ComparisonSpec } from './stats';

export type Work = 'read' | 'create';
export type PdfSource = 'binary' | 'base64';

export interface GroupSpec {
	id: string;
	short: string;
	work: Work;
	pdf?: PdfSource;
	/** n8n's binary data mode in the child: `default` keeps files in memory. */
	binaryMode: 'default' | 'filesystem';
	latencyMs: number;
	items: number;
	rounds: number;
	/** Contender ids, `kind.style[.check]`: kind pkg, http or items; style seq, b50 or default; check for the package's creates. */
	contenders: string[];
	comparisons: ComparisonSpec[];
}

export type MemoryCaseSpec = ReturnType<typeof memoryCases>[number];

/** Items per run and rounds of the timed groups; items of each memory case, and the fresh processes per contender. */
export const FULL = { reads: 1000, creates: 100, rounds: 5, memoryItems: 200, memoryRuns: 3 };
export type Scale = typeof FULL;
// Enough items for every request path to run and be counted; too few for the figures to mean anything.
export const CHECK: Scale = { reads: 20, creates: 4, rounds: 1, memoryItems: 8, memoryRuns: 1 };

export const PACKAGE_NODE = 'n8n-nodes-postal-service.postalService';
export const HTTP_NODE = 'n8n-nodes-base.httpRequest';
export const BATCH = 50;

export function parseContender(id: string): { kind: string; style: string; check?: string } {
	const [kind, style = '', check] = id.split('.');
	return { kind, style, check };
}

/** Requests a contender makes: a check first doubles a create's (Auto: with more than one item). */
export function requestsFor(id: string, work: Work, items: number): number {
	const { kind, check } = parseContender(id);
	if (kind === 'items') return 0;
	return work === 'create' && (check === 'always' || (check === 'auto' && items > 1)) ? 2 * items : items;
}

function createGroup(scale: Scale, pdf: PdfSource, binaryMode: GroupSpec['binaryMode'], short: string): GroupSpec {
	return {
		id: `create-${pdf}${pdf === 'binary' ? `-${binaryMode === 'default' ? 'memory' : 'filesystem'}` : ''}`,
		short,
		work: 'create',
		pdf,
		binaryMode,
		latencyMs: 0,
		items: scale.creates,
		rounds: scale.rounds,
		contenders: ['pkg.seq.auto', 'pkg.b50.never', 'pkg.b50.auto', 'http.default', 'http.b50'],
		comparisons: [
			{ label: 'each at its default (package: Auto)', subject: 'pkg.seq.auto', baseline: 'http.default' },
			{ label: 'Batching 50, Never vs HTTP Request, Batching 50', subject: 'pkg.b50.never', baseline: 'http.b50', goal: goal(1) },
			{ label: 'Batching 50, Auto (the default) vs HTTP Request, Batching 50', subject: 'pkg.b50.auto', baseline: 'http.b50' },
			{ label: "Auto's cost, Batching 50: Auto vs Never (each PDF sent twice)", subject: 'pkg.b50.auto', baseline: 'pkg.b50.never' },
		],
	};
}

export function groups(scale: Scale): GroupSpec[] {
	const read = { work: 'read' as const, binaryMode: 'filesystem' as const, items: scale.reads, rounds: scale.rounds };
	return [
		{
			...read,
			id: 'read-instant',
			short: 'Read, instant',
			latencyMs: 0,
			contenders: ['pkg.seq', 'pkg.b50', 'http.default', 'http.b50'],
			comparisons: [
				{ label: 'each at its default', subject: 'pkg.seq', baseline: 'http.default' },
				{ label: 'Batching 50 vs HTTP Request, Batching 50', subject: 'pkg.b50', baseline: 'http.b50', goal: goal(1) },
			],
		},
		{
			...read,
			id: 'read-50ms',
			short: 'Read, 50 ms',
			latencyMs: 50,
			contenders: ['pkg.b50', 'http.b50'],
			comparisons: [
				{ label: 'Batching 50 vs HTTP Request, Batching 50', subject: 'pkg.b50', baseline: 'http.b50' },
				{ label: 'Batching 50 vs the ideal window', subject: 'pkg.b50', baseline: 'ideal', goal: goal(1.15) },
			],
		},
		createGroup(scale, 'binary', 'filesystem', 'Create, binary (disk)'),
		createGroup(scale, 'binary', 'default', 'Create, binary (memory)'),
		createGroup(scale, 'base64', 'filesystem', 'Create, base64'),
	];
}

/**
 * Peak memory: the package and the HTTP Request node send the same 1 MiB PDFs (binary data on disk),
 * each in fresh processes, measured by how far each raises its process's peak RSS above the items
 * held alone. The two cases share their items and their HTTP Request node.
 */
export function memoryCases(scale: Scale) {
	const n = scale.memoryItems;
	const disk = createGroup(scale, 'binary', 'filesystem', '');
	const group: GroupSpec = { ...disk, items: n, rounds: 1, contenders: ['items', 'pkg.b50.never', 'pkg.b50.always', 'http.b50'], comparisons: [] };
	const memoryCase = (id: string, subject: string, what: string, short: string) => ({ id, title: `Send × ${n}, Batching 50, ${what}`, short, group, subject, anchor: 'http.b50' });
	return [
		memoryCase('memory-binary', 'pkg.b50.never', 'a 1 MiB PDF per item (disk)', 'Memory, binary (disk)'),
		memoryCase('memory-check', 'pkg.b50.always', 'Check With the Service First: Always (the check pass, then the sends)', 'Memory, check pass (disk)'),
	];
}

/** The package's parameters: Batching 50 with no pause for `b50`; a create's Check With the Service First. */
function packageParameters(work: Work, pdf: PdfSource | undefined, style: string, check?: string) {
	const options = style === 'b50' ? { batching: { batch: { batchSize: BATCH, batchInterval: 0 } } } : {};
	if (work === 'read') return { resource: 'account', operation: 'getBalance', options };
	const source = pdf === 'base64' ? { pdfSource: 'base64', pdfBase64: '={{ $json.pdfBase64 }}' } : { pdfSource: 'binary' };
	// Auto is the default: the parameter is left out, as the editor leaves it.
	return { ...LETTER, ...source, additionalFields: check === 'auto' ? {} : { checkWithService: check }, options };
}

/** The HTTP Request node as a user would set it up for the same route; `b50` adds its own Batching. */
function httpParameters(baseUrl: string, work: Work, pdf: PdfSource | undefined, batch: boolean) {
	const options = batch ? { options: { batching: { batch: { batchSize: BATCH, batchInterval: 0 } } } } : {};
	if (work === 'read') return { url: `${baseUrl}/api/v2/balance/${TOKEN}`, ...options };
	const fields = Object.entries({ ...LETTER_FIELDS, userSecurityToken: TOKEN }).map(([name, value]) => ({ parameterType: 'formData', name, value }));
	const file =
		pdf === 'binary'
			? { parameterType: 'formBinaryData', name: 'pdfFile', inputDataFieldName: 'data' }
			: { parameterType: 'formData', name: 'pdfFile', value: '={{ $json.pdfBase64 }}' };
	const bodyParameters = { parameters: [...fields, file] };
	return { method: 'POST', url: `${baseUrl}/api/v2/post`, sendBody: true, contentType: 'multipart-form-data', bodyParameters, ...options };
}

/** The workflow of one contender: `Items` then `Node` (`Items` alone for the items' own memory). */
export function contenderWorkflow(group: GroupSpec, id: string, baseUrl: string, pdfFile: string, items: number, collect: boolean): WorkflowJson {
	const { kind, style, check } = parseContender(id);
	const setup = { count: items, pdf: group.work === 'create' ? group.pdf : undefined, pdfFile, collect };
	const start = { name: 'Items', type: 'bench.items', parameters: { setup: JSON.stringify(setup) } };
	if (kind === 'items') return { nodes: [start], connections: {} };
	const node =
		kind === 'pkg'
			? { name: 'Node', type: PACKAGE_NODE, parameters: packageParameters(group.work, group.pdf, style, check), credentials: { postalServiceApi: { id: 'bench', name: 'bench' } } }
			: { name: 'Node', type: HTTP_NODE, typeVersion: 4.5, parameters: httpParameters(baseUrl, group.work, group.pdf, style === 'b50') };
	return { nodes: [start, node], connections: { Items: { main: [[{ node: 'Node', type: 'main', index: 0 }]] } } };
}
