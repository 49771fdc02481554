/**
 * The security token is a password that some routes carry in the URL path. Everything the package
 * reports (error messages, descriptions, URLs) goes through here first, in each form it can take
 * there: as is, URL-encoded, form-encoded and base64.
 */
export const REDACTED = '***';

export function redactSecrets(text: string, secrets: Array<string | undefined>): string {
	let result = text;
	for (const secret of secrets) {
		if (!secret) continue;
		const formEncoded = new URLSearchParams({ s: secret }).toString().slice(2);
		for (const form of new Set([secret, encodeURIComponent(secret), formEncoded, Buffer.from(secret).toString('base64')])) {
			if (form.length > 0) result = result.split(form).join(REDACTED);
		}
	}
	return result;
}
