import { createHmac } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import { isValidSignature, signBody } from '../../nodes/PostalServiceTrigger/verification';

const secret = 'signature-unit-secret';
const body = Buffer.from('{"event":"webhook.test","delivery_id":1,"data":{"message":"olá"}}');
const hex = createHmac('sha256', secret).update(body).digest('hex');

describe('signature', () => {
	it('is sha256= and the hex HMAC-SHA256 of the exact bytes', () => {
		expect(signBody(secret, body)).toBe(`sha256=${hex}`);
		expect(isValidSignature(secret, body, `sha256=${hex}`)).toBe(true);
	});

	it('accepts upper-case hex, an upper-case prefix and surrounding spaces', () => {
		expect(isValidSignature(secret, body, `sha256=${hex.toUpperCase()}`)).toBe(true);
		expect(isValidSignature(secret, body, `SHA256=${hex}`)).toBe(true);
		expect(isValidSignature(secret, body, ` sha256=${hex} `)).toBe(true);
	});

	it('refuses another body, another secret, and the bytes decoded and encoded again', () => {
		expect(isValidSignature(secret, Buffer.from(body.toString() + ' '), `sha256=${hex}`)).toBe(false);
		expect(isValidSignature('other', body, `sha256=${hex}`)).toBe(false);
		const reencoded = Buffer.from(JSON.stringify(JSON.parse(body.toString('utf8'))), 'latin1');
		expect(isValidSignature(secret, reencoded, `sha256=${hex}`)).toBe(false);
	});

	it('refuses values of the wrong shape without throwing', () => {
		const wrong = [
			undefined,
			'',
			hex,
			'sha1=' + hex,
			'sha256=',
			`sha256=${hex.slice(0, 63)}`,
			`sha256=${hex}00`,
			`sha256=${hex.slice(0, 62)}zz`,
			`sha256=${hex.slice(0, 32)}`,
			'sha256=' + 'é'.repeat(64),
		];
		for (const value of wrong) expect(isValidSignature(secret, body, value)).toBe(false);
	});

	it('refuses everything when the secret is empty', () => {
		expect(isValidSignature('', body, signBody('', body))).toBe(false);
	});
});
