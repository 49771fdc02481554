/**
 * Every label and message the documentation quotes is one the nodes show today (which quotes count:
 * quotes.ts; what they are held to: messageCorpus.ts). A renamed field, option or action, or a
 * reworded error, fails here until the pages say the new words.
 */

import type { INodeType, INodeTypeDescription } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { PostalServiceApi } from '../../credentials/PostalServiceApi.credentials';
import { PostalServiceChatApi } from '../../credentials/PostalServiceChatApi.credentials';
import { PostalServiceWebhookApi } from '../../credentials/PostalServiceWebhookApi.credentials';
import { CREATE_FIELD_NAMES } from '../../nodes/PostalService/actions/shared/letterOrder.description';
import { PostalService } from '../../nodes/PostalService/PostalService.node';
import { PostalServiceTrigger } from '../../nodes/PostalServiceTrigger/PostalServiceTrigger.node';
import { toolVariant } from '../harness/testNodes.cjs';
import { examples } from './exampleGraph';
import { descriptionTexts, literalsOf, MessageCorpus, sourceLiterals } from './messageCorpus';
import { OTHER_LABELS, OTHER_MESSAGES, quotesOf, readsAsLabel, readsAsMessage, type Quote } from './quotes';
import { pages, readDoc } from './sections';

const action = new PostalService();
const tool = toolVariant(action as INodeType).description;
const trigger = new PostalServiceTrigger();
const credentials = [new PostalServiceApi(), new PostalServiceChatApi(), new PostalServiceWebhookApi()];

/** What n8n shows of the tool it makes of the node: its name and, left automatic, each operation's description. */
function toolTexts(): string[] {
	const name = `${action.description.displayName} Tool`;
	const operations = tool.properties.filter((property) => property.name === 'operation');
	const actions = operations.flatMap((property) => (property.options as Array<{ action?: string }>).map((option) => option.action ?? ''));
	// n8n's makeDescription: "<action> in <the node's default name>".
	return [name, ...actions.filter(Boolean).map((text) => `${text} in ${action.description.defaults.name}`)];
}

/** The triggers n8n's nodes panel lists for the trigger: "On <event>", the event's name in lower case. */
function triggerActions(): string[] {
	const events = trigger.description.properties.find((property) => property.name === 'events')!;
	return (events.options as Array<{ name: string }>).map(({ name }) => `On ${name.toLowerCase()}`);
}

/** The names the development launcher's banner gives its addresses ("Sandbox panel:", "Sample PDF:"). */
function bannerLabels(): string[] {
	return literalsOf(readDoc('scripts/dev/dev.ts'))
		.map((parts) => /^\s*(\p{Lu}[\p{L} ]+):\s/u.exec(parts[0])?.[1])
		.filter((label): label is string => label !== undefined);
}

/**
 * The texts of the sandbox's panel: its short literals, and inside its page (one literal holding
 * HTML and the script that builds the tables) the text between tags and the script's quoted strings.
 */
function sandboxLabels(): string[] {
	return sourceLiterals(['sandbox'])
		.flatMap((parts) => parts.flatMap((part) => [part, ...[...part.matchAll(/(?=>([^<>]+)<)|'(?=([^'<>\n]+)')/g)].map(([, text, quoted]) => text ?? quoted)]))
		.map((text) => text.trim())
		.filter((text) => text && text.split(/\s+/).length <= 8);
}

/** What an imported example shows: its nodes' names and the names of the credentials it expects. */
const exampleLabels = () => examples.flatMap(({ workflow }) => workflow.nodes.flatMap((node) => [node.name, ...Object.values(node.credentials ?? {}).map(({ name }) => name)]));

/**
 * The node's literals as its refusals print them: ItemCheck names a field `"Label" (field)` where the
 * code writes `"field"`, so a page quoting the bare name quotes a message the node never shows.
 */
function asPrinted(literals: string[][]): string[][] {
	const named = (part: string) => part.replace(/"(\w+)"/g, (whole, field: string) => (CREATE_FIELD_NAMES[field] ? `"${CREATE_FIELD_NAMES[field]}" (${field})` : whole));
	return literals.map((parts) => parts.map(named));
}

function known() {
	const described = descriptionTexts([action.description, tool as INodeTypeDescription, trigger.description, ...credentials]);
	// A field is named without the unit its label ends with, too: "Batch Interval" for "Batch Interval (Ms)".
	const shown = [...described.labels, ...toolTexts(), ...triggerActions(), ...bannerLabels(), ...sandboxLabels(), ...exampleLabels()];
	const labels = new Set([...shown, ...shown.map((label) => label.replace(/ \([^()]+\)$/, '')), ...OTHER_LABELS]);
	const literals = [...asPrinted(sourceLiterals(['nodes'])), ...sourceLiterals(['credentials', 'sandbox']), ...[...described.texts, ...toolTexts()].map((text) => [text])];
	const corpus = new MessageCorpus(literals, labels);
	// Resource → the names and actions of its operations, as the Resource and Operation lists show them.
	const resources = new Map<string, Set<string>>();
	for (const description of [action.description, tool]) {
		const resource = description.properties.find((property) => property.name === 'resource')!;
		for (const { name, value } of resource.options as Array<{ name: string; value: string }>) {
			const operations = description.properties.filter((property) => property.name === 'operation' && property.displayOptions?.show?.resource?.includes(value));
			const options = operations.flatMap((property) => property.options as Array<{ name: string; action?: string }>);
			resources.set(name, new Set([...(resources.get(name) ?? []), ...options.flatMap((option) => [option.name, option.action ?? option.name])]));
		}
	}
	return { labels, corpus, resources };
}

const KNOWN = known();

/** Whether a bold or italic name is one of the screens' labels: whole, or part by part for a path, `Label: Option` or `Label (note)`. */
function labelIsKnown(text: string): boolean {
	const label = text.replace(/^"(.*)"$/, '$1').trim();
	if (KNOWN.labels.has(label)) return true;
	const path = label.split(/\s+(?:>|→)\s+/);
	if (path.length > 1) {
		const operations = KNOWN.resources.get(path[0]);
		if (operations && path.length === 2) return path[1].split(/,\s+/).every((name) => operations.has(name));
		return path.every(labelIsKnown);
	}
	const noted = /^(.+?) \([^()]+\)$/.exec(label);
	if (noted && labelIsKnown(noted[1])) return true;
	const named = /^(.+?): (.+)$/.exec(label);
	return named ? labelIsKnown(named[1]) && labelIsKnown(named[2]) : false;
}

function stale(quotes: Quote[]): string[] {
	return quotes
		.filter(({ kind, text }) => (kind === 'label' ? !labelIsKnown(text) : !OTHER_MESSAGES.has(text) && !KNOWN.corpus.covers(text)))
		.map(({ file, line, kind, text }) => `${file}:${line} ${kind} ${text}`);
}

const allQuotes = () => pages().flatMap((file) => quotesOf(file, readDoc(file)));

describe('quotes of the panel and of the messages in the documentation', () => {
	it.each([
		['label', 'name only labels the panel, the credentials, the sandbox or the listed screens show', 100],
		['message', 'quote only messages the code can print, or the listed ones of other software', 20],
	] as const)('%s quotes: %s', (kind, _rule, atLeast) => {
		const quotes = allQuotes().filter((quote) => quote.kind === kind);
		expect(quotes.length).toBeGreaterThan(atLeast);
		expect(stale(quotes)).toEqual([]);
	});

	it('list in OTHER_LABELS and OTHER_MESSAGES only what some page quotes and the package does not show', () => {
		const quoted = new Set(allQuotes().map(({ text }) => text));
		const listed = [...OTHER_LABELS, ...OTHER_MESSAGES];
		expect(listed.filter((text) => !quoted.has(text) && ![...quoted].some((quote) => quote.includes(text)))).toEqual([]);
		const described = descriptionTexts([action.description, trigger.description, ...credentials]).labels;
		expect([...OTHER_LABELS].filter((text) => described.has(text))).toEqual([]);
	});
});

describe('the quote check itself', () => {
	it("takes the node's own messages and refuses each reworded by one word or cut to a lone word of a longer literal", () => {
		const pairs: Array<[string, string]> = [
			[`"Retry On Fail" is on in this node's settings, which Send letter does not allow`, `"Retry On Fail" is on in this node's settings, which Send letter does not permit`],
			['... the input item has no binary field "data"', '... the input item lacks a binary field "data"'],
			['"Recipient State" (state) is RJ but postal code 01310-100 belongs to SP', '"Recipient State" (state) is RJ but the postal code 01310-100 belongs to SP'],
			['The service refused "PDF URL" (pdfFile): fix it and run again. Nothing was sent. The service said: <its words>', 'The service rejected "PDF URL" (pdfFile): fix it and run again.'],
			["This trigger's settings would run duplicates", "This trigger's options would run duplicates"],
			['the request may have been accepted', 'the request might have been accepted'],
			['Item 2 of 3: "Recipient Postal Code" must be a Brazilian postal code of 8 digits (like 01310-100); got "0130". Nothing was sent.', 'Item 2: "Recipient Postal Code" must be a Brazilian postal code of 8 digits (like 01310-100); got "0130". Nothing was sent.'],
			['... the input item has no binary field "data". Nothing was sent.', '... the input item has no binary field "data". Nothing was sent again.'],
		];
		expect(pairs.filter(([current]) => !KNOWN.corpus.covers(current))).toEqual([]);
		expect(pairs.filter(([, reworded]) => KNOWN.corpus.covers(reworded))).toEqual([]);
	});

	it('tells names and messages from emphasis, values and commands', () => {
		expect(['Maximum Price (BRL)', 'Letter > Send', 'Get letter price'].every(readsAsLabel)).toBe(true);
		expect(['never resent', 'Wiring.', 'Step 5', 'token de segurança'].some(readsAsLabel)).toBe(false);
		expect(['... the input item has no binary field "data"', 'The request was not sent again.'].every(readsAsMessage)).toBe(true);
		expect(['npm run dev', '{ error, message }', 'data.status.new', 'https://n8n.example.com/', 'Objeto postado'].some(readsAsMessage)).toBe(false);
	});

	it('finds the quotes of a page outside code blocks, in code spans, bold and italic', () => {
		const page = ['Set **Maximum Price (BRL)** and *Physical*, then `The request was not sent again.`', '```', '**Inside Code**', '```'].join('\n');
		expect(quotesOf('page.md', page).map(({ kind, text }) => `${kind} ${text}`)).toEqual([
			'message The request was not sent again.',
			'label Maximum Price (BRL)',
			'label Physical',
		]);
	});

	it('knows a stale label from a current one', () => {
		expect(labelIsKnown('Postal Service Webhook Signature API')).toBe(true);
		expect(labelIsKnown('Postal Service Webhook API')).toBe(false);
		expect(labelIsKnown('Letter > Get Price')).toBe(true);
		expect(labelIsKnown('Letter > Get Prices')).toBe(false);
	});
});
