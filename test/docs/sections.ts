/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
/**
 * The parts of the documentation made from a real run: each sits between two HTML comments, which
 * `npm run docs:outputs` rewrites in place and the tests compare with a new run.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(__dirname, '../..');

export interface Section {
	/** The marker's name: `<!-- name:start … -->` … `<!-- name:end -->`. */
	name: string;
	/** The files that carry it, relative to the repository's root. */
	files: string[];
}

export const OUTPUTS: Section = { name: 'outputs', files: ['docs/outputs.md'] };
// Every event's item sits in the trigger reference; each guide quotes one of them (outputs.test.ts).
export const EVENTS: Section = { name: 'events', files: ['docs/trigger.md'] };
export const ASSUMPTIONS_SECTION: Section = { name: 'assumptions', files: ['docs/assumptions.md'] };
export const ROUTES_SECTION: Section = { name: 'routes', files: ['docs/reference.md'] };

export const startMarker = (name: string) => `<!-- ${name}:start (made by \`npm run docs:outputs\`; a test compares it with a real run) -->`;
export const endMarker = (name: string) => `<!-- ${name}:end -->`;

export const readDoc = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

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
export function readSection(text: string, name = OUTPUTS.name): string | undefined {
	const start = text.indexOf(startMarker(name));
	const end = text.indexOf(endMarker(name));
	if (start < 0 || end < start) return undefined;
	return text.slice(start + startMarker(name).length, end).trim();
}

export function writeSection(text: string, section: string, name = OUTPUTS.name): string {
	const start = text.indexOf(startMarker(name));
	const end = text.indexOf(endMarker(name));
	if (start < 0 || end < start) throw new Error(`No ${startMarker(name)} … ${endMarker(name)} markers`);
	return `${text.slice(0, start + startMarker(name).length)}\n\n${section}\n\n${text.slice(end)}`;
}
