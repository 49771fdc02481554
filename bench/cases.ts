/**
 * What is compared: each contender is one workflow (a start node with the items, then the node
 * under test), run through n8n's engine. A group is a set of contenders timed in one process,
 * interleaved; a comparison is a ratio between two contenders of a group.
 */
import type { WorkflowJson } from '../test/harness/engine';
import { LETTER } from '../test/harness/sends';
import type { BaselineRequest } from './nodes';
import { LETTER_FIELDS, TOKEN } from './server';

export type Work = 'read' | 'create';
export type PdfSource = 'binary' | 'base64' | 'url';

export interface ContenderSpec {
	/** Short id, like `pkg.seq`. */
	id: string;
	label: string;
	/** Items per timed run (sequential contenders at 50 ms run fewer, per-item figures compare). */
	items: number;
}

export interface GroupSpec {
	id: string;
	title: string;
	/** For the chart's row labels. */
	short: string;
	work: Work;
	pdf?: PdfSource;
	/** Creates: one stored PDF (or base64 text) for every item, instead of a PDF per item. */
	sharedPdf?: boolean;
	/** n8n's binary data mode in the child: `default` keeps files in memory. */
	binaryMode: 'default' | 'filesystem';
	latencyMs: number;
	rounds: number;
	contenders: ContenderSpec[];
	comparisons: ComparisonSpec[];
}

export interface ComparisonSpec {
	label: string;
	subject: string;
	/** A contender id, or `ideal` (items / 50 × latency). */
	baseline: string;
	/** Issue 14's goal for this ratio, when it sets one. */
	goal?: { max: number; text: string };
}

export const PACKAGE_NODE = 'n8n-nodes-postal-service.postalService';
export const HTTP_NODE = 'n8n-nodes-base.httpRequest';
export const HTTP_NODE_VERSION = 4.5;
export const BATCH = 50;

const PDF_URL = 'http://127.0.0.1:9/letter.pdf';

/**
 * The package's parameters. A create is sent without a check first, like for like with nodes that
 * cannot check; `checked` keeps the default (Auto: a batch is checked with the service before any
 * item is sent, one more request per item).
 */
function packageParameters(work: Work, pdf: PdfSource | undefined, batch: boolean, checked: boolean) {
	const options = batch ? { batching: { batch: { batchSize: BATCH, batchInterval: 0 } } } : {};
	if (work === 'read') return { resource: 'account', operation: 'getBalance', options };
	const source =
		pdf === 'url' ? { pdfSource: 'url', pdfUrl: PDF_URL } : pdf === 'base64' ? { pdfSource: 'base64', pdfBase64: '={{ $json.pdfBase64 }}' } : { pdfSource: 'binary' };
	return { ...LETTER, ...source, additionalFields: checked ? {} : { checkWithService: 'never' }, options };
}

/** The HTTP Request node as a user would set it up for the same route, at its defaults otherwise. */
function httpParameters(baseUrl: string, work: Work, pdf: PdfSource | undefined) {
	if (work === 'read') return { url: `${baseUrl}/api/v2/balance/${TOKEN}` };
	const fields = Object.entries({ ...LETTER_FIELDS, userSecurityToken: TOKEN }).map(([name, value]) => ({ parameterType: 'formData', name, value }));
	const file =
		pdf === 'binary'
			? { parameterType: 'formBinaryData', name: 'pdfFile', inputDataFieldName: 'data' }
			: { parameterType: 'formData', name: 'pdfFile', value: pdf === 'base64' ? '={{ $json.pdfBase64 }}' : PDF_URL };
	return {
		method: 'POST',
		url: `${baseUrl}/api/v2/post`,
		sendBody: true,
		contentType: 'multipart-form-data',
		bodyParameters: { parameters: [...fields, file] },
	};
}

function baseline(work: Work, pdf: PdfSource | undefined, concurrency: number, fresh: boolean): string {
	const setup: BaselineRequest = { kind: work, pdf, fields: LETTER_FIELDS, concurrency, fresh };
	return JSON.stringify(setup);
}

/** The workflow of one contender: `Items` then `Node`. */
export function contenderWorkflow(
	group: GroupSpec,
	contender: ContenderSpec,
	baseUrl: string,
	pdfFile: string,
	items: number,
): WorkflowJson {
	const [kind, style] = contender.id.split('.');
	const concurrency = style === 'w50' ? BATCH : 1;
	let node: WorkflowJson['nodes'][number];
	const credentials = { postalServiceApi: { id: 'bench', name: 'bench' } };
	if (kind === 'pkg') {
		node = { name: 'Node', type: PACKAGE_NODE, parameters: packageParameters(group.work, group.pdf, style.startsWith('b50'), style === 'b50checked'), credentials };
	} else if (kind === 'http') {
		node = { name: 'Node', type: HTTP_NODE, typeVersion: HTTP_NODE_VERSION, parameters: httpParameters(baseUrl, group.work, group.pdf) };
	} else if (kind === 'helper') {
		node = { name: 'Node', type: 'bench.helperLoop', parameters: { setup: baseline(group.work, group.pdf, concurrency, false) }, credentials };
	} else if (kind === 'undici') {
		node = { name: 'Node', type: 'bench.undiciLoop', parameters: { setup: baseline(group.work, group.pdf, concurrency, style === 'fresh') }, credentials };
	} else {
		throw new Error(`unknown contender ${contender.id}`);
	}
	const setup = { count: items, pdf: group.work === 'create' ? group.pdf : undefined, pdfFile, shared: group.sharedPdf };
	return {
		nodes: [{ name: 'Items', type: 'bench.items', parameters: { setup: JSON.stringify(setup) } }, node],
		connections: { Items: { main: [[{ node: 'Node', type: 'main', index: 0 }]] } },
	};
}

export const CONTENDER_LABELS: Record<string, string> = {
	'pkg.seq': 'Postal Service node, default (one item at a time)',
	'pkg.b50': 'Postal Service node, Batching 50 (interval 0)',
	'pkg.b50checked': 'Postal Service node, Batching 50, each item checked with the service before any is sent (the default)',
	'http.default': "n8n's HTTP Request node, default (every item in flight)",
	'helper.seq': "loop over n8n's this.helpers.httpRequest, sequential",
	'undici.seq': 'raw undici loop, sequential, keep-alive',
	'undici.w50': 'raw undici, 50 in flight, keep-alive',
	'undici.fresh': 'raw undici loop, sequential, a new connection per request',
};

function contenders(ids: string[], items: number, sequentialItems = items): ContenderSpec[] {
	return ids.map((id) => ({ id, label: CONTENDER_LABELS[id], items: /\.(seq|fresh)$/.test(id) ? sequentialItems : items }));
}

export interface Scale {
	reads: number;
	/** Sequential reads when each answer takes 50 ms. */
	slowSequentialReads: number;
	creates: number;
	rounds: number;
}

export const FULL: Scale = { reads: 1000, slowSequentialReads: 40, creates: 100, rounds: 5 };
export const QUICK: Scale = { reads: 200, slowSequentialReads: 20, creates: 20, rounds: 3 };

const READ_IDS = ['pkg.seq', 'pkg.b50', 'helper.seq', 'undici.seq', 'undici.w50', 'http.default'];
const CREATE_IDS = ['pkg.seq', 'pkg.b50', 'pkg.b50checked', 'helper.seq', 'undici.seq', 'http.default'];

const readComparisons = (latency: number): ComparisonSpec[] => [
	{ label: 'sequential vs helper loop', subject: 'pkg.seq', baseline: 'helper.seq', goal: { max: 1.05, text: '≤ 1.05×' } },
	{ label: 'sequential vs raw undici', subject: 'pkg.seq', baseline: 'undici.seq', goal: { max: 2, text: '≤ 2×' } },
	{ label: 'each at its default', subject: 'pkg.seq', baseline: 'http.default' },
	{ label: 'Batching 50 vs HTTP Request default', subject: 'pkg.b50', baseline: 'http.default', goal: { max: 1, text: '≤ 1.0×' } },
	...(latency > 0
		? [
				{ label: 'Batching 50 vs the ideal', subject: 'pkg.b50', baseline: 'ideal', goal: { max: 1.1, text: '≤ 1.1×' } },
				{ label: 'undici, 50 in flight, vs the ideal', subject: 'undici.w50', baseline: 'ideal' },
			]
		: [
				{ label: 'Batching 50 vs undici, 50 in flight', subject: 'pkg.b50', baseline: 'undici.w50' },
				{ label: 'cost of a connection per request (undici)', subject: 'undici.fresh', baseline: 'undici.seq' },
				// What no keep-alive plus n8n's helper costs any node: the floor under the package's sequential reads.
				{ label: "n8n's request helper loop vs undici keep-alive loop", subject: 'helper.seq', baseline: 'undici.seq' },
			]),
];

const createComparisons: ComparisonSpec[] = [
	{ label: 'sequential vs raw undici', subject: 'pkg.seq', baseline: 'undici.seq', goal: { max: 1.1, text: '≤ 1.1×' } },
	{ label: 'sequential vs helper loop', subject: 'pkg.seq', baseline: 'helper.seq' },
	{ label: 'each at its default', subject: 'pkg.seq', baseline: 'http.default' },
	{ label: 'Batching 50 vs HTTP Request default', subject: 'pkg.b50', baseline: 'http.default', goal: { max: 1, text: '≤ 1.0×' } },
	{ label: 'cost of checking a batch first (two requests per item)', subject: 'pkg.b50checked', baseline: 'pkg.b50' },
];

export function groups(scale: Scale): GroupSpec[] {
	const create = (pdf: PdfSource, binaryMode: GroupSpec['binaryMode'], title: string, short: string, sharedPdf = false): GroupSpec => ({
		id: `create-${pdf}${pdf === 'binary' ? `-${binaryMode === 'default' ? 'memory' : 'filesystem'}` : ''}${sharedPdf ? '-shared' : ''}`,
		title,
		short,
		work: 'create',
		pdf,
		sharedPdf,
		binaryMode,
		latencyMs: 0,
		rounds: scale.rounds,
		contenders: contenders(CREATE_IDS, scale.creates),
		comparisons: createComparisons,
	});
	return [
		{
			id: 'read-instant',
			title: `Get Balance × ${scale.reads}, server answers at once`,
			short: 'Read, instant',
			work: 'read',
			binaryMode: 'filesystem',
			latencyMs: 0,
			rounds: scale.rounds,
			contenders: contenders([...READ_IDS, 'undici.fresh'], scale.reads),
			comparisons: readComparisons(0),
		},
		{
			id: 'read-50ms',
			title: `Get Balance × ${scale.reads} (sequential: × ${scale.slowSequentialReads}), server answers after 50 ms`,
			short: 'Read, 50 ms',
			work: 'read',
			binaryMode: 'filesystem',
			latencyMs: 50,
			rounds: scale.rounds,
			contenders: contenders(READ_IDS, scale.reads, scale.slowSequentialReads),
			comparisons: readComparisons(50),
		},
		create('binary', 'filesystem', `Create × ${scale.creates}, a 1 MiB PDF per item from binary data, filesystem mode`, 'Create, binary (disk)'),
		create('binary', 'default', `Create × ${scale.creates}, a 1 MiB PDF per item from binary data, memory mode`, 'Create, binary (memory)'),
		create('base64', 'filesystem', `Create × ${scale.creates}, a 1 MiB PDF per item as base64 in the item`, 'Create, base64'),
		create('binary', 'filesystem', `Create × ${scale.creates}, one 1 MiB PDF shared by every item, filesystem mode`, 'Create, shared PDF (disk)', true),
		create('url', 'filesystem', `Create × ${scale.creates}, PDF by URL`, 'Create, URL'),
	];
}
