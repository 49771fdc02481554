/**
 * The documentation's quotes of what the nodes show, so that a renamed label or a reworded message
 * cannot leave a stale quote behind (quotes.test.ts checks each; messageCorpus.ts says against what).
 *
 * Which quotes count (the convention the pages follow, outside fenced code blocks):
 * - **A label**: a bold or italic span that reads as a name: it starts with a capital letter, has at
 *   most eight words, some in lower case, no word that is only a number, no "is" or "are" of a
 *   statement, and does not end as a sentence does (`.`, `:`, `?`, `!`); a span that opens a
 *   paragraph, a list item or a table cell and is followed there by text is a run-in heading, not a
 *   quote. It must be a name the built descriptions show (a node, a credential, a field, an option,
 *   an action, a notice, n8n's tool and trigger names made of them), a text of the sandbox's panel,
 *   of the development banner or of an example, or one of OTHER_LABELS. `A > B`, `A → B` and `A: B`
 *   are checked part by part, `Resource > Operation, Operation` against that resource's operations,
 *   `Label (note)` and a label without its unit by the label.
 * - **A message**: a code span that reads as a sentence: at least three words, starting with a
 *   letter, a quote, an ellipsis or a `<placeholder>`, holding no `{`, `=` or `://`, and not a
 *   command. It must be made of the texts the code can print (see messageCorpus.ts), or be one of
 *   OTHER_MESSAGES.
 * - Text in double quotes in prose is not checked: it quotes n8n, the interface or the service.
 */
import { proseLines } from './sections';

/**
 * Bold or italic names the pages give that the package does not show, by where they are from. An
 * entry no page quotes any more, or one the package now shows, fails the test: the list only shrinks.
 */
const OTHER_NAMES = {
	/** n8n's editor: node settings, its own nodes and their fields, menus, buttons. */
	n8n: [
		'Add first step…', 'AI Agent', 'Always Output Data', 'Authentication', 'Basic Auth', 'Binary', 'Chat Trigger', 'Continue (using error output)', 'Continue On Fail',
		'Create new credential', 'Create workflow',
		'Credential', 'Credential Type', 'Data tables', 'Download', 'Executions', 'Execute step', 'Form Data', 'Form URL Encoded', 'Form-Data', 'From URL', 'From file', 'Google Sheets', 'Got it', 'Header Auth', 'HTTP Request',
		'Import', 'Install', 'Install a community node', 'Let the model define this parameter', 'Listening for test event',
		'Map Automatically', 'On Error', 'On Error: Continue', 'OpenAI', 'Overview', 'Predefined Credential Type', 'Production URL', 'Publish',
		'Remove Duplicates', 'Retry On Fail', 'Set Manually', 'Settings', 'Stop Workflow', 'Test', 'Test URL', 'Tool',
		'Tool Description', 'Trigger manually', 'Use Responses API', 'Webhook URLs',
	],
	/** The service's account panel, as its interface names it. */
	service: ['API access'],
	/** npm's website (the publishing page). */
	npm: ['Publishing access'],
	/** What the Correios call a service the node offers under its own name. */
	correios: ['AR Digital'],
	/** Bold names that head a table's row or name a language, not a screen. */
	headings: ['AI tool set to Continue', 'AI tool set to Stop Workflow', 'Português (Brasil)'],
};

/** Labels of other screens that the pages name, or names that are not labels (OTHER_NAMES). */
export const OTHER_LABELS: ReadonlySet<string> = new Set(Object.values(OTHER_NAMES).flat());

/** Messages of other software that the pages quote in code spans: n8n's. */
export const OTHER_MESSAGES: ReadonlySet<string> = new Set([
	'Class could not be found',
	'Error during node execution:',
	'Unrecognized node type',
	'request.body.data requires property "allowedDomains"',
]);

export interface Quote {
	file: string;
	line: number;
	kind: 'label' | 'message';
	text: string;
}

const COMMANDS = /^(npm|npx|git|node|bash|curl|docker|tsx|cd|mkdir|export|n8n|apt-get|brew|xcode-select|source)\b/;
const WORD = /^["'(]?\p{L}[\p{L}'’-]*[)"',.;:!?]*$/u;

/** Whether a code span reads as a message rather than a name, a value, a command or code. */
export function readsAsMessage(span: string): boolean {
	const text = span.trim();
	if (!/^(\p{L}|"|\.\.\.|…|<)/u.test(text) || /[{=]|:\/\//.test(text) || COMMANDS.test(text)) return false;
	return text.split(/\s+/).filter((token) => WORD.test(token)).length >= 3;
}

/** Whether a bold or italic span reads as a name shown on a screen rather than emphasis. */
export function readsAsLabel(span: string): boolean {
	const text = span.trim();
	// Capitals alone are a value or an abbreviation ("DIFFERS", "JSON"), not a label to check.
	if (!/^\p{Lu}/u.test(text) || /[.:?!]$/.test(text) || !/\p{Ll}/u.test(text)) return false;
	// A statement ("Credentials are read once per execution") is emphasis, not a name.
	if (/\b(is|are|was|were|has|have|does)\b/.test(text)) return false;
	const words = text.split(/\s+/);
	return words.length <= 8 && !words.some((word) => /^[\d.,×%]+$/.test(word));
}

/** The quotes of one page, in order. */
export function quotesOf(file: string, text: string): Quote[] {
	const quotes: Quote[] = [];
	// Fenced blocks blanked, so that offsets keep their lines; a span may go on over one line break.
	const prose = proseLines(text).join('\n');
	const lineAt = (offset: number) => prose.slice(0, offset).split('\n').length;
	const add = (kind: Quote['kind'], span: string, offset: number) => quotes.push({ file, line: lineAt(offset), kind, text: span.replace(/\s+/g, ' ').trim() });
	// Code spans first (one or two backticks), then bold, then italic in what is left; each blanked once read.
	const blank = (match: string) => match.replace(/[^\n]/g, ' ');
	let rest = prose;
	for (const { start, end, span } of codeSpans(prose)) {
		if (readsAsMessage(span)) add('message', span, start);
		rest = rest.slice(0, start) + blank(rest.slice(start, end)) + rest.slice(end);
	}
	rest = rest.replace(/\*\*((?:[^*\n]|\n(?!\s*\n))+?)\*\*/g, (match, span: string, offset: number) => {
		if (readsAsLabel(span) && !opensBlock(rest, offset, match.length)) add('label', span, offset);
		return blank(match);
	});
	for (const match of rest.matchAll(/(?<![*\w])\*(?![\s*])((?:[^*\n]|\n(?!\s*\n))+?)(?<!\s)\*(?![*\w])/g)) {
		if (readsAsLabel(match[1]) && !opensBlock(rest, match.index, match[0].length)) add('label', match[1], match.index);
	}
	return quotes;
}

/**
 * The code spans of a text as CommonMark reads them: a run of backticks opens one, the next run of
 * the same length closes it (so a span of two backticks may hold single ones), within one paragraph.
 */
function codeSpans(text: string): Array<{ start: number; end: number; span: string }> {
	return [...text.matchAll(/(?<!`)(`+)(?!`)((?:(?!\n\s*\n)[^])+?)(?<!`)\1(?!`)/g)].map((match) => ({
		start: match.index,
		end: match.index + match[0].length,
		span: match[2].replace(/^ (.*) $/s, '$1'),
	}));
}

/**
 * Whether a span opens a paragraph, a list item or a table cell and text follows it there: a
 * run-in heading ("**Docker**: keep…"), not a quote of a screen. A cell that is all one span is a quote.
 */
function opensBlock(text: string, offset: number, length: number): boolean {
	const before = text.slice(text.lastIndexOf('\n', offset - 1) + 1, offset);
	if (!/^\s*(?:[-*+]\s+|\d+\.\s+|>\s*)?$/.test(before) && !/\|\s*$/.test(before)) return false;
	const after = text.slice(offset + length).split('\n')[0];
	return !/^\s*(\||$)/.test(after);
}
