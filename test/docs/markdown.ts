/**
 * What the documentation tests read from Markdown: headings and their anchors as GitHub makes them,
 * links, and table rows, all outside code blocks.
 */

/** The lines of a Markdown text that are not inside a fenced code block. */
export function proseLines(text: string): string[] {
	let fenced = false;
	return text.split('\n').filter((line) => {
		if (/^\s*```/.test(line)) {
			fenced = !fenced;
			return false;
		}
		return !fenced;
	});
}

export function headings(text: string): string[] {
	return proseLines(text)
		.map((line) => /^#{1,6} (.+?)\s*#*$/.exec(line)?.[1])
		.filter((title): title is string => title !== undefined);
}

/** GitHub's anchor for a heading: lower case, punctuation dropped (not - and _), spaces as hyphens. */
export function slug(title: string): string {
	return title
		.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
		.replace(/<[^>]+>/g, '')
		.toLowerCase()
		.trim()
		.replace(/[^\p{L}\p{M}\p{N}\s_-]/gu, '')
		.replace(/\s/g, '-');
}

/** Every anchor of a page: a repeated heading gets -1, -2... as on GitHub. */
export function anchors(text: string): Set<string> {
	const seen = new Map<string, number>();
	const result = new Set<string>();
	for (const title of headings(text)) {
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
