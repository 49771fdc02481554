// The grounds' budget, as nodes/ has one: tests and tooling aim at 5.5 times the product's lines,
// and may not grow past CEILING, where the last retirement left them, while they get there.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');
const TARGET = 5.5;
const CEILING = 6.15;
const CODE = /\.([cm]?ts|[cm]?js|sh)$/;

/** Lines of every file under a folder whose name matches, skipping installed and generated trees. */
function lines(folder, pattern) {
	let total = 0;
	for (const name of readdirSync(path.join(root, folder))) {
		if (name === 'node_modules' || name === 'results' || name === 'artifacts') continue;
		const file = path.join(folder, name);
		if (statSync(path.join(root, file)).isDirectory()) total += lines(file, pattern);
		else if (pattern.test(name)) total += readFileSync(path.join(root, file), 'utf8').split('\n').length - 1;
	}
	return total;
}

const product = lines('nodes', /\.ts$/) + lines('credentials', /\.ts$/);
const grounds = Object.fromEntries(['test', 'sandbox', 'scripts', 'bench'].map((folder) => [folder, lines(folder, CODE)]));
const total = Object.values(grounds).reduce((sum, n) => sum + n, 0);
const ratio = total / product;
for (const [folder, n] of Object.entries(grounds)) console.log(`${folder.padEnd(8)} ${String(n).padStart(6)}`);
console.log(`grounds  ${String(total).padStart(6)} lines of code around a product of ${product} (nodes/, credentials/)`);
console.log(`ratio    ${ratio.toFixed(2)}× (target ${TARGET}×, ceiling ${CEILING}×)`);
if (ratio > TARGET) console.log(`${Math.ceil(total - TARGET * product)} lines over the target: retire a proof another place already holds before adding one.`);
if (ratio > CEILING) {
	console.error(`The tests and tooling grew past their ceiling by ${Math.ceil(total - CEILING * product)} lines: a new proof family names the one it replaces.`);
	process.exit(1);
}
