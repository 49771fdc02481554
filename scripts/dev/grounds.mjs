// The grounds' budget, as nodes/ has one: tests and tooling at most 5.5 times the product's lines.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');
const BUDGET = 5.5;
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
console.log(`ratio    ${ratio.toFixed(2)}× (budget ${BUDGET}×, ${Math.floor(BUDGET * product - total)} lines left)`);
if (ratio > BUDGET) {
	console.error(`The tests and tooling are ${Math.ceil(total - BUDGET * product)} lines over their budget: retire a proof another place already holds, or name the family a new one replaces.`);
	process.exit(1);
}
