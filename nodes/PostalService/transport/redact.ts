/** Everything the package reports passes here first, since a server may echo the token in any encoding: each secret (and its base64 and base64url) is matched in every form a character takes. */
const REDACTED = '***';

const NAMED_ENTITIES: Record<string, string> = { '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": 'apos' };

function escapeRegExp(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Every way one character can be written in a URL, a form, an HTML page or a JSON string. */
function characterForms(char: string): string {
	const code = char.codePointAt(0) ?? 0;
	const hex = code.toString(16);
	const percent = [...Buffer.from(char)].map((byte) => `%(?:25)*${byte.toString(16).padStart(2, '0')}`).join('');
	const forms = [escapeRegExp(char), percent, `&#0*${code};`, `&#x0*${hex};`, `\\\\u${hex.padStart(4, '0')}`];
	if (char === ' ') forms.push('\\+');
	if (char === '/') forms.push('\\\\/');
	if (NAMED_ENTITIES[char]) forms.push(`&${NAMED_ENTITIES[char]};`);
	return `(?:${forms.join('|')})`;
}

function patternOf(secret: string): RegExp {
	const base64 = Buffer.from(secret).toString('base64').replace(/=+$/, '');
	const base64url = Buffer.from(secret).toString('base64url');
	const alternatives = [...new Set([secret, base64, base64url])].map((form) => [...form].map(characterForms).join(''));
	// Escapes and entities are matched in either case; a secret differing only in case is hidden too.
	return new RegExp(alternatives.join('|'), 'gi');
}

/** Hides every form of the secrets in a text; the pattern is made once, on first use. */
export function secretRedactor(secrets: Array<string | undefined>): (text: string) => string {
	let pattern: RegExp | undefined;
	return (text) => {
		// Longest first: a secret inside another (the token in `email:token`) would leave the rest visible.
		pattern ??= new RegExp(secrets.filter((s): s is string => !!s).sort((a, b) => b.length - a.length).map((s) => patternOf(s).source).join('|') || '(?!)', 'gi');
		return text.replace(pattern, REDACTED);
	};
}

export function redactSecrets(text: string, secrets: Array<string | undefined>): string {
	return secretRedactor(secrets)(text);
}

/** A file's content in base64 (a download, a receipt): data of the user's, which a replacement would corrupt. */
const isFileContent = (text: string) => text.length >= 4096 && !/[^A-Za-z0-9+/=\r\n]/.test(text);

/** A parsed answer with every text in it redacted: a service, or a proxy in front of it, may echo the token in a link or a message. */
export function redactAnswer<T>(value: T, redact: (text: string) => string): T {
	if (typeof value === 'string') return (isFileContent(value) ? value : redact(value)) as T;
	if (Array.isArray(value)) return value.map((entry: unknown) => redactAnswer(entry, redact)) as T;
	if (value !== null && typeof value === 'object') {
		return Object.fromEntries(Object.entries(value).map(([key, entry]) => [redact(key), redactAnswer(entry, redact)])) as T;
	}
	return value;
}
