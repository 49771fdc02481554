/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
/**
 * The parts of the documentation made from a real run: each sits between two HTML comments, which
 * `npm run docs:outputs` rewrites in place and the tests compare with a new run.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { ASSUMPTIONS, TRIGGER_ASSUMPTIONS } from '../../scripts/check-service/assumptions';

export const ROOT = path.resolve(__dirname, '../..');

export interface Section {
	/** The marker's name: `<!-- name:start … -->` … `<!-- name:end -->`. */
	name: string;
	/** The page that carries it, relative to the repository's root. */
	file: string;
	/** What a run makes of it now; loaded when called, so that reading the pages starts no engine. */
	make: () => Promise<string>;
}

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

/** Every section, in the order `npm run docs:outputs` writes them. */
export const SECTIONS: Section[] = [
	{ name: 'outputs', file: 'docs/outputs.md', make: async () => (await import('./outputs')).outputsSection() },
	// Every event's item sits in the trigger reference; each guide points at it (outputs.test.ts).
	{ name: 'events', file: 'docs/trigger.md', make: async () => (await import('./events')).eventsSection() },
	{ name: 'assumptions', file: 'docs/assumptions.md', make: assumptionsSection },
	{ name: 'routes', file: 'docs/reference.md', make: async () => (await import('./routes')).routesSection() },
];

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
