/**
 * The trigger's pure helpers on their own: reading the body and the keys that tell deliveries
 * apart, strict base64, verification answers. The engine tests next to this file run the same
 * code through n8n (the PDF check and file names in receipt.test.ts and trigger-accepted.test.ts).
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { type Delivery, readDelivery } from '../../nodes/PostalServiceTrigger/delivery';
import { decodeBase64 } from '../../nodes/PostalServiceTrigger/receipt';
import { checkSignature } from '../../nodes/PostalServiceTrigger/verification';
import { sign } from './support';

/** The delivery read from a text body, failing the test when it is refused. */
function read(text: string | Buffer, contentType = 'application/json'): Delivery {
	const result = readDelivery(Buffer.isBuffer(text) ? text : Buffer.from(text), contentType);
	if ('status' in result) throw new Error(`refused: ${result.status} ${result.message}`);
	return result;
}

// Charsets and a byte order mark are accepted through n8n in the forgery fuzz's encodings and content
// types (test/reliability/forgery.suite.ts), which reads no field; ids beyond 2^53 in duplicates-keys.test.ts.
describe('the keys of a delivery', () => {
	const body = (extra: IDataObject = {}) => ({
		event: 'order.status_updated',
		environment: 'production',
		timestamp: '2026-11-20 10:00:00',
		webhook_id: 3,
		delivery_id: 7,
		data: { id: '42', type: 'letter', status: { old: 0, new: 1 }, updated_at: '2026-11-20 10:00:00', note: 'olá "x"' },
		...extra,
	});

	it('reads the body as UTF-8 JSON: a byte order mark dropped, UTF-8 where Content-Type names no charset or is missing', () => {
		const bytes = Buffer.from(JSON.stringify(body()));
		const withBom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bytes]);
		for (const [raw, contentType] of [[withBom, 'application/json'], [bytes, 'text/plain'], [bytes, undefined]] as const) {
			const result = readDelivery(raw, contentType);
			expect('envelope' in result ? result.envelope : result, String(contentType)).toEqual(body());
		}
	});

	it('keys a delivery by its environment and delivery_id, and cannot be fooled by a colon', () => {
		expect(read(JSON.stringify(body())).deliveryKey()).toBe('d:production:7');
		expect(read(JSON.stringify(body({ environment: 'homolog', delivery_id: '7' }))).deliveryKey()).toBe('d:homolog:7');
		const key = (environment: string, id: string) => read(JSON.stringify(body({ environment, delivery_id: id }))).deliveryKey();
		expect(key('a:b', 'c')).not.toBe(key('a', 'b:c'));
		expect(read(JSON.stringify(body({ delivery_id: null }))).deliveryKey()).toBeUndefined();
		expect(read('{"event":"e"}').deliveryKey()).toBeUndefined();
	});

	it('keys the event by the body without delivery_id, however it is serialized', () => {
		const key = read(JSON.stringify(body())).eventKey();
		expect(key).toMatch(/^e:[\w-]{43}$/);
		expect(read(JSON.stringify(body({ delivery_id: 8 }))).eventKey()).toBe(key);
		const reordered = JSON.stringify(Object.fromEntries(Object.entries(body()).reverse()), null, '\t');
		const escaped = JSON.stringify(body()).replace('olá', 'ol\\u00e1');
		expect([read(reordered).eventKey(), read(escaped).eventKey()]).toEqual([key, key]);
	});

	it('tells events apart by any other field, numbers digit for digit', () => {
		const key = (value: IDataObject) => read(JSON.stringify(value)).eventKey();
		const first = key(body());
		expect(key(body({ timestamp: '2026-11-20 10:00:01' }))).not.toBe(first);
		expect(key(body({ webhook_id: 4 }))).not.toBe(first);
		expect(key(body({ environment: 'homolog' }))).not.toBe(first);
		expect(key({ ...body(), data: { ...body().data, extra: null } })).not.toBe(first);
		const withNumber = (written: string) => read(JSON.stringify(body()).replace('"webhook_id":3', `"webhook_id":${written}`)).eventKey();
		expect(withNumber('9007199254740993')).not.toBe(withNumber('9007199254740992'));
		expect(withNumber('3.0')).not.toBe(withNumber('3'));
		// null, true, false and strings of their letters stay apart.
		expect(new Set([null, true, false, 'n', 't', 'f', '', 0].map((value) => key(body({ data: { value } }))))).toHaveProperty('size', 8);
	});

	it('agrees for any envelope serialized again, and never keys a test event', () => {
		fc.assert(
			fc.property(fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 3 })), fc.nat(), fc.nat(4), (rest, id, indent) => {
				const envelope = { ...rest, event: 'order.created', delivery_id: id };
				const again = JSON.stringify(Object.fromEntries(Object.entries(envelope).reverse()), null, indent);
				expect(read(again).eventKey()).toBe(read(JSON.stringify({ ...envelope, delivery_id: id + 1 })).eventKey());
			}),
			{ seed: 11, numRuns: 300 },
		);
		expect(read(JSON.stringify(body({ event: 'webhook.test' }))).eventKey()).toBeUndefined();
	});
});

describe('return receipt file', () => {
	it('decodes strict base64 and agrees with Buffer on every valid encoding', () => {
		fc.assert(
			fc.property(fc.uint8Array({ minLength: 1, maxLength: 200 }), (bytes) => {
				const decoded = decodeBase64(Buffer.from(bytes).toString('base64'));
				expect(decoded).toEqual({ bytes: Buffer.from(bytes) });
			}),
			{ seed: 12, numRuns: 300 },
		);
	});

	it('refuses any character outside the standard alphabet, naming it and where it is', () => {
		const outside = fc.constantFrom('-', '_', ' ', '\t', '=', '$', '.', '*', 'é', '\u0000');
		fc.assert(
			fc.property(fc.uint8Array({ minLength: 3, maxLength: 300 }), outside, fc.nat(), (bytes, character, where) => {
				const valid = Buffer.from(bytes).toString('base64').replace(/=+$/, '');
				const at = where % (valid.length - 1);
				const text = valid.slice(0, at) + character + valid.slice(at + 1);
				const padded = text + '='.repeat((4 - (text.length % 4)) % 4);
				const decoded = decodeBase64(padded);
				expect(decoded).toMatchObject({ problem: expect.stringContaining('not valid base64') });
				if ('problem' in decoded && character !== '=') {
					expect(decoded.problem).toBe(`file.base64 is not valid base64: character ${JSON.stringify(character)} at position ${at}`);
				}
			}),
			{ seed: 14, numRuns: 500 },
		);
	});

	it('refuses a last character that leaves bits over before the padding', () => {
		expect(decodeBase64('QQ==')).toEqual({ bytes: Buffer.from('A') });
		expect(decodeBase64('QR==')).toMatchObject({ problem: expect.stringMatching(/padding/) });
		expect(decodeBase64('QUI=')).toEqual({ bytes: Buffer.from('AB') });
		expect(decodeBase64('QUJ=')).toMatchObject({ problem: expect.stringMatching(/padding/) });
	});
});

// A repeated or missing header, with and without Accept Unsigned Deliveries, is the forgery fuzz's
// signature header shapes (test/reliability/forgery.suite.ts), which always runs with a secret.
describe('verification answers', () => {
	it('fails closed without a secret, and says which header is missing or does not hold', () => {
		const body = Buffer.from('{"event":"webhook.test"}');
		expect(checkSignature('s', body, sign(body, 's'), false)).toBeUndefined();
		expect(checkSignature('', body, sign(body, ''), false)).toMatchObject({ status: 401 });
		expect(checkSignature('s', body, undefined, false)).toMatchObject({ status: 401, message: /Missing/ });
		expect(checkSignature('s', body, sign(body, 't'), true)).toMatchObject({ status: 401, message: /Invalid/ });
	});
});
