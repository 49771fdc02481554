// The analysis n8n's verification runs on a published community package, run here before publishing
// and offline: @n8n/scan-community-package's own `analyzePackage` (its ESLint configuration, with
// inline eslint-disable comments ignored and no-console added) over the JavaScript and package.json
// of the tarball `npm pack` makes, and over the sources of nodes/ and credentials/, as it lints the
// source checkout a published version's provenance points to.
// Left out: the provenance check itself, which only a version published by
// .github/workflows/publish.yml can pass; scripts/release/check-workflows.mjs checks that workflow asks for it.
// Needs a fresh `npm run build`. Exits 1 on any finding.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { analyzePackage, SOURCE_FILE_PATTERNS } from '@n8n/scan-community-package/scanner/scanner.mjs';

import { entryPoints, pack } from './package.mjs';

const root = process.cwd();
const scannerManifest = createRequire(import.meta.url).resolve('@n8n/scan-community-package/package.json');
// Resolved from the scanner's own folder, so these are the very modules it uses.
const fromScanner = createRequire(scannerManifest);
const glob = fromScanner('fast-glob');
// The scanner makes a temporary folder when it loads; this lets it remove that folder on exit.
fromScanner('tmp').setGracefulCleanup();
const scannerVersion = JSON.parse(readFileSync(scannerManifest, 'utf8')).version;

class Finding extends Error {}
const fail = (message) => {
	throw new Finding(message);
};

async function verify() {
	// A stale dist/ would be scanned instead of what the sources say.
	const newestSource = Math.max(
		...glob.sync(['nodes/**', 'credentials/**', 'icons/**'], { cwd: root }).map((f) => statSync(f).mtimeMs),
	);
	for (const entry of entryPoints) {
		if (!existsSync(entry)) fail(`${entry} is missing: run npm run build first`);
		if (statSync(entry).mtimeMs < newestSource) {
			fail(`${entry} is older than the sources: run npm run build first`);
		}
	}

	const work = mkdtempSync(join(tmpdir(), 'verify-package-'));
	try {
		const tarball = pack(work);
		// Unpacked as the scanner unpacks the tarball it downloads.
		const unpacked = join(work, 'package');
		mkdirSync(unpacked);
		execFileSync('tar', ['-xzf', tarball, '-C', unpacked, '--strip-components=1']);

		// The same two scans, with the same file patterns, as the scanner's analyzePackageByName.
		const scans = [
			{ name: `tarball ${basename(tarball)}`, dir: unpacked, patterns: ['**/*.js', 'package.json'] },
			{ name: 'sources (package.json, nodes/, credentials/)', dir: root, patterns: SOURCE_FILE_PATTERNS },
		];
		console.log(
			`n8n's scanner @n8n/scan-community-package ${scannerVersion}, offline, provenance not checked`,
		);
		let findings = false;
		for (const scan of scans) {
			// Counted as the scanner lists them: it passes a scan that finds no file at all.
			const files = glob.sync(scan.patterns, {
				cwd: scan.dir,
				ignore: ['node_modules/**', '**/package-lock.json'],
			});
			if (files.length === 0) fail(`no file to scan in the ${scan.name}`);
			const result = await analyzePackage(scan.dir, scan.patterns);
			if (result.passed) {
				console.log(`  ${scan.name}: ${files.length} files, no findings`);
			} else {
				findings = true;
				console.log(`  ${scan.name}: ${files.length} files, FAILED: ${result.message}`);
				if (result.details) console.log(result.details);
			}
		}
		if (findings) fail("the scanner's analysis has findings; n8n's verification would refuse this package");
		console.log('verify: no findings');
	} finally {
		rmSync(work, { recursive: true, force: true });
	}
}

verify().catch((error) => {
	console.error(error instanceof Finding ? `verify: ${error.message}` : error);
	process.exitCode = 1;
});
