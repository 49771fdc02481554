/**
 * The guide's "Events" items, made from a real run: the sandbox creates a registered letter and
 * sends every event kind, signed, to the trigger run through n8n's engine; the last item of each
 * event is written as JSON with the dates fixed. `outputs.test.ts` compares the result with both
 * guides; `writeOutputs.ts` rewrites them.
 */
import { WEBHOOK_EVENTS } from '../../nodes/PostalServiceTrigger/webhookLists';
import { startSandbox } from '../../sandbox';
import { SAMPLE_RECIPIENT } from '../../sandbox/recipient';
import { startTriggerReceiver } from '../trigger/receiver';
import { makePdf } from '../harness/sends';
import { SECRET } from '../trigger/support';
import { normalise, shown } from './outputs';

const TOKEN = 'tok-events-example';
const WIDTH = 100;

/**
 * Valid JSON, packed to stay short in the guide: what fits on a line stays on it, and short entries
 * of an object or list share lines up to the width.
 */
export function compactJson(value: unknown, indent = '', prefix = 0): string {
	const inline = JSON.stringify(value, null, 1)?.replace(/\n\s*/g, ' ').replace(/([[{]) /g, '$1').replace(/ ([\]}])/g, '$1') ?? 'null';
	if (value === null || typeof value !== 'object' || indent.length + prefix + inline.length <= WIDTH) return inline;
	const inner = `${indent}  `;
	const pieces = Array.isArray(value)
		? value.map((entry) => compactJson(entry, inner))
		: Object.entries(value).map(([key, entry]) => `${JSON.stringify(key)}: ${compactJson(entry, inner, key.length + 4)}`);
	const lines: string[] = [];
	for (const [index, piece] of pieces.entries()) {
		const text = index < pieces.length - 1 ? `${piece},` : piece;
		const last = lines.at(-1);
		if (last !== undefined && !last.includes('\n') && !text.includes('\n') && last.length + 1 + text.length <= WIDTH) {
			lines[lines.length - 1] = `${last} ${text}`;
		} else {
			lines.push(`${inner}${text}`);
		}
	}
	const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
	return [open, ...lines, `${indent}${close}`].join('\n');
}

export async function eventsSection(): Promise<string> {
	const sandbox = await startSandbox({ port: 0, token: TOKEN, webhookSecret: SECRET, environment: 'production', timeScale: 10, quiet: true });
	const receiver = await startTriggerReceiver({ parameters: { events: WEBHOOK_EVENTS.map((event) => event.value) } });
	try {
		const endpoint = sandbox.control.registerWebhook({ url: receiver.url });
		const form = new URLSearchParams({
			userSecurityToken: TOKEN,
			shipType: '3',
			...SAMPLE_RECIPIENT,
			pdfFile: (await makePdf(2)).toString('base64'),
			tag: 'invoice-2026-03',
		});
		const created = (await (await fetch(`${sandbox.baseUrl}/api/v2/post`, { method: 'POST', body: form })).json()) as { data: unknown };
		if (typeof created.data !== 'string') throw new Error(`The example letter was not created: ${JSON.stringify(created)}`);
		const id = created.data;
		sandbox.control.setOrderStatus(id, 1);
		sandbox.control.addTrackingEvent(id);
		sandbox.control.addTrackingEvent(id);
		sandbox.control.addReturnReceipt(id, {});
		sandbox.control.sendTestEvent(endpoint.id);
		const sent = 6;
		await sandbox.control.waitForDeliveries((all) => all.length >= sent && all.every((d) => d.state === 'delivered' || d.state === 'failed'), 20_000);
		const items = receiver.items();
		if (items.length !== sent) throw new Error(`The trigger emitted ${items.length} items for ${sent} deliveries`);
		return WEBHOOK_EVENTS.map(({ value, name }) => {
			const item = items.filter((entry) => entry.json.event === value).at(-1);
			if (!item) throw new Error(`No item of ${value}`);
			const json = compactJson(normalise(shown(item), new Map([[sandbox.baseUrl, '{base_url}']])));
			return [`**${name}** (\`${value}\`)`, '```json', json, '```'].join('\n');
		}).join('\n\n');
	} finally {
		await sandbox.stop();
		await receiver.close();
	}
}
