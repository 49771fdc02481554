/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
// Examples started by a request to their webhook: a PDF and an address, a CSV file, a telegram
// reminder. Each one is called without its credential first, then as its note says.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

import { expect } from 'vitest';

import { dataTableRows, examplesDir } from '../../../scripts/dev/workflows';
import { note } from '../../docs/exampleGraph';
import { pdfWithPages } from '../../sandbox/support';
import type { E2eEnvironment } from './environment';
import { call, creates, example, finishedExecutions, importExample, postJson, refusedWithoutCredential, sha256 } from './examples';
import { pdfOfSize } from './service';

/**
 * CSV as n8n's Convert to File writes it: a byte order mark, a header line, fields quoted when they
 * hold a comma or a quote (none of the mail merge's fields holds a line break).
 */
export function parseCsv(csv: string): Array<Record<string, string>> {
	// Each field follows a comma (one put before the line's first): quoted with its quotes doubled, or bare.
	const fieldsOf = (line: string) => [...`,${line}`.matchAll(/,(?:"((?:[^"]|"")*)"|([^,]*))/g)].map((m) => (m[1] !== undefined ? m[1].replaceAll('""', '"') : m[2]));
	const [header, ...rows] = csv.replace(/^\uFEFF/, '').split(/\r?\n/).filter(Boolean).map(fieldsOf);
	return rows.map((r) => Object.fromEntries(header.map((name, i) => [name, r[i] ?? ''])));
}

export async function sendRegisteredLetter(env: E2eEnvironment): Promise<void> {
	const entry = await importExample(env, example('send-registered-letter-from-pdf.json'));
	const { id, url, headers } = entry;
	const pdf = await pdfOfSize(0, 'Notificação extrajudicial');
	const fields = { name: 'Ana Pereira', street: 'Rua Augusta', number: '500', complement: 'Apto 12', zip: '01305-000', city: 'São Paulo', state: 'SP', reference: `letter-${Date.now()}` };
	const form = (change: Partial<typeof fields> = {}, file = pdf) => {
		const body = new FormData();
		for (const [key, value] of Object.entries({ ...fields, ...change })) body.set(key, value);
		body.set('data', new Blob([new Uint8Array(file)], { type: 'application/pdf' }), 'notice.pdf');
		return { method: 'POST', body };
	};
	const post = (change: Partial<typeof fields> = {}, file = pdf) => call(url, { ...form(change, file), headers });
	const { control } = env.sandbox;
	const tagged = (reference: string) => control.orders().filter((o) => o.tag === reference);
	const rows = async (reference: string) => (await dataTableRows(env.client, 'postal_sent_letters')).filter((r) => r.reference === reference);

	await refusedWithoutCredential(env, entry, () => form());

	// The service refuses the letter (a postal code of the wrong length): nothing sent, the reference still free...
	const refused = await post({ zip: '0130-500' });
	expect(refused.status, refused.text).toBe(422);
	expect(refused.json).toMatchObject({ sent: false, reference: fields.reference });
	expect(String(refused.json?.error)).toMatch(/Postal Code|8 digits/);
	expect(tagged(fields.reference)).toHaveLength(0);
	expect(await rows(fields.reference)).toHaveLength(0);

	// ...so the corrected request, with the same reference, is sent.
	const answer = await post();
	expect(answer.status, answer.text).toBe(200);
	expect(answer.json).toMatchObject({ sent: true, reference: fields.reference });
	const orderId = String(answer.json?.orderId);
	expect(control.order(orderId)).toMatchObject({ shipType: 3, name: 'Ana Pereira', tag: fields.reference });
	expect(creates(env, fields.reference).map((r) => r.files.map((f) => f.sha256))).toEqual([[sha256(pdf)]]);
	expect(await rows(fields.reference)).toEqual([expect.objectContaining({ status: 'sent', order_id: orderId })]);

	// A client that sends the same request again (its answer was lost) gets the same order, and no second letter.
	const again = await post();
	expect(again.status, again.text).toBe(200);
	expect(again.json).toMatchObject({ alreadySent: true, reference: fields.reference, orderId });
	expect(tagged(fields.reference)).toHaveLength(1);

	// A client that retries while its first request is still sending: the first request's reservation
	// is in the table before the second starts, and one letter goes.
	const second = `${fields.reference}-b`;
	control.setLatency(1_500);
	try {
		const first = post({ reference: second });
		await expect.poll(async () => (await rows(second)).length, { timeout: 60_000, interval: 100 }).toBeGreaterThan(0);
		const retry = await post({ reference: second });
		const firstAnswer = await first;
		expect(firstAnswer.status, firstAnswer.text).toBe(200);
		expect(firstAnswer.json).toMatchObject({ sent: true });
		// Still sending when it came (409), or already sent (200 with the same order): never a second letter.
		if (retry.status === 409) expect(retry.json).toMatchObject({ alreadySent: false, status: 'sending' });
		else expect(retry.json).toMatchObject({ alreadySent: true, orderId: firstAnswer.json?.orderId });
	} finally {
		control.setLatency(0);
	}
	expect(tagged(second)).toHaveLength(1);

	// A letter priced above Maximum Price (R$ 30): refused before anything is reserved or sent.
	const costly = `${fields.reference}-c`;
	const above = await post({ reference: costly }, await pdfWithPages(80));
	expect(above.status, above.text).toBe(422);
	expect(Number(above.json?.price)).toBeGreaterThan(30);
	expect(tagged(costly)).toHaveLength(0);
	expect(await rows(costly)).toHaveLength(0);
	await finishedExecutions(env, id, 6);
}

export async function telegramReminder(env: E2eEnvironment): Promise<void> {
	const { id, url, headers } = await importExample(env, example('telegram-from-template.json'));
	const body = {
		reference: `INV-${Date.now()}`,
		name: 'Carlos Mendes',
		street: 'Avenida Afonso Pena',
		number: '1212',
		complement: '',
		zip: '30130-005',
		city: 'Belo Horizonte',
		state: 'MG',
		amount: '1.250,00',
		due_date: '10/03/2026',
	};
	const post = (value: Record<string, unknown>) => postJson(url, value, headers);
	const sent = () => env.sandbox.control.orders().filter((o) => o.tag === body.reference);

	// Its Header Auth entry refuses a call without the key as the letter example's does (proven there).
	// A value the template uses is missing: refused, nothing priced or sent.
	const { amount: _, ...withoutAmount } = body;
	const incomplete = await post(withoutAmount);
	expect(incomplete.status, incomplete.text).toBe(400);
	expect(String(incomplete.json?.error)).toContain('amount');

	const answer = await post(body);
	expect(answer.status, answer.text).toBe(200);
	const message = String(answer.json?.message);
	for (const value of [body.name, body.reference, body.amount, body.due_date]) expect(message).toContain(value);
	expect(message).not.toMatch(/<\w+>/);
	const [order] = sent();
	expect(order).toMatchObject({ id: answer.json?.orderId, shipType: 4, name: body.name });
	expect(creates(env, body.reference).map((r) => r.fields.telegram_msg)).toEqual([message]);

	const again = await post(body);
	expect(again.json).toMatchObject({ alreadySent: true, orderId: answer.json?.orderId });
	expect(sent()).toHaveLength(1);
	await finishedExecutions(env, id, 3);
}

/** The sample CSV of examples/, and the sandbox `npm run dev` starts, whose sample PDF its links name. */
const SAMPLE_CSV = 'mail-merge-sample.csv';
const DEV_SANDBOX = 'http://127.0.0.1:4010';

/**
 * The mail merge as its note says to try it: the curl line of the note, run from a folder that holds
 * examples/mail-merge-sample.csv, with the key and the address this run's n8n has; the sample's PDF
 * links name the sandbox of `npm run dev`, pointed here at this run's sandbox.
 */
export async function mailMergeSample(env: E2eEnvironment): Promise<void> {
	const { workflow, url, credential } = await importExample(env, example('mail-merge-from-csv.json'));
	const line = /`(curl [^`]+)`/.exec(note(workflow))?.[1];
	expect(line, 'the note gives a curl line').toBeDefined();
	const [, noteUrl] = /(http:\/\/localhost:\d+\/webhook\/\S+)$/.exec(line!) ?? [];
	expect(new URL(noteUrl).pathname).toBe(new URL(url).pathname);
	const command = `${line!.replace('<your key>', credential!.data.value).replace(noteUrl, url)} --silent --show-error --fail-with-body`;
	const [, batch] = /-F batch=(\S+)/.exec(line!) ?? [];
	const folder = mkdtempSync(path.join(tmpdir(), 'mail-merge-sample-'));
	try {
		mkdirSync(path.join(folder, 'examples'));
		const sample = readFileSync(path.join(examplesDir, SAMPLE_CSV), 'utf8');
		expect(sample).toContain(DEV_SANDBOX);
		writeFileSync(path.join(folder, 'examples', SAMPLE_CSV), sample.replaceAll(DEV_SANDBOX, env.sandbox.baseUrl));
		const post = async () => parseCsv((await promisify(execFile)('sh', ['-c', command], { cwd: folder, timeout: 120_000 })).stdout);
		const before = creates(env).length;

		const first = await post();
		expect(first.map((r) => [r.row, r.name, r.status])).toEqual([
			['2', 'Ana Pereira', 'sent'],
			['3', 'Bruno Dias', 'sent'],
			['4', 'Carla Nunes', 'refused'],
		]);
		expect(first[2]).toMatchObject({ order_id: '', zip: '3016-011' });
		expect(first[2].reason).toMatch(/Postal Code.*8 digits.*Nothing was sent/);
		for (const row of first.slice(0, 2)) {
			expect(row.order_id).toMatch(/^\d+$/);
			expect(env.sandbox.control.order(row.order_id)).toMatchObject({ tag: `mm-${batch}-row-${row.row}`, name: row.name, shipType: 2 });
		}
		expect(creates(env)).toHaveLength(before + 2);

		// The same line again, as the note says: nothing is sent again.
		const again = await post();
		expect(again.map((r) => [r.row, r.status, r.order_id])).toEqual([
			['2', 'already sent', first[0].order_id],
			['3', 'already sent', first[1].order_id],
			['4', 'refused', ''],
		]);
		expect(creates(env)).toHaveLength(before + 2);
	} finally {
		rmSync(folder, { recursive: true, force: true });
	}
}
