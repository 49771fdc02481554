/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
/**
 * The user guides: README.md and its Portuguese twin docs/pt-BR/README.md (not beside it: npm packs
 * every README* of the root), their links, the anchors the nodes' documentation links point at, and
 * the changelog's versions.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { RESOURCES } from '../../nodes/PostalService/actions/resources';
import { EMAIL_STATUSES, ORDER_STATUSES } from '../../nodes/PostalService/contract/lists';
import { DELIVERY_STATUSES, WEBHOOK_EVENTS } from '../../nodes/PostalServiceTrigger/webhookLists';
import { examples } from './exampleGraph';
import { anchors, fromRoot, links, pages, PORTUGUESE_ONLY, proseLines, readDoc, ROOT, tableRows, TRANSLATIONS } from './sections';

const EN = 'README.md';
const PT = 'docs/pt-BR/README.md';
const pkg = JSON.parse(readDoc('package.json')) as { name: string; version: string; repository: { url: string }; n8n: { supportedVersions: string } };

/** (resource, action) as the node's description names them, for every operation. */
const described = () =>
	Object.values(RESOURCES)
		.flatMap(({ name, operations }) => Object.values(operations).map(({ option }) => `${name} | ${option.action}`))
		.sort();

/** The first two cells of each row of the operations table under the heading `title`. */
const listed = (file: string, title: string) =>
	tableRows(readDoc(file), title)
		.map(([resource, action]) => `${resource} | ${action}`)
		.sort();

describe('the user guide and its Portuguese twin', () => {
	it('list every operation by the resource and action names the node shows, and no other', () => {
		expect(listed(EN, 'Operations')).toEqual(described());
		expect(listed(PT, 'Operações')).toEqual(described());
	});

	it('list every event of the trigger by its name and value', () => {
		const events = WEBHOOK_EVENTS.map(({ name, value }) => `${name} (\`${value}\`)`);
		expect(tableRows(readDoc(EN), 'Events').map(([event]) => event)).toEqual(events);
		expect(tableRows(readDoc(PT), 'Eventos').map(([event]) => event)).toEqual(events);
	});

	it('link to the same pages, files and anchors in other pages, and to each other at the top', () => {
		// A translated page counts as its English original, anchors aside (headings are translated too).
		const original = (target: string) => {
			const pair = TRANSLATIONS.find((pages) => pages.includes(target.split('#')[0]));
			return pair ? pair[0] : target;
		};
		const outward = (file: string, twin: string) =>
			[...new Set(links(readDoc(file)).filter((target) => !target.startsWith('#')).map((target) => original(fromRoot(file, target))))]
				.filter((target) => target !== original(twin) && !PORTUGUESE_ONLY.includes(target))
				.sort();
		expect(outward(PT, EN)).toEqual(outward(EN, PT));
		const top = (file: string) => proseLines(readDoc(file)).slice(0, 5).join('\n');
		expect(top(EN)).toContain(`](${path.relative(path.dirname(EN), PT)})`);
		expect(top(PT)).toContain(`](${path.relative(path.dirname(PT), EN)})`);
	});

	it('have the same sections and quote the same prices and amounts in reais', () => {
		const sections = (file: string) => [...readDoc(file).matchAll(/^## /gm)].length;
		expect(sections(PT)).toBe(sections(EN));
		const amounts = (file: string) => [...readDoc(file).matchAll(/R\$ ?([\d.,]+\d)/g)].map(([, amount]) => amount).sort();
		expect(amounts(EN).length).toBeGreaterThan(0);
		expect(amounts(PT)).toEqual(amounts(EN));
	});

	it("name in the queue-mode install, and the walkthroughs in theirs, the version package.json has, and the n8n versions it supports", () => {
		for (const file of [EN, PT]) {
			expect(readDoc(file), file).toContain(`"name":"${pkg.name}","version":"${pkg.version}"`);
			expect(readDoc(file), file).toContain(`npm view ${pkg.name}@${pkg.version} dist.integrity`);
			expect(readDoc(file), file).toContain(`\`${pkg.n8n.supportedVersions}\``);
		}
		// The walkthroughs' editor install pins the same version.
		for (const file of ['docs/first-registered-letter.md', 'docs/pt-BR/primeira-carta-registrada.md']) expect(readDoc(file), file).toContain(`\`${pkg.name}@${pkg.version}\``);
	});

	it('list every status of a letter and of a registered e-mail by its value and its meaning, and every delivery status', () => {
		const meaning = (list: ReadonlyArray<{ value: number; meaning: string }>, value: number) => list.find((status) => status.value === value)?.meaning ?? '';
		const expected = [...new Set([...ORDER_STATUSES, ...EMAIL_STATUSES].map(({ value }) => value))].map((value) => [
			String(value),
			meaning(ORDER_STATUSES, value),
			meaning(EMAIL_STATUSES, value),
		]);
		for (const [file, title] of [[EN, 'Statuses'], [PT, 'Status']]) {
			// Each cell is the meaning the node's statusText gives, then its Portuguese name in parentheses.
			const rows = tableRows(readDoc(file), title).map(([value, letter, email]) => [value.replace(/`/g, ''), letter.replace(/ \(.*\)$/, ''), email.replace(/ \(.*\)$/, '')]);
			expect(rows, file).toEqual(expected);
			const section = readDoc(file).split(`## ${title}\n`)[1].split('\n## ')[0];
			for (const status of DELIVERY_STATUSES.filter(Boolean)) expect(section, `${file}: ${status}`).toContain(`\`${status}\``);
		}
	});

	// The first n8n release whose packed nodes have these (measured in n8n-nodes-base and
	// @n8n/n8n-nodes-langchain): Data Table 1.1 with its sort options, the Chat Trigger 1.5.
	const FIRST_RELEASE: Record<string, string> = { 'n8n-nodes-base.dataTable@1.1': '2.6', '@n8n/n8n-nodes-langchain.chatTrigger@1.5': '2.39' };
	it('list every example and the n8n release it needs: the latest its nodes need, else the oldest tested', () => {
		const oldest = /^>=([\d.]+)/.exec(pkg.n8n.supportedVersions)![1];
		const later = (a: string, b: string) => (a.localeCompare(b, undefined, { numeric: true }) >= 0 ? a : b);
		const needed = examples
			.map(({ file, workflow }) => {
				const needs = workflow.nodes.map(({ type, typeVersion }) => FIRST_RELEASE[`${type}@${typeVersion}`]).filter(Boolean);
				return [file.replace(/\.json$/, ''), needs.reduce(later, oldest)];
			})
			.sort();
		const listed = (file: string, title: string) =>
			tableRows(readDoc(file), title)
				.map((cells) => [/^\[([^\]]+)\]/.exec(cells[0])?.[1] ?? cells[0], cells[cells.length - 1]])
				.sort();
		expect(listed(EN, 'Templates and examples')).toEqual(needed);
		expect(listed(PT, 'Modelos e exemplos')).toEqual(needed);
	});

	it('keep the English guide at about 210 lines', () => {
		expect(readDoc(EN).split('\n').length).toBeLessThanOrEqual(220);
	});
});

describe('links in the documentation', () => {
	it('point at files that exist and at headings those files have', () => {
		const broken: string[] = [];
		for (const page of pages()) {
			for (const target of links(readDoc(page))) {
				if (/^[a-z]+:/i.test(target)) continue;
				const [resolved, anchor] = fromRoot(page, target).split('#');
				if (!existsSync(path.join(ROOT, resolved))) {
					broken.push(`${page}: ${target} (no such file)`);
				} else if (anchor !== undefined && resolved.endsWith('.md') && !anchors(readDoc(resolved)).has(anchor)) {
					broken.push(`${page}: ${target} (no such heading in ${resolved})`);
				}
			}
		}
		expect(broken).toEqual([]);
	});

	it('name only source and test files that exist (a glob names at least one)', () => {
		const missing: string[] = [];
		let names = 0;
		for (const page of pages()) {
			for (const [named] of readDoc(page).matchAll(/\b(?:test|scripts|sandbox|bench|nodes)\/[\w/*.-]+\.(?:ts|mjs)\b/g)) {
				const pattern = new RegExp(`^${named.replace(/[.]/g, '\\.').replace(/\*/g, '[^/]*')}$`);
				const folder = path.dirname(named);
				const exists = named.includes('*')
					? existsSync(path.join(ROOT, folder)) && readdirSync(path.join(ROOT, folder)).some((file) => pattern.test(`${folder}/${file}`))
					: existsSync(path.join(ROOT, named));
				if (!exists) missing.push(`${page}: ${named}`);
				names++;
			}
		}
		expect(names).toBeGreaterThan(50);
		expect(missing).toEqual([]);
	});
});

describe("the nodes' and credentials' documentation links", () => {
	const repository = pkg.repository.url.replace(/^git\+/, '').replace(/\.git$/, '');

	function documentationUrls(): string[] {
		const urls: string[] = [];
		for (const folder of ['nodes', 'credentials']) {
			for (const file of readdirSync(path.join(ROOT, folder), { recursive: true, encoding: 'utf8' })) {
				if (!/\.(ts|json)$/.test(file)) continue;
				const text = readFileSync(path.join(ROOT, folder, file), 'utf8');
				urls.push(...[...text.matchAll(/https:\/\/github\.com\/[^\s'"`)]+/g)].map(([url]) => url));
			}
		}
		return urls;
	}

	it('point at the repository and at a heading of README.md', () => {
		const urls = documentationUrls();
		expect(urls.length).toBeGreaterThan(0);
		const headings = anchors(readDoc(EN));
		for (const url of urls) {
			const [base, anchor] = url.split('#');
			expect(base, url).toBe(repository);
			// GitHub shows the README at the repository's page under #readme.
			if (anchor !== undefined && anchor !== 'readme') expect(headings.has(anchor), url).toBe(true);
		}
	});
});

describe('the changelog', () => {
	it("has package.json's version as its newest section, each section versioned and dated or unreleased", () => {
		const sections = [...readDoc('CHANGELOG.md').matchAll(/^## (.+)$/gm)].map(([, title]) => title);
		expect(sections.length).toBeGreaterThan(0);
		for (const title of sections) expect(title).toMatch(/^\[\d+\.\d+\.\d+\] - (Unreleased|\d{4}-\d{2}-\d{2})$/);
		expect(sections[0]).toMatch(new RegExp(`^\\[${pkg.version.replace(/\./g, '\\.')}\\] `));
		expect(sections.filter((title) => title.endsWith('Unreleased')).length).toBeLessThanOrEqual(1);
	});
});
