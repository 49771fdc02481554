/**
 * The trigger's pure helpers on their own: body decoding, the delivery_id scanner, strict base64,
 * the PDF check, verification answers, and the process memory. The engine tests next to this file
 * run the same code through n8n.
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { charsetOf, decodeBody, parseEnvelope, topLevelMemberText } from '../../nodes/PostalServiceTrigger/body';
import {
	CLAIM_LIFETIME_MS,
	DEDUP_WINDOW,
	NodeMemory,
	storedKeys,
	storeKeys,
} from '../../nodes/PostalServiceTrigger/deliveryMemory';
import { deliveryKey } from '../../nodes/PostalServiceTrigger/deliveryKeys';
import { decodeBase64, pdfProblem, safeFileName } from '../../nodes/PostalServiceTrigger/receipt';
import { checkAge, checkSignature } from '../../nodes/PostalServiceTrigger/verification';
import { serviceTime, sign } from './support';

describe('body decoding', () => {
	it('reads the charset parameter as n8n does: any case, quoted or not, UTF-8 when absent', () => {
		expect(charsetOf(undefined)).toBe('utf-8');
		expect(charsetOf('application/json')).toBe('utf-8');
		expect(charsetOf('application/json; Charset="UTF-16LE"')).toBe('utf-16le');
		expect(charsetOf('application/json;charset=latin1;foo=bar')).toBe('latin1');
	});

	it('drops one byte order mark after decoding, in every charset', () => {
		const text = '{"event":"a"}';
		expect(decodeBody(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]), undefined)).toEqual({ text });
		const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
		expect(decodeBody(utf16, 'application/json; charset=utf-16le')).toEqual({ text });
		expect(decodeBody(Buffer.from(`\ufeff\ufeff${text}`), undefined)).toEqual({ text: `\ufeff${text}` });
	});

	it('replaces invalid UTF-8 as n8n does instead of refusing it, and names a charset it cannot read', () => {
		expect(decodeBody(Buffer.from([0x22, 0xff, 0x22]), undefined)).toEqual({ text: '"\ufffd"' });
		expect(decodeBody(Buffer.from('{}'), 'application/json; charset=hex')).toEqual({ unsupportedCharset: 'hex' });
		expect(decodeBody(Buffer.from('{}'), 'application/json; charset=constructor')).toEqual({ unsupportedCharset: 'constructor' });
	});
});

describe('delivery_id as written', () => {
	it('finds the top-level member whatever comes before it, as JSON.parse would (last one wins)', () => {
		expect(topLevelMemberText('{"delivery_id":12}', 'delivery_id')).toBe('12');
		expect(topLevelMemberText(' { "a" : [1,{"delivery_id":3}], "delivery_id" : -7 , "b":"}"}', 'delivery_id')).toBe('-7');
		expect(topLevelMemberText('{"delivery_id":1,"delivery_id":2}', 'delivery_id')).toBe('2');
		expect(topLevelMemberText('{"delivery\\u005fid":"x\\"y"}', 'delivery_id')).toBe('x"y');
		expect(topLevelMemberText('{"s":"a\\\\","delivery_id":5}', 'delivery_id')).toBe('5');
	});

	it('gives nothing for absent, null or nested ids, and for text that is not an object', () => {
		for (const text of ['{}', '{"delivery_id":null}', '{"data":{"delivery_id":1}}', '[{"delivery_id":1}]', '"x"', '{"delivery_id":']) {
			expect(topLevelMemberText(text, 'delivery_id'), text).toBeUndefined();
		}
	});

	it('agrees with JSON.parse on any object JSON.stringify writes', () => {
		fc.assert(
			fc.property(fc.dictionary(fc.string(), fc.jsonValue()), fc.oneof(fc.integer(), fc.string()), fc.nat(), (rest, id, at) => {
				const entries = Object.entries(rest).filter(([k]) => k !== 'delivery_id');
				entries.splice(at % (entries.length + 1), 0, ['delivery_id', id]);
				const text = JSON.stringify(Object.fromEntries(entries));
				expect(topLevelMemberText(text, 'delivery_id')).toBe(String(JSON.parse(text).delivery_id));
			}),
			{ seed: 11, numRuns: 300 },
		);
	});

	it('gives ids beyond 2^53 to the workflow as their digits, and leaves the others as JSON.parse reads them', () => {
		const big = parseEnvelope('{"event":"e","delivery_id":18446744073709551617}');
		expect(big).toEqual({ envelope: { event: 'e', delivery_id: '18446744073709551617' } });
		expect(parseEnvelope('{"event":"e","delivery_id":42}')).toEqual({ envelope: { event: 'e', delivery_id: 42 } });
		expect(parseEnvelope('{"event":"e","delivery_id":"abc"}')).toEqual({ envelope: { event: 'e', delivery_id: 'abc' } });
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

	it('tells a PDF from other bytes and from a PDF cut short', () => {
		expect(pdfProblem(Buffer.from('%PDF-1.4\n...\n%%EOF'))).toBeUndefined();
		expect(pdfProblem(Buffer.from('junk before\n%PDF-1.4\n%%EOF\n\n'))).toBeUndefined();
		expect(pdfProblem(Buffer.from('%%EOF then %PDF-1.4'))).toMatch(/%%EOF/);
		expect(pdfProblem(Buffer.from('GIF89a'))).toMatch(/not a PDF/);
		expect(pdfProblem(Buffer.alloc(0))).toMatch(/not a PDF/);
	});

	it('takes only the last part of a file name', () => {
		expect(safeFileName('../../etc/passwd', 'f.pdf')).toBe('passwd');
		expect(safeFileName('C:\\scans\\AR 1.pdf', 'f.pdf')).toBe('AR 1.pdf');
		expect(safeFileName('..', 'f.pdf')).toBe('f.pdf');
		expect(safeFileName(7, 'f.pdf')).toBe('f.pdf');
	});
});

describe('verification answers', () => {
	const body = Buffer.from('{"event":"webhook.test"}');
	it('fails closed: no secret, a repeated header or a missing one are refused', () => {
		expect(checkSignature('s', body, sign(body, 's'), false)).toBeUndefined();
		expect(checkSignature('', body, sign(body, ''), false)).toMatchObject({ status: 401 });
		expect(checkSignature('s', body, [sign(body, 's'), sign(body, 's')], false)).toMatchObject({ status: 401 });
		expect(checkSignature('s', body, undefined, false)).toMatchObject({ status: 401, message: /Missing/ });
		expect(checkSignature('s', body, undefined, true)).toBeUndefined();
		expect(checkSignature('s', body, sign(body, 't'), true)).toMatchObject({ status: 401, message: /Invalid/ });
	});

	it('checks the age only when a maximum is set', () => {
		expect(checkAge(undefined, undefined)).toBeUndefined();
		expect(checkAge(serviceTime(-10), 60)).toBeUndefined();
		expect(checkAge(serviceTime(-120), 60)).toMatchObject({ status: 401 });
		expect(checkAge('yesterday', 60)).toMatchObject({ status: 401, message: /unreadable/ });
	});
});

describe('delivery memory', () => {
	it('keys deliveries by environment and id, and cannot be fooled by a colon', () => {
		expect(deliveryKey({ environment: 'production', delivery_id: 5 })).toBe('production:5');
		expect(deliveryKey({ environment: 'homolog', delivery_id: '5' })).toBe('homolog:5');
		expect(deliveryKey({ environment: 'a:b', delivery_id: 'c' })).not.toBe(deliveryKey({ environment: 'a', delivery_id: 'b:c' }));
		expect(deliveryKey({ environment: 'production' })).toBeUndefined();
		expect(deliveryKey({ environment: 'production', delivery_id: null })).toBeUndefined();
	});

	it('writes static data only when it changes, oldest first, within the window', () => {
		const staticData: IDataObject = {};
		storeKeys(staticData, ['a', 'b']);
		const first = staticData.acceptedDeliveries;
		storeKeys(staticData, ['b', 'a']);
		expect(staticData.acceptedDeliveries).toBe(first);
		storeKeys(staticData, Array.from({ length: DEDUP_WINDOW }, (_, i) => `k${i}`));
		expect(storedKeys(staticData)).toHaveLength(DEDUP_WINDOW);
		expect(storedKeys(staticData)[0]).toBe('k0');
	});

	it("holds a claim until its lifetime ends, and settles it with its request's outcome", async () => {
		const memory = new NodeMemory();
		const first = memory.claim(['k'], 1_000);
		expect(memory.claimOf(['k'], 1_000 + CLAIM_LIFETIME_MS - 1)).toBe(first);
		expect(memory.claimOf(['k'], 1_000 + CLAIM_LIFETIME_MS)).toBeUndefined();

		const failed = memory.claim(['k'], 5_000);
		memory.settle(['k'], failed, false);
		expect(await failed.outcome).toBe(false);
		expect(memory.claimOf(['k'], 5_000)).toBeUndefined();
		expect(memory.hasRun('k')).toBe(false);

		const ran = memory.claim(['k'], 6_000);
		memory.settle(['k'], ran, true);
		memory.settle(['k'], ran, false);
		expect(await ran.outcome).toBe(true);
		expect(memory.hasRun('k')).toBe(true);

		// A claim covers every key of its delivery (its delivery_id and its event).
		const both = memory.claim(['id', 'event'], 7_000);
		expect(memory.claimOf(['other-id', 'event'], 7_000)).toBe(both);
		memory.settle(['id', 'event'], both, true);
		expect([memory.hasRun('id'), memory.hasRun('event')]).toEqual([true, true]);
	});

	it('settles the claims it forgets as not run, so that their copies take over', async () => {
		const memory = new NodeMemory();
		const claim = memory.claim(['k'], 0);
		memory.forget();
		expect(await claim.outcome).toBe(false);
	});

	it('runs exclusive tasks one after the other, even when one fails', async () => {
		const memory = new NodeMemory();
		const order: string[] = [];
		const task = (name: string, fail = false) => async () => {
			order.push(`${name}:start`);
			await new Promise((resolve) => setImmediate(resolve));
			order.push(`${name}:end`);
			if (fail) throw new Error(name);
		};
		const results = await Promise.allSettled([memory.exclusive(task('a', true)), memory.exclusive(task('b')), memory.exclusive(task('c'))]);
		expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled', 'fulfilled']);
		expect(order).toEqual(['a:start', 'a:end', 'b:start', 'b:end', 'c:start', 'c:end']);
	});
});
