/**
 * From the verified bytes to the envelope, the way n8n's own body parser reads a JSON body
 * (n8n 2.41: the charset of Content-Type, UTF-8 when none is named, a byte order mark dropped, and
 * invalid UTF-8 sequences replaced rather than refused), so that a body n8n accepts is accepted.
 */
import type { IDataObject } from 'n8n-workflow';

type TextEncoding = 'utf8' | 'utf16le' | 'latin1' | 'ascii';

// The names Node's Buffer decodes (which n8n hands the charset to), and the usual names of
// ISO-8859-1, which n8n 2.41 refuses (422) for JSON but other receivers may pass on.
const CHARSETS: Record<string, TextEncoding> = {
	'utf-8': 'utf8',
	utf8: 'utf8',
	'utf-16le': 'utf16le',
	utf16le: 'utf16le',
	'ucs-2': 'utf16le',
	ucs2: 'utf16le',
	latin1: 'latin1',
	binary: 'latin1',
	'iso-8859-1': 'latin1',
	'iso8859-1': 'latin1',
	iso_8859_1: 'latin1',
	'iso_8859-1': 'latin1',
	l1: 'latin1',
	ascii: 'ascii',
	'us-ascii': 'ascii',
};

/** The charset parameter of a Content-Type value, lower case; `utf-8` when there is none. */
export function charsetOf(contentType: string | undefined): string {
	for (const parameter of (contentType ?? '').split(';').slice(1)) {
		const separator = parameter.indexOf('=');
		if (separator === -1 || parameter.slice(0, separator).trim().toLowerCase() !== 'charset') continue;
		return parameter
			.slice(separator + 1)
			.trim()
			.replace(/^"(.*)"$/, '$1')
			.toLowerCase();
	}
	return 'utf-8';
}

type Decoded = { text: string } | { unsupportedCharset: string };

/** The body as text, in the charset Content-Type names, without a leading byte order mark. */
export function decodeBody(rawBody: Buffer, contentType: string | undefined): Decoded {
	const charset = charsetOf(contentType);
	const encoding = Object.hasOwn(CHARSETS, charset) ? CHARSETS[charset] : undefined;
	if (encoding === undefined) return { unsupportedCharset: charset };
	const text = rawBody.toString(encoding);
	return { text: text.charCodeAt(0) === 0xfeff ? text.slice(1) : text };
}

export type Envelope = IDataObject & { event: string };

type ParsedEnvelope = { envelope: Envelope } | { problem: string };

export function parseEnvelope(text: string): ParsedEnvelope {
	let parsed: unknown;
	try {
		parsed = JSON.parse(text);
	} catch {
		return { problem: 'The body is not JSON' };
	}
	if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
		return { problem: 'The body is not a webhook envelope (an object with "event")' };
	}
	const envelope = parsed as IDataObject;
	if (typeof envelope.event !== 'string' || envelope.event === '') {
		return { problem: 'The body is not a webhook envelope (an object with "event")' };
	}
	// JSON.parse rounds integers above 2^53, so that two ids can become one: such an id is given
	// to the workflow as the digits the service wrote.
	const id = envelope.delivery_id;
	if (typeof id === 'number' && !Number.isSafeInteger(id)) {
		const written = topLevelMemberText(text, 'delivery_id');
		if (written !== undefined && /^-?\d+$/.test(written)) envelope.delivery_id = written;
	}
	return { envelope: envelope as Envelope };
}

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);
const LITERAL = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null/y;

function skipWhitespace(text: string, at: number): number {
	while (WHITESPACE.has(text[at])) at++;
	return at;
}

/** The index after the string that starts (with its quote) at `at`. */
function endOfString(text: string, at: number): number {
	let quote = at;
	for (;;) {
		quote = text.indexOf('"', quote + 1);
		if (quote === -1) throw new SyntaxError('unterminated string');
		let backslashes = 0;
		while (text[quote - 1 - backslashes] === '\\') backslashes++;
		if (backslashes % 2 === 0) return quote + 1;
	}
}

/** The index after the JSON value that starts at `at`. Strings are skipped whole, so a 10 MB base64 costs one search. */
function endOfValue(text: string, at: number): number {
	const first = text[at];
	if (first === '"') return endOfString(text, at);
	if (first !== '{' && first !== '[') {
		LITERAL.lastIndex = at;
		if (!LITERAL.test(text)) throw new SyntaxError(`unexpected ${first} at ${at}`);
		return LITERAL.lastIndex;
	}
	let depth = 0;
	for (let i = at; i < text.length; i++) {
		const c = text[i];
		if (c === '"') i = endOfString(text, i) - 1;
		else if (c === '{' || c === '[') depth++;
		else if ((c === '}' || c === ']') && --depth === 0) return i + 1;
	}
	throw new SyntaxError('unterminated value');
}

/**
 * The source text of a top-level member's value of a JSON object (as JSON.parse, the last one
 * when the name repeats): a number's digits as written, a string's decoded value. Undefined when
 * the member is absent, is not a number or a string, or the text is not a JSON object.
 */
export function topLevelMemberText(text: string, name: string): string | undefined {
	try {
		let at = skipWhitespace(text, 0);
		if (text[at] !== '{') return undefined;
		at = skipWhitespace(text, at + 1);
		let found: string | undefined;
		while (text[at] === '"') {
			const keyEnd = endOfString(text, at);
			const key = JSON.parse(text.slice(at, keyEnd)) as string;
			at = skipWhitespace(text, keyEnd);
			if (text[at] !== ':') return undefined;
			const valueStart = skipWhitespace(text, at + 1);
			const valueEnd = endOfValue(text, valueStart);
			if (key === name) {
				const value = text.slice(valueStart, valueEnd);
				if (value.startsWith('"')) found = JSON.parse(value) as string;
				else found = /^-?\d/.test(value) ? value : undefined;
			}
			at = skipWhitespace(text, valueEnd);
			if (text[at] === ',') at = skipWhitespace(text, at + 1);
		}
		return found;
	} catch {
		return undefined;
	}
}
