/**
 * Whether an encrypted PDF opens without a password: the standard security handler's check of the
 * empty user password (ISO 32000-1 section 7.6.3, algorithms 2, 4, 5 and 6; ISO 32000-2 algorithms
 * 2.A, 2.B and 11). A file protected only by an owner password opens for anyone, so it is not
 * "password-protected" for the person sending it. Any other handler, or a dictionary this cannot
 * read, is "unknown": the service decides.
 */
import { createCipheriv, createHash } from 'node:crypto';

import type { PdfDict } from './pdfSyntax';
import { bytesOf, nameOf } from './pdfSyntax';

export type Opening = 'open' | 'password' | 'unknown';

/** The 32 bytes an empty (or short) password is padded with. */
export const PASSWORD_PADDING = Buffer.from('28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a', 'hex');

export function rc4(key: Uint8Array, data: Uint8Array): Buffer {
	const s = Uint8Array.from({ length: 256 }, (_, i) => i);
	for (let i = 0, j = 0; i < 256; i++) {
		j = (j + s[i] + key[i % key.length]) & 0xff;
		[s[i], s[j]] = [s[j], s[i]];
	}
	const out = Buffer.alloc(data.length);
	for (let k = 0, i = 0, j = 0; k < data.length; k++) {
		i = (i + 1) & 0xff;
		j = (j + s[i]) & 0xff;
		[s[i], s[j]] = [s[j], s[i]];
		out[k] = data[k] ^ s[(s[i] + s[j]) & 0xff];
	}
	return out;
}

export const md5 = (...parts: Uint8Array[]) => createHash('md5').update(Buffer.concat(parts)).digest();

/** Algorithm 2: the file key of revisions 2 to 4 for a padded password. */
export function legacyFileKey(padded: Uint8Array, o: Uint8Array, p: number, id: Uint8Array, revision: number, length: number, encryptMetadata = true): Buffer {
	const permissions = Buffer.alloc(4);
	permissions.writeUInt32LE(p >>> 0);
	const noMetadata = revision >= 4 && !encryptMetadata ? Buffer.from([0xff, 0xff, 0xff, 0xff]) : Buffer.alloc(0);
	let hash = md5(padded, o.subarray(0, 32), permissions, id, noMetadata);
	if (revision >= 3) for (let i = 0; i < 50; i++) hash = md5(hash.subarray(0, length));
	return hash.subarray(0, length);
}

/** Algorithms 4 and 5: the /U value revisions 2 to 4 store for a file key (first 16 bytes for 3 and 4). */
export function legacyUserValue(key: Uint8Array, id: Uint8Array, revision: number): Buffer {
	if (revision === 2) return rc4(key, PASSWORD_PADDING);
	let value = rc4(key, md5(PASSWORD_PADDING, id));
	for (let i = 1; i <= 19; i++) value = rc4(key.map((b) => b ^ i), value);
	return value;
}

/** Algorithm 2.B: the hash of revision 6 (revision 5 is a single SHA-256). */
export function revision6Hash(password: Uint8Array, salt: Uint8Array, userKey: Uint8Array): Buffer {
	let k = createHash('sha256').update(Buffer.concat([password, salt, userKey])).digest();
	for (let round = 0; ; round++) {
		const block = Buffer.concat([password, k, userKey]);
		const cipher = createCipheriv('aes-128-cbc', k.subarray(0, 16), k.subarray(16, 32)).setAutoPadding(false);
		const e = Buffer.concat([cipher.update(Buffer.concat(Array<Buffer>(64).fill(block))), cipher.final()]);
		// The first 16 bytes as a number, modulo 3, is the sum of those bytes modulo 3 (256 ≡ 1).
		const hash = ['sha256', 'sha384', 'sha512'][e.subarray(0, 16).reduce((sum, b) => sum + b, 0) % 3];
		k = createHash(hash).update(e).digest();
		if (round >= 63 && e[e.length - 1] <= round - 31) return k.subarray(0, 32);
	}
}

/** Whether the file opens with the empty user password, from its encryption dictionary and first /ID. */
export function openingOf(encrypt: PdfDict, id: Uint8Array | undefined): Opening {
	const entry = encrypt.entries;
	const [o, u, revision, p, version] = [bytesOf(entry.O), bytesOf(entry.U), entry.R, entry.P, entry.V];
	if (nameOf(entry.Filter) !== 'Standard' || !o || !u || typeof revision !== 'number') return 'unknown';
	if (revision >= 2 && revision <= 4) {
		if (o.length < 32 || u.length < 32 || typeof p !== 'number') return 'unknown';
		const bits = typeof version === 'number' && version >= 4 ? 128 : typeof entry.Length === 'number' ? entry.Length : 40;
		const length = revision === 2 ? 5 : bits / 8;
		if (!Number.isInteger(length) || length < 5 || length > 16) return 'unknown';
		const key = legacyFileKey(PASSWORD_PADDING, o, p, id ?? new Uint8Array(), revision, length, entry.EncryptMetadata !== false);
		const expected = legacyUserValue(key, id ?? new Uint8Array(), revision);
		const compared = revision === 2 ? 32 : 16;
		return expected.subarray(0, compared).equals(u.subarray(0, compared)) ? 'open' : 'password';
	}
	if (revision === 5 || revision === 6) {
		if (u.length < 48) return 'unknown';
		const salt = u.subarray(32, 40);
		const hash = revision === 5 ? createHash('sha256').update(salt).digest() : revision6Hash(new Uint8Array(), salt, new Uint8Array());
		return hash.equals(u.subarray(0, 32)) ? 'open' : 'password';
	}
	return 'unknown';
}
