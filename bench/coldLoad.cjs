// How long n8n's package loader takes to load the installed package, in a fresh process that has
// already loaded what n8n itself has loaded (n8n-core, n8n-workflow, zod) and resolves modules as
// n8n does (NODE_PATH set to its own module paths) and has set up n8n's logger and configuration.
// Prints one JSON line.
// Usage: node bench/coldLoad.cjs <n8n install dir> <installed package dir>
'use strict';
const Module = require('node:module');
const path = require('node:path');

const [n8nDir, packageDir] = process.argv.slice(2);
const n8nModules = path.join(n8nDir, 'node_modules');
process.env.NODE_PATH = [n8nModules, process.env.NODE_PATH].filter(Boolean).join(path.delimiter);
Module._initPaths();
process.env.N8N_LOG_LEVEL = 'silent';

const requireFromN8n = Module.createRequire(path.join(n8nModules, 'n8n', 'package.json'));
const { PackageDirectoryLoader } = requireFromN8n('n8n-core');
requireFromN8n('n8n-workflow');
requireFromN8n('zod');

(async () => {
	// A loader's first construction sets up n8n's own logger and configuration, which a running n8n
	// has done long before it loads any package: done here first, out of the timing.
	new PackageDirectoryLoader(packageDir);
	const start = process.hrtime.bigint();
	const loader = new PackageDirectoryLoader(packageDir);
	await loader.loadAll();
	const ms = Number(process.hrtime.bigint() - start) / 1e6;
	const nodes = Object.keys(loader.nodeTypes).length;
	const credentials = Object.keys(loader.credentialTypes).length;
	process.stdout.write(JSON.stringify({ ms, nodes, credentials }) + '\n');
})().catch((error) => {
	console.error(error);
	process.exit(1);
});
