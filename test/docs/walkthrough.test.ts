/**
 * The Portuguese walkthrough is the English one translated, never a page of its own: read from the
 * English page, section by section, it has the same headings and numbered steps, the same UI names
 * (bold and italic: the UI is English), and the same figures (numbers, quotes, code, code blocks,
 * images, links and the tables' first column). Only the prose around them is translated.
 */
import { describe, expect, it } from 'vitest';

import { type Figure, figuresOf, IN_ORDER, KINDS, readDoc } from './sections';

const EN = 'docs/first-registered-letter.md';
const PT = 'docs/pt-BR/primeira-carta-registrada.md';

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
