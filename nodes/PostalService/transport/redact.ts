/**
 * The security token is a password that some routes carry in the URL path. Everything the package
 * reports (error messages, descriptions, URLs) goes through here first. A server may echo it in any
 * encoding, so each secret (and its base64 and base64url) is matched with every character allowed
 * in any of its forms: as is, percent-encoded once or more with escapes in either case, a space as
 * `+`, an HTML character reference or a JSON escape.
 */
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

export function redactSecrets(text: string, secrets: Array<string | undefined>): string {
	let result = text;
	// Longest first: a secret inside another (the token in `email:token`) would leave the rest visible.
	const sorted = secrets.filter((s): s is string => !!s).sort((a, b) => b.length - a.length);
	for (const secret of sorted) result = result.replace(patternOf(secret), REDACTED);
	return result;
}
