// What the release steps share: package.json, the entry points its `n8n` field names, and the
// tarball `npm pack` makes of the built package.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

export const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
export const entryPoints = [...(pkg.n8n?.nodes ?? []), ...(pkg.n8n?.credentials ?? [])];
/** Every entry point is in dist/ (after `npm run build`). */
export const built = () => entryPoints.every((file) => existsSync(file));

/** Packs the package into `destination` and returns the tarball's path. */
export function pack(destination) {
	const out = execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', destination], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
	return path.join(destination, JSON.parse(out)[0].filename);
}
