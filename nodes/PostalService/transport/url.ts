/**
 * A route's address under the Base URL of a credential: the base's own path kept (a prefix such as
 * /homolog-api), the slashes at the join made one. The node, `npm run check-service` and the tests
 * build every address here, so they all ask the same server.
 */
export function serviceUrl(baseUrl: string, path: string): string {
	const base = baseUrl.trim();
	if (/[?#]/.test(base)) throw new Error('"Base URL" has a query or a fragment (? or #); give the API address without them');
	return `${base.replace(/\/+$/, '')}${path}`;
}
