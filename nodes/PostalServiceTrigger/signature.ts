import { createHmac, timingSafeEqual } from 'node:crypto';

const SIGNATURE_PREFIX = 'sha256=';

/** `sha256=<hex>` of the exact bytes, as the service writes it in `X-Webhook-Signature`. */
export function signBody(secret: string, rawBody: Buffer | string): string {
	return SIGNATURE_PREFIX + createHmac('sha256', secret).update(rawBody).digest('hex');
}

/**
 * Whether `header` is the signature of `rawBody` under `secret`. The body must be the bytes as
 * received: a body parsed and serialized again (other whitespace, key order, escapes) no longer
 * matches, and must not.
 */
export function isValidSignature(secret: string, rawBody: Buffer, header: string | undefined): boolean {
	if (typeof header !== 'string' || secret === '') return false;
	const value = header.trim();
	// The prefix names the algorithm; anything else is not a signature this node can check.
	if (value.slice(0, SIGNATURE_PREFIX.length).toLowerCase() !== SIGNATURE_PREFIX) return false;
	const hex = value.slice(SIGNATURE_PREFIX.length);
	const expected = createHmac('sha256', secret).update(rawBody).digest();
	// Buffer.from(…, 'hex') stops at the first non-hex character, so a malformed value could decode
	// to a prefix of the right digest; only exactly 64 hex digits can be compared.
	if (!/^[0-9a-fA-F]{64}$/.test(hex)) return false;
	const received = Buffer.from(hex, 'hex');
	// timingSafeEqual throws on different lengths; the check above makes them equal, and this one
	// keeps it so if the digest ever changes.
	if (received.length !== expected.length) return false;
	return timingSafeEqual(received, expected);
}
