/** A route's address under a credential's Base URL, its path kept (/homolog-api): the node, check-service and the tests all build it here, so all ask the same server. */
export function serviceUrl(baseUrl: string, path: string): string {
	const base = baseUrl.trim();
	if (/[?#]/.test(base)) throw new Error('"Base URL" has a query or a fragment (? or #); give the API address without them');
	if (!/^https?:\/\/[^/]/i.test(base) || !URL.canParse(base)) throw new Error(`"Base URL" must start with http:// or https:// and a host name (got "${base}"); give the API address as the service's documentation does`);
	return `${base.replace(/\/+$/, '')}${path}`;
}
