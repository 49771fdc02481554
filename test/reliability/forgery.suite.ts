/**
 * Forgery fuzz: generated deliveries through the trigger in n8n's engine (a real WebhookContext),
 * most of them altered on the way, some of them genuine. A delivery whose signature does not hold
 * (judged by an oracle written apart from the node) must start nothing; a genuine one must start
 * its execution, unless Content-Type names a charset other than UTF-8, which is refused (415).
 * Every input comes from fast-check, seeded from the run's seed.
 */
import { createHmac } from 'node:crypto';

import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { ENVIRONMENT_NAMES, WEBHOOK_EVENT_NAMES } from '../../nodes/PostalServiceTrigger/webhookLists';
import { deliver, delivery, hmacHex, SECRET, serviceTime, sign } from '../trigger/support';
import { counter, triggerLeaks, type SuiteRow, type ReliabilitySuite } from './types';

/** A delivery as it reaches n8n, a header possibly given as a list. */
type Request = { headers: Record<string, string | string[]>; rawBody: Buffer };

/**
 * Whether the delivery carries a signature that holds for its bytes under the real secret, as the
 * spec defines it: one `sha256=` value (spaces around it and the case of the hex aside) equal to
 * the HMAC-SHA256 of the exact bytes.
 */
function signatureHolds(request: Request): boolean {
	const value = request.headers['x-webhook-signature'];
	return typeof value === 'string' && value.trim().toLowerCase() === sign(request.rawBody);
}

interface Case {
	request: Request;
	acceptUnsigned?: boolean;
}

const envelope: fc.Arbitrary<IDataObject> = fc.record({
	event: fc.constantFrom(...WEBHOOK_EVENT_NAMES),
	environment: fc.constantFrom(...ENVIRONMENT_NAMES),
	timestamp: fc.constant(serviceTime()),
	webhook_id: fc.nat(1000),
	delivery_id: fc.nat(),
	data: fc.dictionary(fc.string({ unit: 'grapheme', maxLength: 12 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 5 }),
}) as fc.Arbitrary<IDataObject>;

const genuine = envelope.map((e): Request => delivery(e));

const withBody = (request: Request, rawBody: Buffer): Request => ({ ...request, rawBody });
/** The request with a header set to `value`, or without it. */
const withHeader = (request: Request, name: string, value: string | string[] | undefined): Request => {
	const headers = { ...request.headers };
	if (value === undefined) delete headers[name];
	else headers[name] = value;
	return { ...request, headers };
};

const bitFlips: fc.Arbitrary<Case> = fc
	.tuple(genuine, fc.array(fc.tuple(fc.nat(), fc.nat(7)), { minLength: 1, maxLength: 3 }))
	.map(([request, flips]) => {
		const body = Buffer.from(request.rawBody);
		for (const [at, bit] of flips) body[at % body.length] ^= 1 << bit;
		return { request: withBody(request, body) };
	});

const cutsAndAdditions: fc.Arbitrary<Case> = fc
	.tuple(genuine, fc.nat(), fc.constantFrom('cut', 'append', 'prepend', 'member', 'bom'), fc.uint8Array({ minLength: 1, maxLength: 8 }))
	.map(([request, n, how, extra]) => {
		const body = request.rawBody;
		const text = body.toString('utf8');
		const changed = {
			cut: () => body.subarray(0, n % body.length),
			append: () => Buffer.concat([body, Buffer.from(extra)]),
			prepend: () => Buffer.concat([Buffer.from([[0x20, 0x0a, 0x09][n % 3]]), body]),
			member: () => Buffer.from(`${text.slice(0, -1)},"delivery_id":${n}}`),
			bom: () => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), body]),
		}[how]();
		return { request: withBody(request, changed) };
	});

const reserializations: fc.Arbitrary<Case> = fc
	.tuple(genuine, fc.constantFrom('indent', 'tab', 'reorder', 'escape', 'slash', 'float', 'crlf', 'newline', 'same'), fc.nat())
	.map(([request, how, n]) => {
		const parsed = JSON.parse(request.rawBody.toString('utf8')) as IDataObject;
		const text = {
			indent: () => JSON.stringify(parsed, null, 1 + (n % 4)),
			tab: () => JSON.stringify(parsed, null, '\t'),
			reorder: () => JSON.stringify(Object.fromEntries(Object.entries(parsed).sort(() => (n++ % 3) - 1))),
			escape: () => JSON.stringify(parsed).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
			slash: () => JSON.stringify({ ...parsed, event: String(parsed.event).replace('.', '\\u002e') }),
			float: () => JSON.stringify(parsed).replace(/"delivery_id":(\d+)/, '"delivery_id":$1.0'),
			crlf: () => JSON.stringify(parsed, null, 2).replace(/\n/g, '\r\n'),
			newline: () => `${JSON.stringify(parsed)}\n`,
			same: () => JSON.stringify(parsed),
		}[how]();
		return { request: withBody(request, Buffer.from(text)) };
	});

const otherSecrets: fc.Arbitrary<Case> = fc
	.tuple(envelope, fc.oneof(fc.string({ minLength: 1 }), fc.nat(SECRET.length - 1), fc.constantFrom('upper', 'newline', 'space', 'short', 'long', 'empty')))
	.map(([e, variant]) => {
		let secret: string;
		if (typeof variant === 'number') {
			const c = SECRET[variant]!;
			secret = SECRET.slice(0, variant) + (c === 'x' ? 'y' : 'x') + SECRET.slice(variant + 1);
		} else {
			const nearMisses = new Map([
				['upper', SECRET.toUpperCase()],
				['newline', `${SECRET}\n`],
				['space', ` ${SECRET}`],
				['short', SECRET.slice(0, -1)],
				['long', `${SECRET}0`],
				['empty', ''],
			]);
			secret = nearMisses.get(variant) ?? variant;
		}
		return { request: delivery(e, { secret }) };
	});

/** The charset Content-Type names, lower case and unquoted; UTF-8 when it names none. */
function namedCharset(request: Request): string {
	const match = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(String(request.headers['content-type'] ?? ''));
	return match ? match[1].toLowerCase() : 'utf-8';
}
const readsAsUtf8 = (request: Request) => ['utf-8', 'utf8'].includes(namedCharset(request));

const SHAPES = [
	'missing', 'empty', 'prefix only', 'no prefix', 'sha1', 'sha512', 'upper prefix', 'upper hex', 'outer spaces',
	'inner space', 'short', 'long', 'one digit off', 'joined twice', 'list', 'base64', 'other body', 'colon', 'v1', 'tab',
] as const;

const headerShapes: fc.Arbitrary<Case> = fc.tuple(genuine, fc.constantFrom(...SHAPES), fc.nat(63)).map(([request, shape, at]) => {
	const hex = hmacHex(SECRET, request.rawBody);
	const good = `sha256=${hex}`;
	const flipped = hex.slice(0, at) + (hex[at] === '0' ? '1' : '0') + hex.slice(at + 1);
	const value: Record<(typeof SHAPES)[number], string | string[] | undefined> = {
		missing: undefined,
		empty: '',
		'prefix only': 'sha256=',
		'no prefix': hex,
		sha1: `sha1=${createHmac('sha1', SECRET).update(request.rawBody).digest('hex')}`,
		sha512: `sha512=${createHmac('sha512', SECRET).update(request.rawBody).digest('hex')}`,
		'upper prefix': `SHA256=${hex}`,
		'upper hex': `sha256=${hex.toUpperCase()}`,
		'outer spaces': `  ${good} `,
		'inner space': `sha256= ${hex}`,
		short: good.slice(0, -1),
		long: `${good}0`,
		'one digit off': `sha256=${flipped}`,
		'joined twice': `${good}, ${good}`,
		list: [good, good],
		base64: `sha256=${createHmac('sha256', SECRET).update(request.rawBody).digest('base64')}`,
		'other body': `sha256=${hmacHex(SECRET, Buffer.concat([request.rawBody, Buffer.from(' ')]))}`,
		colon: `sha256:${hex}`,
		v1: `v1=${hex}`,
		tab: `${good}\t`,
	};
	return { request: withHeader(request, 'x-webhook-signature', value[shape]) };
});

// Text in pure ASCII (every other character escaped), so that any single-byte charset carries it.
const ascii = (e: IDataObject) => JSON.stringify(e).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

const encodings: fc.Arbitrary<Case> = fc
	.tuple(envelope, fc.constantFrom('utf-16le', 'bom', 'latin1', 'utf-16le unsigned bytes', 'latin1 unsigned bytes', 'bom after signing'))
	.map(([e, how]) => {
		const text = JSON.stringify(e);
		const utf8 = Buffer.from(text);
		const as = (bytes: Buffer, charset: string, signedBytes = bytes): Case => {
			const request = withBody(delivery(e), bytes);
			request.headers['x-webhook-signature'] = sign(signedBytes);
			request.headers['content-type'] = `application/json; charset=${charset}`;
			return { request };
		};
		if (how === 'utf-16le') return as(Buffer.from(text, 'utf16le'), 'utf-16le');
		if (how === 'bom') return as(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), utf8]), 'utf-8');
		if (how === 'latin1') return as(Buffer.from(ascii(e), 'latin1'), 'iso-8859-1');
		if (how === 'utf-16le unsigned bytes') return as(Buffer.from(text, 'utf16le'), 'utf-16le', utf8);
		if (how === 'latin1 unsigned bytes') return as(Buffer.from(text, 'latin1'), 'latin1', utf8);
		return as(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), utf8]), 'utf-8', utf8);
	});

const CONTENT_TYPES = [
	'application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON', 'text/plain', 'application/x-www-form-urlencoded',
	'application/octet-stream', 'multipart/form-data; boundary=x', '', undefined,
];

const contentTypes: fc.Arbitrary<Case> = fc
	.tuple(genuine, fc.constantFrom(...CONTENT_TYPES), fc.boolean(), fc.nat())
	.map(([request, contentType, tamper, at]) => {
		const body = Buffer.from(request.rawBody);
		if (tamper) body[at % body.length] ^= 0x01;
		return { request: withHeader(withBody(request, body), 'content-type', contentType) };
	});

const unsignedAccepted: fc.Arbitrary<Case> = fc
	.oneof(headerShapes, bitFlips, otherSecrets)
	.map((c) => ({ ...c, acceptUnsigned: true }));

const FAMILIES: Array<{ name: string; count: number; cases: fc.Arbitrary<Case> }> = [
	{ name: 'bit flips of signed bodies', count: 2000, cases: bitFlips },
	{ name: 'truncations, additions, a BOM or a member added', count: 1500, cases: cutsAndAdditions },
	{ name: 're-serializations of the same JSON', count: 1500, cases: reserializations },
	{ name: 'wrong and near-miss secrets', count: 1500, cases: otherSecrets },
	{ name: 'signature header shapes', count: 2000, cases: headerShapes },
	{ name: 'encodings and charsets', count: 1000, cases: encodings },
	{ name: 'content types', count: 700, cases: contentTypes },
	{ name: 'the same with Accept Unsigned Deliveries on', count: 800, cases: unsignedAccepted },
	{ name: 'genuine deliveries (controls)', count: 500, cases: genuine.map((request) => ({ request })) },
];

export const suite: ReliabilitySuite = {
	name: 'Forgery fuzz',
	async run(context) {
		const rows: SuiteRow[] = [];
		// Over every family: genuine deliveries not accepted, and genuine ones in another charset not refused with 415.
		const genuine = counter(context.log);
		const otherCharset = counter(context.log);
		let leaks = 0;
		let total = 0;
		const started = Date.now();
		for (const [index, family] of FAMILIES.entries()) {
			const seed = context.seed + index;
			const cases = fc.sample(family.cases, { seed, numRuns: Math.max(1, Math.round(family.count * context.scale)) });
			const forged = counter(context.log);
			const before = { genuine: genuine.runs, refused: genuine.bad, otherCharsets: otherCharset.runs };
			for (const [at, { request, acceptUnsigned }] of cases.entries()) {
				const result = await deliver(request, { parameters: { environment: 'both', options: acceptUnsigned ? { acceptUnsigned: true } : {} } });
				leaks += triggerLeaks(result);
				const where = `${family.name} (seed ${seed}, case ${at})`;
				const unsignedAllowed = acceptUnsigned === true && request.headers['x-webhook-signature'] === undefined;
				if (!signatureHolds(request) && !unsignedAllowed) forged.check(!result.started, `${where}: forged delivery started an execution`);
				else if (!readsAsUtf8(request)) {
					const what = `${where}: genuine delivery in charset ${namedCharset(request)} not refused with 415: ${result.response.statusCode}`;
					otherCharset.check(result.response.statusCode === 415 && !result.started, what);
				} else genuine.check(result.started && !result.run?.error, `${where}: genuine delivery refused: ${result.response.statusCode} ${JSON.stringify(result.response.body)}`);
			}
			total += cases.length;
			const controls = genuine.runs - before.genuine;
			const others = otherCharset.runs - before.otherCharsets;
			rows.push({
				case: family.name,
				runs: cases.length,
				measure: 'executions started by a delivery whose signature does not hold',
				bad: forged.bad,
				note: `${forged.runs} forged, ${forged.bad} started; ${controls - (genuine.bad - before.refused)}/${controls} genuine accepted${others ? `; ${others} genuine in another charset` : ''}`,
			});
		}
		rows.push({
			case: 'every genuine delivery among the above',
			runs: genuine.runs,
			measure: 'genuine deliveries not accepted',
			bad: genuine.bad,
			note: `${genuine.runs - genuine.bad} accepted`,
		});
		rows.push({
			case: 'every genuine delivery in a charset other than UTF-8 among the above',
			runs: otherCharset.runs,
			measure: 'not refused with 415, or an execution started',
			bad: otherCharset.bad,
			note: `${otherCharset.runs - otherCharset.bad} refused with 415`,
		});
		rows.push({
			case: 'signing secret in answers and execution data',
			runs: total,
			measure: 'occurrences of the secret (raw, URL-, form-, base64-encoded)',
			bad: leaks,
		});
		context.log(`${total} deliveries in ${((Date.now() - started) / 1000).toFixed(1)} s (${((Date.now() - started) / total).toFixed(2)} ms each)`);
		return rows;
	},
};
