// Checks what `npm pack` would publish: only dist/, README.md, LICENSE and package.json, and every
// file the package.json `n8n` field names (plus the icons) present in dist/.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

import { entryPoints as declared, pkg } from './package.mjs';
const [report] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { encoding: 'utf8' }));
const files = report.files.map((f) => f.path);
const problems = [];
for (const file of files) {
	if (!(file.startsWith('dist/') || ['README.md', 'LICENSE', 'package.json'].includes(file))) {
		problems.push(`unexpected file in the package: ${file}`);
	}
}
for (const file of declared) {
	if (!files.includes(file) || !existsSync(file)) problems.push(`declared in n8n field but not packed: ${file}`);
}
const icons = files.filter((f) => f.endsWith('.svg'));
if (icons.length < 2) problems.push('the icons are not in dist/');
if (pkg.dependencies && Object.keys(pkg.dependencies).length) problems.push('runtime dependencies are not allowed');
// What each instance installs, queue-mode workers and webhook processors included.
const MAX_UNPACKED = 250_000;
if (report.unpackedSize > MAX_UNPACKED) problems.push(`unpacked package is ${report.unpackedSize} bytes, over ${MAX_UNPACKED}`);
if (problems.length) {
	console.error(problems.join('\n'));
	process.exit(1);
}
console.log(`package ok: ${files.length} files, ${report.unpackedSize} bytes unpacked (${declared.length} declared entry points, ${icons.length} icons)`);
