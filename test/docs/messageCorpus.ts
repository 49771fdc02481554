/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
/**
 * What the documentation's quotes (quotes.ts) are checked against: the texts the built descriptions
 * show, and the texts the code can print.
 *
 * A quoted message must be made of the string and template literals of nodes/, credentials/ and
 * sandbox/ (the stand-in says the service's words): pieces of literals, a template's `${…}` matching
 * any text the same rules cover, joined by values (numbers, "quoted" values, wire names, codes in
 * capitals, labels, `<placeholders>`); `...` or `…` stands for any text. A piece holds two words of
 * its literal at least (a literal that only names values in quotes, like `tag "${tag}"`, may be used
 * whole), and inside a quote it leaves out no word of its literal: only the quote's ends may cut one.
 * So a reworded message fails, while a number or a value in it may be any.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import type { INodeProperties, INodePropertyCollection, INodePropertyOptions, INodeTypeDescription } from 'n8n-workflow';
import ts from 'typescript';

import { ROOT } from './sections';

type Description = Pick<INodeTypeDescription, 'displayName' | 'properties'> & Partial<INodeTypeDescription>;

/** Every text a description shows: names (labels) and longer help (texts). */
export function descriptionTexts(descriptions: Description[]): { labels: Set<string>; texts: Set<string> } {
	const labels = new Set<string>();
	const texts = new Set<string>();
	const add = (set: Set<string>, value: unknown) => typeof value === 'string' && value.trim() && set.add(value.trim());
	const visit = (entry: INodeProperties | INodePropertyOptions | INodePropertyCollection) => {
		const record = entry as unknown as Record<string, unknown>;
		add(labels, record.displayName);
		if (!('type' in entry)) add(labels, record.name);
		add(labels, record.action);
		for (const key of ['description', 'hint', 'placeholder', 'displayName', 'action']) add(texts, record[key]);
		for (const child of [...((record.options as unknown[]) ?? []), ...((record.values as unknown[]) ?? [])]) {
			if (child && typeof child === 'object') visit(child as INodeProperties);
		}
	};
	for (const description of descriptions) {
		add(labels, description.displayName);
		add(labels, description.defaults?.name);
		add(texts, description.description);
		for (const property of description.properties) visit(property);
	}
	return { labels, texts };
}

/** Each literal as its fixed texts; a template's holes lie between them. */
export function literalsOf(source: string, fileName = 'file.ts'): string[][] {
	const literals: string[][] = [];
	const visit = (node: ts.Node) => {
		if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
			if (!ts.isImportDeclaration(node.parent) && !ts.isExportDeclaration(node.parent)) literals.push([node.text]);
		} else if (ts.isTemplateExpression(node)) {
			literals.push([node.head.text, ...node.templateSpans.map((span) => span.literal.text)]);
		}
		ts.forEachChild(node, visit);
	};
	visit(ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true));
	return literals;
}

/** The literals of every TypeScript file under the given folders of the repository. */
export function sourceLiterals(folders: string[]): string[][] {
	return folders.flatMap((folder) =>
		readdirSync(path.join(ROOT, folder), { recursive: true, encoding: 'utf8' })
			.filter((file) => file.endsWith('.ts'))
			.flatMap((file) => literalsOf(readFileSync(path.join(ROOT, folder, file), 'utf8'), file)),
	);
}

const isLetter = (char: string | undefined) => char !== undefined && /\p{L}/u.test(char);
const hasLetter = (text: string) => /\p{L}/u.test(text);
const sameChar = (a: string, b: string, first: boolean) => a === b || (first && a.toLowerCase() === b.toLowerCase());

/** A piece of a literal being matched: which literal, which fixed text, the words matched so far. */
interface Piece {
	literal: number;
	part: number;
	words: number;
	/** Whether it began at the first character of a literal that only names values in quotes (`tag "${tag}"`): used whole, it may hold one word. */
	whole: boolean;
	cover: (from: number, to: number) => boolean;
}

/**
 * Decides whether a quoted message is made of the code's texts: pieces of literals (through their
 * holes), joined by values.
 */
export class MessageCorpus {
	private readonly literals: string[][];
	/** Where each three characters (in lower case) begin: [literal, fixed text, offset]. */
	private readonly trigrams = new Map<string, Array<[number, number, number]>>();
	private readonly labels: string[];

	constructor(literals: string[][], labels: Iterable<string>) {
		this.literals = literals.filter((parts) => parts.join('').trim() !== '');
		this.literals.forEach((parts, literal) =>
			parts.forEach((text, part) => {
				for (let offset = 0; offset + 3 <= text.length; offset++) {
					const key = text.slice(offset, offset + 3).toLowerCase();
					if (!this.trigrams.has(key)) this.trigrams.set(key, []);
					this.trigrams.get(key)!.push([literal, part, offset]);
				}
			}),
		);
		// Longest first, so that a label is taken whole.
		this.labels = [...new Set(labels)].filter((label) => label.length > 1).sort((a, b) => b.length - a.length);
	}

	/** Whether the quote is made of the code's texts (`...` and `…` stand for any text). */
	covers(quote: string): boolean {
		return quote
			.split(/\.\.\.|…/)
			.map((segment) => segment.trim())
			.filter(Boolean)
			.every((segment) => {
				const memo = new Map<number, boolean>();
				// Whether pieces and values cover the segment from `from` to `to`.
				const cover = (from: number, to: number): boolean => {
					if (from === to) return true;
					const key = from * 100_000 + to;
					if (!memo.has(key)) {
						memo.set(key, false);
						const glued = this.glueEnds(segment, from).some((end) => end <= to && cover(end, to));
						memo.set(key, glued || this.pieceEnds(segment, from, to, cover).some((end) => cover(end, to)));
					}
					return memo.get(key)!;
				};
				return cover(0, segment.length);
			});
	}

	/** Where a value (not a word of prose) that joins two pieces ends, for each way it can be read. */
	glueEnds(text: string, at: number): number[] {
		const ends: number[] = [];
		const sticky = (pattern: RegExp) => {
			pattern.lastIndex = at;
			const match = pattern.exec(text);
			if (match && match[0].length > 0) ends.push(at + match[0].length);
		};
		sticky(/[\s.,;:!?()[\]'’“”–—\-/>→|*`]/y);
		sticky(/"[^"]*"/y);
		sticky(/<[^<>]+>/y);
		sticky(/[^\s"]*\d[^\s"]*/y);
		// A wire name: camelCase, snake_case or dotted (pdfFile, status_message, data.result).
		sticky(/[a-z][a-z0-9]*(?:[A-Z_]\w*|\.[a-z][\w.]*[\w])(?![\p{L}])/uy);
		sticky(/\([a-z][\w.]*\)/y);
		// A code in capitals: a state (SP), a currency (BRL).
		sticky(/\p{Lu}{2,5}(?!\p{L})/uy);
		sticky(/\p{L}(?!\p{L})/uy);
		for (const label of this.labels) {
			if (text.startsWith(label, at) && !isLetter(text[at + label.length]) && !isLetter(text[at - 1])) ends.push(at + label.length);
		}
		return ends;
	}

	/** Where a piece of a literal that starts at `at` in `text` can end, its holes covered by `cover`. */
	pieceEnds(text: string, at: number, limit: number, cover: (from: number, to: number) => boolean): number[] {
		const ends = new Set<number>();
		if (isLetter(text[at - 1]) && isLetter(text[at])) return [];
		const key = text.slice(at, at + 3).toLowerCase();
		if (key.length < 3) return [];
		for (const [literal, part, offset] of this.trigrams.get(key) ?? []) {
			const parts = this.literals[literal];
			if (isLetter(parts[part][offset - 1]) && isLetter(text[at])) continue;
			// Inside a quote a piece leaves out no word of its literal; only the quote's ends may cut one.
			if (at > 0 && (hasLetter(parts[part].slice(0, offset)) || parts.slice(0, part).some(hasLetter))) continue;
			const whole = part === 0 && offset === 0 && parts.length > 1 && parts.slice(1).every((next, hole) => parts[hole].endsWith('"') && next.startsWith('"'));
			this.extend(text, at, limit, { literal, part, words: 0, whole, cover }, offset, true, ends);
		}
		return [...ends];
	}

	/** Matches the literal's fixed text from `offset` at `at`, then goes through its next hole and on. */
	private extend(text: string, at: number, limit: number, state: Piece, offset: number, first: boolean, ends: Set<number>): void {
		const parts = this.literals[state.literal];
		const fixed = parts[state.part];
		let j = at;
		let k = offset;
		let words = state.words;
		while (j < limit && k < fixed.length && sameChar(text[j], fixed[k], first && j === at)) {
			if (isLetter(text[j]) && !isLetter(text[j - 1])) words++;
			j++;
			k++;
			// A piece ends between words, holds two words at least, and leaves out no word of its literal unless the quote ends there.
			const between = !(isLetter(text[j - 1]) && (isLetter(fixed[k]) || isLetter(text[j])));
			const whole = state.whole && state.part === parts.length - 1 && k === fixed.length;
			const lettersAfter = () => hasLetter(fixed.slice(k)) || parts.slice(state.part + 1).some(hasLetter);
			if (between && (words >= 2 || whole) && (j === text.length || !lettersAfter())) ends.add(j);
		}
		if (k < fixed.length) return;
		if (state.part + 1 < parts.length) {
			// A hole: any covered text, then the literal's next fixed text.
			for (let m = j; m <= limit; m++) if (state.cover(j, m)) this.extend(text, m, limit, { ...state, part: state.part + 1, words }, 0, false, ends);
		} else if (fixed === '' && words >= 2) {
			// The literal ends with a hole.
			ends.add(j);
		}
	}
}
