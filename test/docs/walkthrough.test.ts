/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
/**
 * The Portuguese walkthrough is the English one translated, never a page of its own: read from the
 * English page, section by section, it has the same headings and numbered steps, the same UI names
 * (bold and italic: the UI is English), and the same figures (numbers, quotes, code, code blocks,
 * images, links and the tables' first column). Only the prose around them is translated.
 */
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { readDoc, slug, TRANSLATIONS } from './sections';

const EN = 'docs/first-registered-letter.md';
const PT = 'docs/pt-BR/primeira-carta-registrada.md';

type Kind = 'heading' | 'step' | 'label' | 'name' | 'code' | 'block' | 'image' | 'link' | 'quote' | 'number' | 'table';
/** Kinds whose order matters within a section; the others are compared as a multiset (a translation may reorder a sentence). */
const IN_ORDER: Kind[] = ['heading', 'step', 'block', 'image', 'table'];
const KINDS: Kind[] = ['heading', 'step', 'label', 'name', 'code', 'block', 'image', 'link', 'quote', 'number', 'table'];

interface Figure {
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
	if (/^[a-z]+:/i.test(target)) return target;
	if (target.startsWith('#')) {
		const headings = [...text.matchAll(/^#{1,6} (.+)$/gm)].map(([, title]) => slug(title));
		return `#heading-${headings.indexOf(decodeURIComponent(target.slice(1)))}`;
	}
	const [file, anchor] = target.split('#');
	const resolved = path.join(path.dirname(page), decodeURIComponent(file));
	const twin = TRANSLATIONS.findIndex((pair) => pair.includes(resolved));
	return twin >= 0 ? `twin-${twin}` : anchor === undefined ? resolved : `${resolved}#${anchor}`;
}

/** Every figure of a page, in the order the page writes them. */
function figuresOf(page: string, text: string): Figure[] {
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

/** The page cut at its headings: each section's figures, its heading's among them. */
function sectionsOf(page: string, text: string): Figure[][] {
	const sections: Figure[][] = [];
	for (const figure of figuresOf(page, text)) {
		if (figure.kind === 'heading' || sections.length === 0) sections.push([]);
		sections[sections.length - 1].push(figure);
	}
	return sections;
}

/** What the Portuguese page lacks or adds against the English one, section by section; empty when they match. */
function differences(english: string, portuguese: string): string[] {
	const en = sectionsOf(EN, english);
	const pt = sectionsOf(PT, portuguese);
	const found: string[] = [];
	if (pt.length !== en.length) found.push(`${en.length} sections in English, ${pt.length} in Portuguese`);
	for (const [i, section] of en.entries()) {
		const twin = pt[i] ?? [];
		for (const kind of KINDS) {
			const values = (figures: Figure[]) => {
				const list = figures.filter((f) => f.kind === kind).map((f) => f.value);
				return IN_ORDER.includes(kind) ? list : list.sort();
			};
			const [want, have] = [values(section), values(twin)];
			if (JSON.stringify(want) === JSON.stringify(have)) continue;
			const missing = want.filter((v) => !have.includes(v));
			const extra = have.filter((v) => !want.includes(v));
			found.push(`section ${i} (${section[0].value}), ${kind}: English ${JSON.stringify(want)}, Portuguese ${JSON.stringify(have)}; missing ${JSON.stringify(missing)}, extra ${JSON.stringify(extra)}`);
		}
	}
	return found;
}

describe('the Portuguese walkthrough', () => {
	const english = readDoc(EN);
	const portuguese = readDoc(PT);

	it("has the English page's steps, UI names and figures, section by section", () => {
		expect(differences(english, portuguese)).toEqual([]);
	});

	it('is compared on every kind of figure the English page has', () => {
		const kinds = new Set(figuresOf(EN, english).map((f) => f.kind));
		expect([...kinds].sort()).toEqual([...KINDS].sort());
		// The walkthrough's UI names are many: a pattern that stopped matching would leave few.
		expect(figuresOf(EN, english).filter((f) => f.kind === 'label').length).toBeGreaterThan(80);
	});

	it('would be caught missing any one of its figures', () => {
		// Each figure of the Portuguese page taken out in turn: the comparison must name a difference.
		const unseen = figuresOf(PT, portuguese)
			.filter((figure) => differences(english, portuguese.slice(0, figure.start) + portuguese.slice(figure.end)).length === 0)
			.map((figure) => `${figure.kind} ${figure.value}`);
		expect(figuresOf(PT, portuguese).length).toBeGreaterThan(200);
		expect(unseen).toEqual([]);
	});
});
