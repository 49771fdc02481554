/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
/**
 * The documentation as the tests read it: its pages, their Markdown (headings and their anchors as
 * GitHub makes them, links, table rows, all outside code blocks), and the parts made from a real
 * run, each between two HTML comments that `npm run docs:outputs` rewrites in place and the tests
 * compare with a new run.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { ASSUMPTIONS, TRIGGER_ASSUMPTIONS } from '../../scripts/check-service/assumptions';

export const ROOT = path.resolve(__dirname, '../..');

const cell = (text: string) => text.replace(/\|/g, '\\|');

/** The assumptions page's tables, from the node's and the trigger's own lists: a guess added to the code is listed with its way around. */
async function assumptionsSection(): Promise<string> {
	const actions = ASSUMPTIONS.map(({ key, guess, wayAround }) => `| ${cell(guess)} | ${cell(wayAround)} | \`${key}\` |`);
	const trigger = TRIGGER_ASSUMPTIONS.map(({ guess, why, wayAround }) => `| ${cell(guess)}. ${cell(why)} | ${cell(wayAround)} |`);
	return [
		'### Postal Service (action node)',
		'',
		'| The node assumes | If it is wrong | Checked by `npm run check-service` as |',
		'|---|---|---|',
		...actions,
		'',
		'### Postal Service Trigger',
		'',
		'| The trigger assumes | How it stays right either way |',
		'|---|---|',
		...trigger,
	].join('\n');
}

/**
 * Every section, in the order `npm run docs:outputs` writes them: its marker's name (`<!-- name:start … -->`),
 * the page that carries it, and what a run makes of it now (loaded when called, so that reading the pages starts no engine).
 */
export const SECTIONS = [
	{ name: 'outputs', file: 'docs/outputs.md', make: async () => (await import('./outputs')).outputsSection() },
	// Every event's item sits in the trigger reference; each guide points at it (outputs.test.ts).
	{ name: 'events', file: 'docs/trigger.md', make: async () => (await import('./events')).eventsSection() },
	{ name: 'assumptions', file: 'docs/assumptions.md', make: assumptionsSection },
	{ name: 'routes', file: 'docs/reference.md', make: async () => (await import('./routes')).routesSection() },
];

export const startMarker = (name: string) => `<!-- ${name}:start (made by \`npm run docs:outputs\`; a test compares it with a real run) -->`;
export const endMarker = (name: string) => `<!-- ${name}:end -->`;

export const readDoc = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

/** Every Markdown page of the documentation: the guide, the contributors' guide, the changelog and docs/ (the Portuguese pages included). */
export function pages(): string[] {
	const docs = readdirSync(path.join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' })
		.filter((file) => file.endsWith('.md'))
		.map((file) => path.join('docs', file))
		.sort();
	return ['README.md', 'CONTRIBUTING.md', 'CHANGELOG.md', ...docs];
}

/** Each English page and its Portuguese translation; a link to either page of a pair is the same link. */
export const TRANSLATIONS: ReadonlyArray<readonly [string, string]> = [
	['README.md', 'docs/pt-BR/README.md'],
	['docs/first-registered-letter.md', 'docs/pt-BR/primeira-carta-registrada.md'],
	['docs/environments.md', 'docs/pt-BR/ambientes.md'],
	['docs/personal-data.md', 'docs/pt-BR/lgpd.md'],
];
/** Pages only a Portuguese reader needs: the Setup steps of the English notes, and the panel's terms. */
export const PORTUGUESE_ONLY = ['docs/pt-BR/exemplos.md', 'docs/pt-BR/glossario.md'];

/** The text between a section's markers, or undefined when a marker is missing. */
export function readSection(text: string, name: string): string | undefined {
	const start = text.indexOf(startMarker(name));
	const end = text.indexOf(endMarker(name));
	if (start < 0 || end < start) return undefined;
	return text.slice(start + startMarker(name).length, end).trim();
}

export function writeSection(text: string, section: string, name: string): string {
	const start = text.indexOf(startMarker(name));
	const end = text.indexOf(endMarker(name));
	if (start < 0 || end < start) throw new Error(`No ${startMarker(name)} … ${endMarker(name)} markers`);
	return `${text.slice(0, start + startMarker(name).length)}\n\n${section}\n\n${text.slice(end)}`;
}

/** The lines of a Markdown text, those of fenced code blocks (their fences too) left empty so that lines keep their numbers. */
export function proseLines(text: string): string[] {
	let fenced = false;
	return text.split('\n').map((line) => {
		const fence = /^\s*```/.test(line);
		if (fence) fenced = !fenced;
		return fence || fenced ? '' : line;
	});
}

/** GitHub's anchor for a heading: lower case, punctuation dropped (not - and _), spaces as hyphens. */
function slug(title: string): string {
	return title
		.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
		.replace(/<[^>]+>/g, '')
		.toLowerCase()
		.trim()
		.replace(/[^\p{L}\p{M}\p{N}\s_-]/gu, '')
		.replace(/\s/g, '-');
}

/** A link target of `page` as a path from the repository's root (its anchor kept). */
export function fromRoot(page: string, target: string): string {
	if (/^[a-z]+:/i.test(target)) return target;
	const [file, anchor] = target.split('#');
	const resolved = file ? path.join(path.dirname(page), decodeURIComponent(file)) : page;
	return anchor === undefined ? resolved : `${resolved}#${anchor}`;
}

/** Every anchor of a page: a repeated heading gets -1, -2... as on GitHub. */
export function anchors(text: string): Set<string> {
	const seen = new Map<string, number>();
	const result = new Set<string>();
	for (const [, title] of proseLines(text).map((line) => /^#{1,6} (.+?)\s*#*$/.exec(line) ?? [])) {
		if (title === undefined) continue;
		const base = slug(title);
		const count = seen.get(base) ?? 0;
		seen.set(base, count + 1);
		result.add(count === 0 ? base : `${base}-${count}`);
	}
	return result;
}

/** The targets of the page's Markdown links and images, in order. */
export function links(text: string): string[] {
	const prose = proseLines(text)
		.join('\n')
		.replace(/`[^`\n]*`/g, '');
	return [...prose.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map(([, target]) => target);
}

/** The cells of every table row under the heading `title` (up to the next heading of its level or higher). */
export function tableRows(text: string, title: string): string[][] {
	const lines = proseLines(text);
	const start = lines.findIndex((line) => /^#{1,6} /.test(line) && line.replace(/^#+ /, '') === title);
	if (start < 0) return [];
	const level = /^#+/.exec(lines[start])![0].length;
	const rows: string[][] = [];
	for (const line of lines.slice(start + 1)) {
		const heading = /^(#+) /.exec(line);
		if (heading && heading[1].length <= level) break;
		if (!line.startsWith('|') || /^\|\s*-/.test(line)) continue;
		rows.push(line.split('|').slice(1, -1).map((cell) => cell.trim()));
	}
	return rows.slice(1);
}

// ---- A translation's figures: what it keeps of its original (walkthrough.test.ts, the examples' Setup steps) ----

export type Kind = 'heading' | 'step' | 'label' | 'name' | 'code' | 'block' | 'image' | 'link' | 'quote' | 'number' | 'table';
/** Kinds whose order matters within a section; the others are compared as a multiset (a translation may reorder a sentence). */
export const IN_ORDER: Kind[] = ['heading', 'step', 'block', 'image', 'table'];
export const KINDS: Kind[] = ['heading', 'step', 'label', 'name', 'code', 'block', 'image', 'link', 'quote', 'number', 'table'];

export interface Figure {
	kind: Kind;
	value: string;
	/** Where it is written in the page, to take it out in the test that proves a missing one is seen. */
	start: number;
	end: number;
}

/** Blanks a span with spaces (newlines kept), so that later patterns skip it and positions stay true. */
const blank = (text: string, start: number, end: number) => text.slice(0, start) + text.slice(start, end).replace(/[^\n]/g, ' ') + text.slice(end);
const squeeze = (value: string) => value.replace(/\s+/g, ' ').trim();

/** A link target as the same place for both pages: a twin page by its pair, an anchor of the page by its heading's index. */
function linkTarget(page: string, text: string, target: string): string {
	if (target.startsWith('#')) {
		const headings = [...text.matchAll(/^#{1,6} (.+)$/gm)].map(([, title]) => slug(title));
		return `#heading-${headings.indexOf(decodeURIComponent(target.slice(1)))}`;
	}
	const resolved = fromRoot(page, target);
	const twin = TRANSLATIONS.findIndex((pair) => pair.includes(resolved.split('#')[0]));
	return twin >= 0 ? `twin-${twin}` : resolved;
}

/** Every figure of a page, in the order the page writes them. */
export function figuresOf(page: string, text: string): Figure[] {
	const figures: Figure[] = [];
	let rest = text;
	const take = (kind: Kind, pattern: RegExp, value: (match: RegExpMatchArray) => string, blankIt = true) => {
		for (const match of [...rest.matchAll(pattern)]) {
			const start = match.index!;
			const end = start + match[0].length;
			figures.push({ kind, value: value(match), start, end });
			if (blankIt) rest = blank(rest, start, end);
		}
	};
	take('block', /^\s*```[^\n]*\n[\s\S]*?^\s*```[^\n]*$/gm, ([block]) => block.replace(/^\s+/gm, ''));
	take('heading', /^(#{1,6}) (.+)$/gm, ([, level, title]) => `${level.length}:${/^(\d+)\./.exec(title)?.[1] ?? ''}`);
	take('code', /`([^`\n]+)`/g, ([, code]) => code);
	take('image', /!\[[^\]]*\]\(([^)\s]+)\)/g, ([, target]) => linkTarget(page, text, target));
	take('link', /\[[^\]]*\]\(([^)\s]+)\)/g, ([, target]) => linkTarget(page, text, target), false);
	rest = rest.replace(/\]\([^)\s]+\)/g, (target) => ' '.repeat(target.length));
	// A table: its size and its first column (field and credential names), not its translated header.
	take('table', /(?:^[ \t]*\|.*\|[ \t]*(?:\n|$))+/gm, ([table]) => {
		const rows = table.trim().split('\n').filter((row) => !/^\s*\|\s*-/.test(row)).map((row) => row.trim().split('|').slice(1, -1).map((cell) => cell.trim()));
		return JSON.stringify({ columns: rows[0].length, rows: rows.slice(1).map(([first]) => first) });
	}, false);
	take('step', /^([ \t]*)(\d+\.|-)(?= )/gm, ([, indent, marker]) => `${indent.length}:${marker}`);
	take('label', /\*\*([^*]+?)\*\*/g, ([, label]) => squeeze(label));
	take('name', /(?<![\w*])\*(?![\s*])([^*]+?)(?<![\s*])\*(?![\w*])/g, ([, name]) => squeeze(name));
	take('quote', /"([^"\n]+)"/g, ([, quote]) => quote);
	take('number', /(?<![\p{L}\p{N}.,])\d+(?:[.,]\d+)*(?![\p{L}\p{N}])/gu, ([number]) => number);
	return figures.sort((a, b) => a.start - b.start);
}
