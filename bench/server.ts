/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
/**
 * The service as the benchmarks see it: a minimal HTTP server on 127.0.0.1 that reads each request
 * to its end and answers with the exact status, headers and body the sandbox gave for the same
 * route (recorded once at start), at once or after a fixed latency. The sandbox itself is not
 * used for the timed runs: it parses every multipart body and counts the PDF's pages, keeps every
 * request in a log and every order in memory, and its balance runs out; all of that would be
 * measured with the client.
 *
 * The servers run in the parent process; the measured runs run in child processes, so the server's
 * work does not share an event loop (or a peak memory figure) with what is measured.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { PDFDocument, StandardFonts } from 'pdf-lib';

import { startSandbox } from '../sandbox';

export const TOKEN = 'bench-token-7Q2';
export const PDF_BYTES = 1024 * 1024;

interface RecordedAnswer {
	status: number;
	contentType: string;
	body: string;
}

/** The sandbox's answers: to Get Balance, to a create, and to a create with test=1 (the price, nothing created). */
export type Recorded = Record<'balance' | 'create' | 'quote', RecordedAnswer>;

/** The fields the node sends for the benchmark's registered letter, on the wire (checked against the sandbox). */
export const LETTER_FIELDS: Record<string, string> = {
	shipType: '2',
	name: 'Maria da Silva',
	addr1: 'Avenida Paulista',
	street_number: '1578',
	zip: '01310200',
	city: 'São Paulo',
	state: 'SP',
	country: 'Brasil',
	paymentMethod: 'service_credits',
	ar_type: 'physical',
};

/** A valid one-page PDF of about `size` bytes (random bytes, which do not compress, in an attachment make up the rest). */
export async function makePdf(size = PDF_BYTES): Promise<Buffer> {
	const doc = await PDFDocument.create();
	const font = await doc.embedFont(StandardFonts.Helvetica);
	doc.addPage([595, 842]).drawText('Carta registrada', { x: 72, y: 760, size: 18, font });
	await doc.attach(randomBytes(size - 4000), 'filler.bin', { mimeType: 'application/octet-stream' });
	return Buffer.from(await doc.save({ useObjectStreams: false }));
}

/** Asks the sandbox once for its answers to the routes the benchmarks use. */
export async function recordAnswers(pdf: Buffer): Promise<Recorded> {
	const sandbox = await startSandbox({ port: 0, token: TOKEN, quiet: true, balance: 1_000_000 });
	try {
		const answer = async (response: Response): Promise<RecordedAnswer> => ({
			status: response.status,
			contentType: response.headers.get('content-type') ?? 'application/json',
			body: await response.text(),
		});
		const balance = await answer(await fetch(`${sandbox.baseUrl}/api/v2/balance/${TOKEN}`, { headers: { Accept: 'application/json' } }));
		const post = async (test: string) => {
			const form = new FormData();
			for (const [name, value] of Object.entries({ ...LETTER_FIELDS, test })) form.append(name, value);
			form.append('userSecurityToken', TOKEN);
			form.append('pdfFile', new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }), 'letter.pdf');
			return await answer(await fetch(`${sandbox.baseUrl}/api/v2/post`, { method: 'POST', body: form, headers: { Accept: 'application/json' } }));
		};
		const [create, quote] = [await post('0'), await post('1')];
		for (const [route, a] of Object.entries({ balance, create, quote })) {
			if (a.status !== 200) throw new Error(`the sandbox refused the benchmark's ${route}: ${a.status} ${a.body}`);
		}
		return { balance, create, quote };
	} finally {
		await sandbox.stop();
	}
}

export interface Traffic {
	connections: number;
	requests: number;
	/** Most requests open at the same moment. */
	maxInFlight: number;
}

/** Listens on 127.0.0.1; a thousand connections opened at once must not wait in a short accept queue. */
async function listen(server: Server) {
	await new Promise<void>((resolve) => server.listen({ port: 0, host: '127.0.0.1', backlog: 4096 }, resolve));
	const close = () => {
		server.closeAllConnections();
		return new Promise<void>((resolve) => server.close(() => resolve()));
	};
	return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close };
}

function replayServer(recorded: Recorded, latencyMs: number) {
	let traffic: Traffic = { connections: 0, requests: 0, maxInFlight: 0 };
	let inFlight = 0;
	const server = createServer((req, res) => {
		inFlight++;
		traffic.requests++;
		traffic.maxInFlight = Math.max(traffic.maxInFlight, inFlight);
		// The node sets its test field last: the body's end tells a price from a create.
		let tail = '';
		req.on('data', (chunk: Buffer) => (tail = (tail + chunk.subarray(-256).toString('latin1')).slice(-512)));
		req.on('end', () => {
			const answer = req.method !== 'POST' ? recorded.balance : /name="test"\r\n\r\n1\r\n/.test(tail) ? recorded.quote : recorded.create;
			const send = () => {
				inFlight--;
				res.writeHead(answer.status, { 'content-type': answer.contentType, 'content-length': Buffer.byteLength(answer.body) });
				res.end(answer.body);
			};
			if (latencyMs > 0) setTimeout(send, latencyMs);
			else send();
		});
	});
	// Clients open as many connections as they like (n8n's HTTP Request node opens one per item).
	server.maxConnections = Infinity;
	server.keepAliveTimeout = 5_000;
	server.on('connection', () => traffic.connections++);
	const take = () => {
		const taken = traffic;
		traffic = { connections: 0, requests: 0, maxInFlight: 0 };
		return taken;
	};
	return { server, take };
}

/**
 * The replay servers, one answering at once and one after 50 ms, and a control server from which a
 * child process reads (and resets) a replay server's traffic counters between runs.
 */
export async function startReplayServers(recorded: Recorded) {
	const replays = { instant: replayServer(recorded, 0), slow: replayServer(recorded, 50) };
	const control = createServer((req, res) => {
		const name = new URL(req.url ?? '/', 'http://x').searchParams.get('server') as keyof typeof replays;
		res.setHeader('content-type', 'application/json');
		res.end(JSON.stringify(replays[name].take()));
	});
	// Never closed for idleness: a child's next read could meet the close ("other side closed").
	control.keepAliveTimeout = 0;
	const [instant, slow, controlled] = await Promise.all([listen(replays.instant.server), listen(replays.slow.server), listen(control)]);
	return {
		urls: { instant: instant.url, slow: slow.url },
		controlUrl: controlled.url,
		close: () => Promise.all([instant.close(), slow.close(), controlled.close()]),
	};
}
