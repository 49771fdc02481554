// How long n8n's package loader takes to load the installed package, in a fresh process that has
// already loaded what n8n itself has loaded (n8n-core, n8n-workflow, zod) and resolves modules as
// n8n does (NODE_PATH set to its own module paths) and has set up n8n's logger and configuration.
// Prints one JSON line.
// Usage: node bench/coldLoad.cjs <n8n install dir> <installed package dir> [--breakdown]
// With --breakdown the same load is timed with hooks that say where the time goes (they add a
// little to it): module resolution, n8n-workflow's updateDisplayOptions, n8n's own work per file,
// each module's own time (compiling and running its code), and, after the load, the V8 compile of
// a copy of each package module.
'use strict';
const Module = require('node:module');
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');

const [n8nDir, packageDir] = process.argv.slice(2);
const breakdown = process.argv.includes('--breakdown');
const n8nModules = path.join(n8nDir, 'node_modules');
process.env.NODE_PATH = [n8nModules, process.env.NODE_PATH].filter(Boolean).join(path.delimiter);
Module._initPaths();
process.env.N8N_LOG_LEVEL = 'silent';

const requireFromN8n = Module.createRequire(path.join(n8nModules, 'n8n', 'package.json'));
const { PackageDirectoryLoader } = requireFromN8n('n8n-core');
const workflow = requireFromN8n('n8n-workflow');
requireFromN8n('zod');

const now = () => Number(process.hrtime.bigint()) / 1e6;

/** Wraps `object[name]` so that the time spent in it is added to `totals[key]` (and its calls counted). */
function timed(object, name, totals, key) {
	const original = object[name];
	const wrapper = function (...args) {
		const start = now();
		try {
			return original.apply(this, args);
		} finally {
			totals[key] += now() - start;
			totals[`${key}Calls`] = (totals[`${key}Calls`] ?? 0) + 1;
		}
	};
	return { wrapper, restore: () => (object[name] = original) };
}

/** Hooks that split the load: each returns a function that removes it. */
function instrument(loader, totals, modules) {
	const restores = [];
	for (const [name, key] of [
		['loadClass', 'loadClass'],
		['loadNodeFromFile', 'nodeFiles'],
		['loadCredentialFromFile', 'credentialFiles'],
	]) {
		const { wrapper } = timed(loader, name, totals, key);
		loader[name] = wrapper;
	}
	const resolve = timed(Module, '_resolveFilename', totals, 'resolve');
	Module._resolveFilename = resolve.wrapper;
	restores.push(resolve.restore);
	// n8n-workflow's exports are getters: a property of the same name over it, for the load only.
	const updateDisplayOptions = workflow.updateDisplayOptions;
	const display = timed({ updateDisplayOptions }, 'updateDisplayOptions', totals, 'displayOptions');
	Object.defineProperty(workflow, 'updateDisplayOptions', { configurable: true, enumerable: true, get: () => display.wrapper });
	restores.push(() => Object.defineProperty(workflow, 'updateDisplayOptions', { configurable: true, enumerable: true, get: () => updateDisplayOptions }));
	// Each module's own time: compiling and running its code, less the modules it loads in turn
	// (their resolution stays in its time: its requires cost that).
	const stack = [];
	const compile = Module.prototype._compile;
	Module.prototype._compile = function (...args) {
		const frame = { nested: 0 };
		stack.push(frame);
		const start = now();
		try {
			return compile.apply(this, args);
		} finally {
			const ms = now() - start;
			stack.pop();
			if (stack.length) stack[stack.length - 1].nested += ms;
			const name = this.filename.startsWith(packageDir) ? path.relative(packageDir, this.filename) : this.filename;
			modules[name] = (modules[name] ?? 0) + ms - frame.nested;
		}
	};
	restores.push(() => (Module.prototype._compile = compile));
	return () => restores.forEach((restore) => restore());
}

/** V8's compile of each package module's wrapper, measured apart on a copy (top-level code only, as V8 compiles lazily). */
function compileCopies() {
	let ms = 0;
	let bytes = 0;
	const files = Object.keys(require.cache).filter((file) => file.startsWith(packageDir) && file.endsWith('.js'));
	for (const file of files) {
		const source = fs.readFileSync(file, 'utf8');
		bytes += source.length;
		const start = now();
		new vm.Script(Module.wrap(source), { filename: `${file}.copy` });
		ms += now() - start;
	}
	return { ms, bytes, files: files.length };
}

(async () => {
	// A loader's first construction sets up n8n's own logger and configuration, which a running n8n
	// has done long before it loads any package: done here first, out of the timing.
	new PackageDirectoryLoader(packageDir);
	const loader = new PackageDirectoryLoader(packageDir);
	const totals = { loadClass: 0, nodeFiles: 0, credentialFiles: 0, resolve: 0, displayOptions: 0 };
	const modules = {};
	const remove = breakdown ? instrument(loader, totals, modules) : undefined;
	const start = process.hrtime.bigint();
	await loader.loadAll();
	const ms = Number(process.hrtime.bigint() - start) / 1e6;
	remove?.();
	const nodes = Object.keys(loader.nodeTypes).length;
	const credentials = Object.keys(loader.credentialTypes).length;
	const result = { ms, nodes, credentials };
	if (breakdown) {
		const compile = compileCopies();
		result.breakdown = {
			resolveMs: totals.resolve,
			resolveCalls: totals.resolveCalls ?? 0,
			displayOptionsMs: totals.displayOptions,
			displayOptionsCalls: totals.displayOptionsCalls ?? 0,
			// What n8n does with each loaded class: codex, icons, description checks.
			n8nMs: totals.nodeFiles + totals.credentialFiles - totals.loadClass,
			compileMs: compile.ms,
			files: compile.files,
			bytes: compile.bytes,
			modules,
		};
	}
	process.stdout.write(JSON.stringify(result) + '\n');
})().catch((error) => {
	console.error(error);
	process.exit(1);
});
