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
/** Check With the Service First, as a create contender sets it. */
export type CheckSetting = 'never' | 'auto' | 'always' | 'capped';

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
 * A contender's id says what it is: `kind.style[.check]`, like `pkg.b50.auto`. `kind` is pkg (this
 * package), helper, undici, http (n8n's HTTP Request node) or items (the start node alone); `style`
 * is seq (one at a time), w50 (50 in flight), b50 (the node's own Batching 50, interval 0), fresh or
 * default; `check` is Check With the Service First for the package's creates.
 */
export function parseContender(id: string): { kind: string; style: string; check?: CheckSetting } {
	const [kind, style = '', check] = id.split('.');
	return { kind, style, check: check as CheckSetting | undefined };
}

/** Requests a contender makes for `items` creates or reads: a check first doubles them (Auto: with more than one item). */
export function requestsFor(id: string, work: Work, items: number): number {
	const { kind, check } = parseContender(id);
	if (kind === 'items') return 0;
	const checked = work === 'create' && (check === 'always' || check === 'capped' || (check === 'auto' && items > 1));
	return checked ? 2 * items : items;
}

/** Batching of the pacing group: 5 items per batch, 200 ms between starts, so that the one pacing clock shows. */
export const PACED = { batchSize: 5, batchInterval: 200 };

/**
 * The package's parameters: Batching 50 with no pause for `b50`, the pacing group's Batching for
 * `p5`, and for a create the contender's Check With the Service First (`capped`: Never, with a
 * Maximum Price, so each item is priced just before its send).
 */
function packageParameters(work: Work, pdf: PdfSource | undefined, style: string, check: CheckSetting) {
	const batch = style === 'b50' ? { batchSize: BATCH, batchInterval: 0 } : style === 'p5' ? PACED : undefined;
	const options = batch ? { batching: { batch } } : {};
	if (work === 'read') return { resource: 'account', operation: 'getBalance', options };
	const source =
		pdf === 'url' ? { pdfSource: 'url', pdfUrl: PDF_URL } : pdf === 'base64' ? { pdfSource: 'base64', pdfBase64: '={{ $json.pdfBase64 }}' } : { pdfSource: 'binary' };
	// Auto is the default: the parameter is left out, as the editor leaves it.
	const additionalFields = check === 'auto' ? {} : check === 'capped' ? { checkWithService: 'never', maxPrice: 1000 } : { checkWithService: check };
	return { ...LETTER, ...source, additionalFields, options };
}

/**
 * The HTTP Request node as a user would set it up for the same route, at its defaults otherwise;
 * `b50` adds its own Batching option (50 items per batch, interval 0).
 */
function httpParameters(baseUrl: string, work: Work, pdf: PdfSource | undefined, batch: boolean) {
	const options = batch ? { options: { batching: { batch: { batchSize: BATCH, batchInterval: 0 } } } } : {};
	if (work === 'read') return { url: `${baseUrl}/api/v2/balance/${TOKEN}`, ...options };
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
		...options,
	};
}

function baseline(work: Work, pdf: PdfSource | undefined, concurrency: number, fresh: boolean): string {
	const setup: BaselineRequest = { kind: work, pdf, fields: LETTER_FIELDS, concurrency, fresh };
	return JSON.stringify(setup);
}

/**
 * The workflow of one contender: `Items` then `Node` (`Items` alone for the items' own memory).
 * `collect`: the start node collects the garbage of making the files as it goes (peak-memory runs).
 */
export function contenderWorkflow(
	group: GroupSpec,
	contender: ContenderSpec,
	baseUrl: string,
	pdfFile: string,
	items: number,
	collect = false,
): WorkflowJson {
	const { kind, style, check } = parseContender(contender.id);
	const concurrency = style === 'w50' ? BATCH : 1;
	const setup = { count: items, pdf: group.work === 'create' ? group.pdf : undefined, pdfFile, shared: group.sharedPdf, collect };
	const start = { name: 'Items', type: 'bench.items', parameters: { setup: JSON.stringify(setup) } };
	if (kind === 'items') return { nodes: [start], connections: {} };
	let node: WorkflowJson['nodes'][number];
	const credentials = { postalServiceApi: { id: 'bench', name: 'bench' } };
	if (kind === 'pkg') {
		if (group.work === 'create' && !check) throw new Error(`${contender.id}: a create contender of the package names its check (never, auto or always)`);
		node = { name: 'Node', type: PACKAGE_NODE, parameters: packageParameters(group.work, group.pdf, style, check ?? 'never'), credentials };
	} else if (kind === 'http') {
		node = { name: 'Node', type: HTTP_NODE, typeVersion: HTTP_NODE_VERSION, parameters: httpParameters(baseUrl, group.work, group.pdf, style === 'b50') };
	} else if (kind === 'helper') {
		node = { name: 'Node', type: 'bench.helperLoop', parameters: { setup: baseline(group.work, group.pdf, concurrency, false) }, credentials };
	} else if (kind === 'undici') {
		node = { name: 'Node', type: 'bench.undiciLoop', parameters: { setup: baseline(group.work, group.pdf, concurrency, style === 'fresh') }, credentials };
	} else {
		throw new Error(`unknown contender ${contender.id}`);
	}
	return {
		nodes: [start, node],
		connections: { Items: { main: [[{ node: 'Node', type: 'main', index: 0 }]] } },
	};
}

export const CONTENDER_LABELS: Record<string, string> = {
	'pkg.seq': 'Postal Service node, default (one item at a time)',
	'pkg.b50': 'Postal Service node, Batching 50 (interval 0)',
	'pkg.seq.never': 'Postal Service node, one item at a time, Check With the Service First: Never (one request per item)',
	'pkg.seq.auto': 'Postal Service node at its defaults: one item at a time, Check With the Service First: Auto (every item checked before any is sent, so each PDF goes twice)',
	'pkg.b50.never': 'Postal Service node, Batching 50 (interval 0), Check With the Service First: Never (one request per item)',
	'pkg.b50.auto': 'Postal Service node, Batching 50 (interval 0), Check With the Service First: Auto, the default (every item checked before any is sent, so each PDF goes twice)',
	'pkg.b50.always': 'Postal Service node, Batching 50 (interval 0), Check With the Service First: Always (the check pass, then the sends)',
	'pkg.p5.never': 'Postal Service node, Batching 5 with 200 ms between starts, Check With the Service First: Never (one request per item)',
	'pkg.p5.capped': 'Postal Service node, Batching 5 with 200 ms between starts, Maximum Price with Check: Never (a price, then the send, both on the one pacing clock)',
	'pkg.p5.auto': 'Postal Service node, Batching 5 with 200 ms between starts, Check With the Service First: Auto (the check pass, then the sends, on the one pacing clock)',
	'http.default': "n8n's HTTP Request node, default (every item in flight)",
	'http.b50': "n8n's HTTP Request node, Batching 50, interval 0 (it pauses only between batches, so with no interval every item is in flight)",
	'helper.seq': "loop over n8n's this.helpers.httpRequest, sequential",
	'helper.w50': "n8n's this.helpers.httpRequest alone in a sliding window of 50 (the floor under the package's Batching 50)",
	'undici.seq': 'raw undici loop, sequential, keep-alive',
	'undici.w50': 'raw undici, 50 in flight, keep-alive',
	'undici.fresh': 'raw undici loop, sequential, a new connection per request',
	items: 'the items alone (the start node that makes them, no send): the memory baseline',
};

function contenders(ids: string[], items: number, sequentialItems = items): ContenderSpec[] {
	return ids.map((id) => ({ id, label: CONTENDER_LABELS[id], items: parseContender(id).style === 'seq' || parseContender(id).style === 'fresh' ? sequentialItems : items }));
}

export interface Scale {
	reads: number;
	/** Sequential reads when each answer takes 50 ms. */
	slowSequentialReads: number;
	creates: number;
	rounds: number;
	/** Items of each memory case, and the fresh processes per contender (the median is kept). */
	memoryItems: number;
	memoryRuns: number;
	/** The memory cases run (all when not given). */
	memoryCases?: string[];
}

export const FULL: Scale = { reads: 1000, slowSequentialReads: 40, creates: 100, rounds: 5, memoryItems: 200, memoryRuns: 3 };
// Quick: the two memory cases that share their items and HTTP Request node (four processes, not ten).
export const QUICK: Scale = { reads: 200, slowSequentialReads: 20, creates: 20, rounds: 3, memoryItems: 200, memoryRuns: 1, memoryCases: ['memory-binary', 'memory-check'] };

const READ_IDS = ['pkg.seq', 'pkg.b50', 'helper.seq', 'helper.w50', 'undici.seq', 'undici.w50', 'http.default', 'http.b50'];
const CREATE_IDS = ['pkg.seq.never', 'pkg.seq.auto', 'pkg.b50.never', 'pkg.b50.auto', 'helper.seq', 'undici.seq', 'http.default', 'http.b50'];

const goal = (max: number) => ({ max, text: `≤ ${Number.isInteger(max) ? max.toFixed(1) : String(max)}×` });

const readComparisons = (latency: number): ComparisonSpec[] => [
	{ label: 'sequential vs helper loop', subject: 'pkg.seq', baseline: 'helper.seq', goal: goal(1.05) },
	{ label: 'sequential vs raw undici', subject: 'pkg.seq', baseline: 'undici.seq', goal: goal(2) },
	{ label: 'each at its default', subject: 'pkg.seq', baseline: 'http.default' },
	// The request helper alone in the same window: what any node built on n8n's helper can reach.
	{ label: 'Batching 50 vs the request helper in the same window (the floor)', subject: 'pkg.b50', baseline: 'helper.w50', goal: goal(1.05) },
	...(latency > 0
		? [
				{ label: 'Batching 50 vs the ideal', subject: 'pkg.b50', baseline: 'ideal', goal: goal(1.15) },
				{ label: 'the floor: request helper, 50 in flight, vs the ideal', subject: 'helper.w50', baseline: 'ideal' },
				{ label: 'undici, 50 in flight, vs the ideal', subject: 'undici.w50', baseline: 'ideal' },
				{ label: 'Batching 50 vs HTTP Request, Batching 50 (every item in flight)', subject: 'pkg.b50', baseline: 'http.b50' },
			]
		: [
				{ label: 'Batching 50 vs HTTP Request, Batching 50', subject: 'pkg.b50', baseline: 'http.b50', goal: goal(1) },
				{ label: 'the floor: request helper, 50 in flight, vs HTTP Request, Batching 50', subject: 'helper.w50', baseline: 'http.b50' },
				{ label: 'Batching 50 vs undici, 50 in flight', subject: 'pkg.b50', baseline: 'undici.w50' },
				{ label: 'cost of a connection per request (undici)', subject: 'undici.fresh', baseline: 'undici.seq' },
				// What no keep-alive plus n8n's helper costs any node: the floor under the package's sequential reads.
				{ label: "n8n's request helper loop vs undici keep-alive loop", subject: 'helper.seq', baseline: 'undici.seq' },
			]),
];

const createComparisons: ComparisonSpec[] = [
	{ label: 'one at a time, Never vs raw undici', subject: 'pkg.seq.never', baseline: 'undici.seq', goal: goal(1.1) },
	{ label: 'one at a time, Never vs helper loop', subject: 'pkg.seq.never', baseline: 'helper.seq' },
	{ label: 'each at its default (package: Auto)', subject: 'pkg.seq.auto', baseline: 'http.default' },
	{ label: 'Batching 50, Never vs HTTP Request, Batching 50', subject: 'pkg.b50.never', baseline: 'http.b50', goal: goal(1) },
	{ label: 'Batching 50, Auto (the default) vs HTTP Request, Batching 50', subject: 'pkg.b50.auto', baseline: 'http.b50' },
	{ label: "Auto's cost, Batching 50: Auto vs Never (each PDF sent twice)", subject: 'pkg.b50.auto', baseline: 'pkg.b50.never' },
	{ label: "Auto's cost, one at a time: Auto vs Never", subject: 'pkg.seq.auto', baseline: 'pkg.seq.never' },
];

function createGroup(scale: Scale, pdf: PdfSource, binaryMode: GroupSpec['binaryMode'], title: string, short: string, sharedPdf = false): GroupSpec {
	return {
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
	};
}

export function groups(scale: Scale): GroupSpec[] {
	const create = (pdf: PdfSource, binaryMode: GroupSpec['binaryMode'], title: string, short: string, sharedPdf = false) =>
		createGroup(scale, pdf, binaryMode, title, short, sharedPdf);
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
		// What one pacing clock for every request costs: a price or a check before each send now waits for its start like the send.
		{
			id: 'create-paced',
			title: `Create × 20, Batching ${PACED.batchSize} with ${PACED.batchInterval} ms between starts, a 1 MiB PDF per item (disk)`,
			short: 'Create, paced',
			work: 'create',
			pdf: 'binary',
			binaryMode: 'filesystem',
			latencyMs: 0,
			rounds: scale.rounds,
			contenders: contenders(['pkg.p5.never', 'pkg.p5.capped', 'pkg.p5.auto'], 20),
			comparisons: [
				{ label: 'cost of the one pacing clock to a price before each send (Maximum Price, Never)', subject: 'pkg.p5.capped', baseline: 'pkg.p5.never' },
				{ label: 'cost of the one pacing clock to the check pass (Auto)', subject: 'pkg.p5.auto', baseline: 'pkg.p5.never' },
			],
		},
	];
}

/**
 * A memory case: the package and n8n's HTTP Request node send the same items, each contender in
 * fresh processes of its own, and each is measured by how far its peak RSS rises above the items
 * held alone (the start node run without any send, in a fresh process too).
 */
export interface MemoryCaseSpec {
	id: string;
	title: string;
	short: string;
	/** The items and how they are stored; its contenders are the three below. */
	group: GroupSpec;
	subject: string;
	/** n8n's HTTP Request node sending the same items. */
	anchor: string;
	/** The items alone. */
	baseline: string;
}

export const MEMORY_ANCHOR = 'http.b50';

export function memoryCases(scale: Scale): MemoryCaseSpec[] {
	const n = scale.memoryItems;
	const items = (group: GroupSpec, subject: string): GroupSpec => ({ ...group, rounds: 1, contenders: contenders(['items', subject, MEMORY_ANCHOR], n), comparisons: [] });
	const disk = createGroup(scale, 'binary', 'filesystem', `${n} items, a 1 MiB PDF each from binary data, filesystem mode`, 'binary (disk)');
	const base64 = createGroup(scale, 'base64', 'filesystem', `${n} items, a 1 MiB PDF each as base64 in the item`, 'base64');
	const shared = createGroup(scale, 'binary', 'filesystem', `${n} items referring to one stored 1 MiB PDF, filesystem mode`, 'shared PDF (disk)', true);
	const spec = (id: string, group: GroupSpec, subject: string, title: string, short: string): MemoryCaseSpec => ({
		id,
		title,
		short,
		group: items(group, subject),
		subject,
		anchor: MEMORY_ANCHOR,
		baseline: 'items',
	});
	const all = [
		spec('memory-binary', disk, 'pkg.b50.never', `Send × ${n}, Batching 50, a 1 MiB PDF per item (disk)`, 'Memory, binary (disk)'),
		spec('memory-check', disk, 'pkg.b50.always', `Send × ${n}, Batching 50, Check With the Service First: Always (the check pass, then the sends)`, 'Memory, check pass (disk)'),
		spec('memory-base64', base64, 'pkg.b50.never', `Send × ${n}, Batching 50, a 1 MiB PDF per item as base64`, 'Memory, base64'),
		spec('memory-shared', shared, 'pkg.b50.never', `Send × ${n}, Batching 50, one 1 MiB PDF shared by every item (disk)`, 'Memory, shared PDF (disk)'),
	];
	return all.filter((c) => !scale.memoryCases || scale.memoryCases.includes(c.id));
}
