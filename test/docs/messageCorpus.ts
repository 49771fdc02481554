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
const sameChar = (a: string, b: string, first: boolean) => a === b || (first && a.toLowerCase() === b.toLowerCase());

/**
 * Decides whether a quoted message is made of the code's texts: pieces of literals (through their
 * holes), joined by values.
 */
export class MessageCorpus {
	private readonly literals: string[][];
	/** Every fixed text, each followed by a NUL; `owner[k]` = [literal, part, start] of the k-th part. */
	private readonly fixed: string;
	private readonly owner: Array<[number, number, number]> = [];
	private readonly starts = new Map<string, number>();
	private readonly partAt: Int32Array;
	private readonly trigrams = new Map<string, number[]>();
	/** Whether the literal holds a letter before (after) a position of `fixed`. */
	private readonly lettersBefore: Uint8Array;
	private readonly lettersAfter: Uint8Array;
	private readonly labels: string[];
	/** Whether a literal only names values in quotes (`tag "${tag}"`): used whole, it may hold one word. */
	private readonly quotesValues: boolean[];

	constructor(literals: string[][], labels: Iterable<string>) {
		this.literals = literals.map((parts) => parts.map((part) => part.replace(/\u0000/g, ''))).filter((parts) => parts.join('').trim() !== '');
		const chunks: string[] = [];
		let offset = 0;
		this.literals.forEach((parts, literal) =>
			parts.forEach((part, index) => {
				this.owner.push([literal, index, offset]);
				chunks.push(`${part}\u0000`);
				offset += part.length + 1;
			}),
		);
		this.fixed = chunks.join('');
		for (const [literal, part, start] of this.owner) this.starts.set(`${literal}:${part}`, start);
		this.quotesValues = this.literals.map((parts) => parts.length > 1 && parts.slice(1).every((part, hole) => parts[hole].endsWith('"') && part.startsWith('"')));
		this.partAt = new Int32Array(this.fixed.length);
		let part = 0;
		for (let k = 0; k < this.fixed.length; k++) {
			this.partAt[k] = part;
			if (this.fixed[k] === '\u0000') part++;
		}
		this.lettersBefore = new Uint8Array(this.fixed.length + 1);
		this.lettersAfter = new Uint8Array(this.fixed.length + 1);
		this.literals.forEach((parts, literal) => {
			const spans = parts.map((part, index) => [this.partStart(literal, index), part.length] as const);
			let seen = 0;
			for (const [start, length] of spans) {
				for (let k = start; k <= start + length; k++) {
					this.lettersBefore[k] = seen;
					if (k < start + length && isLetter(this.fixed[k])) seen = 1;
				}
			}
			seen = 0;
			for (const [start, length] of [...spans].reverse()) {
				for (let k = start + length; k >= start; k--) {
					if (k < start + length && isLetter(this.fixed[k])) seen = 1;
					this.lettersAfter[k] = seen;
				}
			}
		});
		for (let k = 0; k + 3 <= this.fixed.length; k++) {
			const key = this.fixed.slice(k, k + 3).toLowerCase();
			if (key.includes('\u0000')) continue;
			const list = this.trigrams.get(key);
			if (list) list.push(k);
			else this.trigrams.set(key, [k]);
		}
		// Longest first, so that a label is taken whole.
		this.labels = [...new Set(labels)].filter((label) => label.length > 1).sort((a, b) => b.length - a.length);
	}

	/** Whether the quote is made of the code's texts (`...` and `…` stand for any text). */
	covers(quote: string): boolean {
		return quote
			.split(/\.\.\.|…/)
			.map((segment) => segment.trim())
			.filter(Boolean)
			.every((segment) => new Cover(this, segment).whole());
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
		for (const start of this.trigrams.get(key) ?? []) {
			if (isLetter(this.fixed[start - 1]) && isLetter(text[at])) continue;
			// Inside a quote a piece leaves out no word of its literal; only the quote's ends may cut one.
			if (at > 0 && this.lettersBefore[start]) continue;
			const [literal, part, partStart] = this.owner[this.partAt[start]];
			this.extend(text, at, limit, { literal, part, words: 0, whole: part === 0 && start === partStart && this.quotesValues[literal], cover }, start, true, ends);
		}
		return [...ends];
	}

	/** The offset in `fixed` where a literal's fixed text begins. */
	private partStart(literal: number, part: number): number {
		return this.starts.get(`${literal}:${part}`)!;
	}

	/** Matches the literal's fixed text from `position` at `at`, then goes through its next hole. */
	private extend(text: string, at: number, limit: number, state: Piece, position: number, first: boolean, ends: Set<number>): void {
		const parts = this.literals[state.literal];
		let j = at;
		let k = position;
		let words = state.words;
		while (j < limit && this.fixed[k] !== '\u0000' && sameChar(text[j], this.fixed[k], first && j === at)) {
			if (isLetter(text[j]) && !isLetter(text[j - 1])) words++;
			j++;
			k++;
			// A piece ends between words, holds two words at least, and leaves out no word of its literal unless the quote ends there.
			const between = !(isLetter(text[j - 1]) && (isLetter(this.fixed[k]) || isLetter(text[j])));
			const whole = state.whole && state.part === parts.length - 1 && this.fixed[k] === '\u0000';
			if (between && (words >= 2 || whole) && (j === text.length || !this.lettersAfter[k])) ends.add(j);
		}
		if (this.fixed[k] !== '\u0000' || state.part + 1 >= parts.length) return;
		this.hole(text, j, limit, { ...state, part: state.part + 1, words }, ends);
	}

	/** A hole from `from`: any covered text, then the literal's next fixed text. */
	private hole(text: string, from: number, limit: number, state: Piece, ends: Set<number>): void {
		const parts = this.literals[state.literal];
		const next = parts[state.part];
		const start = this.partStart(state.literal, state.part);
		for (let m = from; m <= limit; m++) {
			if (!state.cover(from, m)) continue;
			if (next !== '') {
				if (m < limit && text[m] === next[0]) this.extend(text, m, limit, state, start, false, ends);
			} else if (state.part === parts.length - 1) {
				if (state.words >= 2) ends.add(m);
			} else {
				this.hole(text, m, limit, { ...state, part: state.part + 1 }, ends);
			}
		}
	}
}

/** A piece of a literal being matched: which literal, which fixed text, the words matched so far. */
interface Piece {
	literal: number;
	part: number;
	words: number;
	/** Whether it began at the first character of a literal that only names values in quotes. */
	whole: boolean;
	cover: (from: number, to: number) => boolean;
}

/** One quote's segment: whether pieces and values cover it, from its start to its end. */
class Cover {
	private readonly memo = new Map<number, boolean>();

	constructor(
		private readonly corpus: MessageCorpus,
		private readonly text: string,
	) {}

	whole(): boolean {
		return this.range(0, this.text.length);
	}

	range(from: number, to: number): boolean {
		if (from === to) return true;
		const key = from * 100_000 + to;
		const known = this.memo.get(key);
		if (known !== undefined) return known;
		this.memo.set(key, false);
		const result =
			this.corpus.glueEnds(this.text, from).some((end) => end <= to && this.range(end, to)) ||
			this.corpus.pieceEnds(this.text, from, to, (a, b) => this.range(a, b)).some((end) => this.range(end, to));
		this.memo.set(key, result);
		return result;
	}
}
