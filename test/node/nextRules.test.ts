/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
/**
 * The community-node rules n8n's source holds that its plugins do not have yet: our own
 * (eslint.project.config.mjs, which `npm run lint` runs), and, where lint cannot see it, checks here.
 * The rules n8n's own configuration runs are `n8n-node lint`'s, on the files themselves.
 */
import { readFileSync } from 'node:fs';

import { ESLint } from 'eslint';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(__dirname, '..', '..');
const projectLint = new ESLint({ cwd: ROOT, overrideConfigFile: join(ROOT, 'eslint.project.config.mjs') });

/** The messages of our own rules for a text linted as if it were the given file of the package. */
async function nextRuleMessages(text: string, filePath: string): Promise<string[]> {
	const [result] = await projectLint.lintText(text, { filePath: join(ROOT, filePath) });
	return result.messages.filter((m) => m.ruleId?.startsWith('next/')).map((m) => `${m.ruleId}: ${m.message}`);
}

describe("n8n's next rules, as our lint applies them", () => {
	it('hint-max-length: a field hint has at most 120 characters', async () => {
		const file = 'nodes/PostalService/actions/probe.ts';
		const text = (hint: string) => `export const field = { displayName: 'Field', name: 'field', type: 'string', default: '', hint: '${hint}' };`;
		expect(await nextRuleMessages(text('x'.repeat(121)), file)).toEqual([
			'next/hint-max-length: This hint is 121 characters; at most 120: move the rest to description.',
		]);
		expect(await nextRuleMessages(text('x'.repeat(120)), file)).toEqual([]);
	});

	// n8n's own package.json rules (licence, keyword) are n8n-node lint's, which npm run lint runs on the file.
	it('no-monorepo (ours): package.json passes, and a repository directory inside a monorepo is refused', async () => {
		const packageJson = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;
		expect(await nextRuleMessages(JSON.stringify(packageJson, null, 2), 'package.json')).toEqual([]);
		const wrong = { ...packageJson, repository: { type: 'git', url: 'git+https://example.com/monorepo.git', directory: 'packages/nodes' } };
		expect(await nextRuleMessages(JSON.stringify(wrong, null, 2), 'package.json')).toEqual([
			'next/single-package-repository: package.json: "repository.directory" marks a package inside a monorepo, which n8n does not install.',
		]);
	});

	it('require-mit-license: the LICENSE file is the MIT license', () => {
		expect(readFileSync(join(ROOT, 'LICENSE'), 'utf8')).toMatch(/^MIT License\b[\s\S]*Permission is hereby granted, free of charge/);
	});
});

// The node's background in n8n's light and dark themes.
const BACKGROUNDS = { light: '#ffffff', dark: '#2b2b2b' } as const;

function luminance(hex: string): number {
	const channels = hex
		.replace('#', '')
		.match(/../g)!
		.map((c) => parseInt(c, 16) / 255)
		.map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
	return 0.2126 * channels[0] + 0.7152 * channels[1] + 0.0722 * channels[2];
}

function contrast(a: string, b: string): number {
	const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
	return (x + 0.05) / (y + 0.05);
}

/** The paint colours of an SVG, written as six-digit hex (what our icons use). */
function paints(svg: string): string[] {
	const colours = [...svg.matchAll(/(?:fill|stroke|stop-color)\s*[=:]\s*"?\s*(#[0-9a-fA-F]{6}|#[0-9a-fA-F]{3}|[a-z]+)/g)].map((m) => m[1]);
	for (const colour of colours) expect(colour, 'a colour this check cannot read').toMatch(/^(#[0-9a-fA-F]{6}|none)$/);
	return colours.filter((c) => c !== 'none');
}

describe('icon-contrast: each icon stands out on the background of its theme', () => {
	const icons = { light: 'icons/postalService.svg', dark: 'icons/postalService.dark.svg' } as const;

	for (const theme of ['light', 'dark'] as const) {
		it(`${theme}: some paint has at least 3:1 contrast (n8n warns under 1.5:1)`, () => {
			const colours = paints(readFileSync(join(ROOT, icons[theme]), 'utf8'));
			expect(colours.length).toBeGreaterThan(0);
			expect(Math.max(...colours.map((c) => contrast(c, BACKGROUNDS[theme])))).toBeGreaterThanOrEqual(3);
		});
	}

	it('the check fails an icon drawn in the background colour', () => {
		expect(Math.max(...paints('<svg><rect fill="#2B2B2B"/><path stroke="#303030"/></svg>').map((c) => contrast(c, BACKGROUNDS.dark)))).toBeLessThan(1.5);
	});

	it('every node and credential points at these two icons', () => {
		for (const file of [
			'nodes/PostalService/PostalService.node.ts',
			'nodes/PostalServiceTrigger/PostalServiceTrigger.node.ts',
			'credentials/PostalServiceApi.credentials.ts',
			'credentials/PostalServiceChatApi.credentials.ts',
			'credentials/PostalServiceWebhookApi.credentials.ts',
		]) {
			const source = readFileSync(join(ROOT, file), 'utf8');
			expect(source, file).toMatch(/light: 'file:(\.\.\/)+icons\/postalService\.svg'/);
			expect(source, file).toMatch(/dark: 'file:(\.\.\/)+icons\/postalService\.dark\.svg'/);
		}
	});
});
