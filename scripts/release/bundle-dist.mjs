// Bundles each entry point of the package's `n8n` field into its one file in dist/, replacing the
// files tsc compiled it from: n8n loads a community package at every start, and resolving and
// compiling sixty small files took most of that load (docs/performance.md, cold load). What n8n
// provides stays outside the bundle (n8n-workflow, zod, luxon, Node's modules).
// Usage: node scripts/release/bundle-dist.mjs [the dist folder tsc wrote, dist by default]
import { readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';

import { build } from 'esbuild';

import { entryPoints } from './package.mjs';

const dist = process.argv[2] ?? 'dist';
const entries = entryPoints.map((entry) => path.join(dist, entry.replace(/^dist\//, '')));

for (const outfile of entries) {
	await build({
		entryPoints: [path.relative(dist, outfile).replace(/\.js$/, '.ts')],
		outfile,
		allowOverwrite: true,
		bundle: true,
		platform: 'node',
		format: 'cjs',
		target: 'node20',
		charset: 'utf8',
		external: ['n8n-workflow', 'zod', 'luxon'],
		logLevel: 'warning',
	});
}

// The modules now inside the bundles, and the folders they leave empty.
function prune(dir) {
	for (const name of readdirSync(dir)) {
		const file = path.join(dir, name);
		if (statSync(file).isDirectory()) prune(file);
		else if (file.endsWith('.js') && !entries.includes(file)) rmSync(file);
	}
	if (readdirSync(dir).length === 0) rmSync(dir, { recursive: true });
}
prune(dist);
