// Re-indents the bundled JavaScript in dist/ with tabs instead of esbuild's two spaces: the same code,
// lighter to install (the unpacked package stays under 250 kB).
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

function* jsFiles(dir) {
	for (const name of readdirSync(dir)) {
		const file = path.join(dir, name);
		if (statSync(file).isDirectory()) yield* jsFiles(file);
		else if (file.endsWith('.js')) yield file;
	}
}

for (const file of jsFiles('dist')) {
	const text = readFileSync(file, 'utf8');
	writeFileSync(file, text.replace(/^(?: {2})+/gm, (spaces) => '\t'.repeat(spaces.length / 2)));
}
