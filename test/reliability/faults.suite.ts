/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
/**
 * The fault matrix of the action node: every writing operation (Letter > Send with each way of
 * checking first), through n8n's own engine against the sandbox, under each sandbox fault × Continue
 * On Fail × batching, and with Retry On Fail on. Figures: writes the service carried out per input
 * item (never more than one), errors that do not say what happened and what to do, and the token in
 * any form anywhere a run leaves text (execution data, errors, n8n's log) or at the address a
 * redirect points to.
 */
import type { IDataObject } from 'n8n-workflow';
// Imported statically, so that this is the copy of n8n-workflow n8n-core logs through.
import { LoggerProxy } from 'n8n-workflow';

import { credentialsAt } from '../harness/sends';
import { FAULTS, isClear } from './faultTable';
import { echoPlaces, startForeignProxy, type ProxyAnswer } from './foreignProxy';
import { countSecretLeaks, echoedForms, runAction, type SuiteRow, type ReliabilitySuite, type SuiteContext } from './types';
import { CHAT, OPERATIONS, type Operation } from './writes';

// Characters that read differently URL-encoded, form-encoded and in base64, so every form is looked for.
const TOKEN = 'Rel+Tok/9 q=z&ZX81';
const EMAIL = CHAT.email;
const SECRETS = [{ secret: TOKEN }, { secret: TOKEN, basicUser: EMAIL }];
const ITEMS = 3;
/** Lanes of the matrix run side by side, each on a sandbox of its own; the token scan takes one more. */
const LANES = 4;
const RETRY = { maxTries: 3, waitBetweenTries: 1 };

const newTally = () => ({ cells: 0, badCells: 0, items: 0, carriedOut: 0, maxPerItem: 0, errors: 0, unclearErrors: 0, retryCells: 0, retryBad: 0 });
type Tally = ReturnType<typeof newTally>;

export const suite: ReliabilitySuite = {
	name: 'Fault matrix',
	async run(context: SuiteContext): Promise<SuiteRow[]> {
		const { startHttpServer } = await import('../harness/httpServer');

		// Runs go on side by side: every line n8n logs is searched as it comes, whichever run wrote it.
		let logLines = 0;
		let logLeaks = 0;
		const capture = (...args: unknown[]) => {
			const line = args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' ');
			const found = countSecretLeaks(line, SECRETS);
			if (found > 0) context.log(`n8n log: ${found} occurrence(s) of the token in: ${line.slice(0, 200)}`);
			logLines++;
			logLeaks += found;
		};
		const logger = { error: capture, warn: capture, info: capture, debug: capture, verbose: capture };
		const elsewhere = await startHttpServer((_req, res) => {
			res.setHeader('content-type', 'application/json');
			res.end('{"status":200,"status_message":"ok","data":"1"}');
		});
		const proxies: Array<Awaited<ReturnType<typeof startForeignProxy>>> = [];
		/** A sandbox and a proxy in front of it for one lane of runs, so that a cell resets and reads only its own. */
		async function rig() {
			const sandbox = await context.sandbox({ token: TOKEN, email: EMAIL, balance: 100_000 });
			const proxy = await startForeignProxy(sandbox.baseUrl);
			proxies.push(proxy);
			return { sandbox, proxy, credentials: credentialsAt(sandbox.baseUrl, TOKEN, EMAIL), viaProxy: credentialsAt(proxy.url, TOKEN, EMAIL) };
		}
		let leaks = 0;
		let scanRuns = 0;
		let scanLeaks = 0;
		let scanCase = '';
		let runs = 0;
		let redirectRuns = 0;

		async function runCell(lane: Awaited<ReturnType<typeof rig>>, op: Operation, faultName: string, cof: boolean, retry: boolean, batching: boolean, tally: Tally) {
			const { sandbox, proxy, credentials, viaProxy } = lane;
			const fault = FAULTS[faultName];
			sandbox.control.reset();
			const cell = `${op.key}-${faultName.replace(/ /g, '_')}-${Number(cof)}${Number(retry)}${Number(batching)}`;
			const setup = await op.setup(sandbox, cell, ITEMS);
			// The second request meets the fault: an item before it is accepted, one after it goes later.
			if (fault.proxy) proxy.plan({ kind: 'pass' }, fault.proxy);
			else sandbox.control.injectFault({
				method: op.method,
				path: op.path,
				kind: fault.kind as 'html',
				count: 1,
				skip: 1,
				delayMs: fault.delayMs,
				location: `${elsewhere.url}${op.path}moved/${encodeURIComponent(TOKEN)}`,
				status: 307,
			});
			const options: IDataObject = { timeout: fault.timeout };
			if (batching) options.batching = { batch: { batchSize: ITEMS, batchInterval: 0 } };
			LoggerProxy.init(logger as never);
			const result = await runAction({ ...op.parameters, options }, {
				items: setup.items,
				credentials: fault.proxy ? viaProxy : credentials,
				continueOnFail: cof,
				retry: retry ? RETRY : undefined,
			});
			runs++;
			if (faultName === 'redirect') redirectRuns++;
			// A slow answer is logged once the sandbox has waited it out.
			if (fault.delayMs && faultName === 'slow') await new Promise((resolve) => setTimeout(resolve, fault.delayMs! + 100));

			const counts = setup.carriedOut();
			const worst = Math.max(0, ...counts);
			tally.cells++;
			tally.items += counts.length;
			tally.carriedOut += counts.reduce((a, b) => a + b, 0);
			tally.maxPerItem = Math.max(tally.maxPerItem, worst);
			if (worst > 1) {
				tally.badCells++;
				context.log(`${cell}: an item was carried out ${worst} times`);
			}

			const errors: Array<{ message: string; description: string }> = [];
			if (result.error) errors.push({ message: String(result.error.message ?? ''), description: String(result.error.description ?? '') });
			for (const item of result.items) {
				if (item.json.error !== undefined) errors.push({ message: String(item.json.error), description: String(item.json.message ?? '') });
			}
			const requests = sandbox.control.requests({ method: op.method, path: op.path });
			if (retry) {
				// Refused before anything is sent: nothing reached the service, and the error names the setting.
				tally.retryCells++;
				if (requests.length > 0 || !/"Retry On Fail" is on.*Nothing was sent/.test(errors[0]?.message ?? '')) {
					tally.retryBad++;
					context.log(`${cell}: Retry On Fail was not refused before any request`);
				}
			}
			// The fault meets the second request: a price (test=1) creates nothing, so its failure is no unclear write.
			const faultHitAWrite = requests.length > 1 && requests[1].fields?.test !== '1';
			for (const error of errors) {
				tally.errors++;
				if (!isClear(error.message, error.description, { ...fault, unclear: fault.unclear && faultHitAWrite })) {
					tally.unclearErrors++;
					context.log(`${cell}: unclear error: ${error.message}`);
				}
			}
			const found = countSecretLeaks([result.serialized, JSON.stringify(errors)].join('\n'), SECRETS);
			if (found > 0) context.log(`${cell}: ${found} occurrence(s) of the token`);
			leaks += found;
			proxy.clear();
		}

		const started = Date.now();
		/** Three rows per operation, in OPERATIONS' order whichever lane ran it. */
		const opRows: SuiteRow[][] = OPERATIONS.map(() => []);
		const queue = [...OPERATIONS.entries()];
		async function matrixLane() {
			const lane = await rig();
			for (let next = queue.shift(); next; next = queue.shift()) {
				const [index, op] = next;
				const tally = newTally();
				for (const faultName of Object.keys(FAULTS)) {
					for (const cof of [false, true]) {
						for (const batching of [false, true]) await runCell(lane, op, faultName, cof, false, batching, tally);
					}
				}
				// With Retry On Fail on, nothing is sent whatever the fault would have been.
				for (const cof of [false, true]) {
					for (const batching of [false, true]) await runCell(lane, op, 'dropAfterAccept', cof, true, batching, tally);
				}
				const faults = Object.keys(FAULTS).length;
				opRows[index].push({
					case: `${op.label}: ${faults} faults (${faults - 10} by a foreign proxy) × Continue On Fail × batching, and Retry On Fail on`,
					runs: tally.cells,
					measure: `cells with an input item ${op.effect} more than once`,
					bad: tally.badCells,
					note: `${tally.items} items, ${tally.carriedOut} carried out, at most ${tally.maxPerItem} per item`,
				});
				opRows[index].push({
					case: `${op.label}: every error of those runs`,
					runs: tally.errors,
					measure: 'errors that do not say what happened and what to do',
					bad: tally.unclearErrors,
				});
				opRows[index].push({
					case: `${op.label}: Retry On Fail on × Continue On Fail × batching`,
					runs: tally.retryCells,
					measure: 'runs that sent anything, or whose error does not name the setting',
					bad: tally.retryBad,
				});
				context.log(`${op.label}: ${tally.cells} cells in ${((Date.now() - started) / 1000).toFixed(0)} s so far`);
			}
		}

		try {
			await Promise.all([...Array.from({ length: LANES }, matrixLane), tokenScan()]);
		} finally {
			for (const proxy of proxies) await proxy.close();
			await elsewhere.close();
			// Later suites of the run log nowhere, as before.
			const quiet = () => undefined;
			LoggerProxy.init({ error: quiet, warn: quiet, info: quiet, debug: quiet, verbose: quiet } as never);
		}

		async function tokenScan() {
			const { sandbox, proxy, viaProxy } = await rig();
			const places = echoPlaces(elsewhere.url);
			// A successful answer is output as it came: the echo sits in a message, a link, a field of its own.
			const success = (body: (text: string) => unknown) => (text: string): ProxyAnswer => ({ kind: 'own', status: 200, contentType: 'application/json', body: JSON.stringify(body(text)) });
			const routes = [
				{
					name: 'create (form field)', parameters: OPERATIONS[0].parameters, items: (await OPERATIONS[0].setup(sandbox, 'scan', 1)).items,
					success: success((text) => ({ status: 200, status_message: `Sucesso - pedido aceito ${text}`, data: '100001', link: `https://example.com/p/${text}` })),
				},
				{
					name: 'chat send (Basic)', parameters: OPERATIONS.find((op) => op.key.startsWith('chatMessage.send'))!.parameters, items: [{ json: { phone: CHAT.phones[0] } }],
					success: success((text) => ({ status: 200, status_message: 'ok', data: { message_id: 1, visual_id: '1', status: 'processing', [`note ${text}`]: text } })),
				},
				{
					name: 'order get (path)', parameters: { resource: 'order', operation: 'get', orderId: '100001', simplify: false }, items: undefined,
					success: success((text) => ({ status: 200, status_message: 'ok', data: { id: '100001', status: 0, tracking: text, files: [{ name: `https://example.com/f?token=${text}`, type: 'pdf' }] } })),
				},
				{
					name: 'logo (header)', parameters: { resource: 'account', operation: 'getLogo' }, items: undefined,
					success: success((text) => ({ code: 200, status: 'success', message: text, data: { logo_url: `https://cdn.example.com/logo.png?token=${text}` } })),
				},
			];
			const forms = echoedForms(TOKEN, EMAIL);
			// Pairwise: every encoding at every place, each route at every place and in every encoding (the
			// route turns with the encoding and the place), as the route only decides where the token went.
			const placeNames = [...Object.keys(places), 'a successful answer'];
			for (const [p, place] of placeNames.entries()) {
				for (const [f, form] of forms.entries()) {
					const route = routes[(p + f) % routes.length];
					const answerWith = places[place] ?? route.success;
					proxy.clear();
					// Reads are tried up to three times: every try meets the same echo.
					proxy.plan(answerWith(form.text), answerWith(form.text), answerWith(form.text));
					LoggerProxy.init(logger as never);
					const result = await runAction(route.parameters, { items: route.items, credentials: viaProxy, continueOnFail: true });
					scanRuns++;
					if (place.startsWith('Location')) redirectRuns++;
					const found = countSecretLeaks(result.serialized, SECRETS);
					if (found > 0) context.log(`token scan: ${route.name}, ${place}, ${form.name}: ${found} occurrence(s)`);
					scanLeaks += found;
				}
			}
			scanCase = `${forms.length} encodings (escapes in either case, + or %20 for a space, double encoding, HTML and JSON escapes, base64 and base64url of the token and of email:token) × ${placeNames.length} places (Location, error bodies, HTML pages, an empty answer, a successful answer), ${routes.length} routes each met at every place and in every encoding`;
		}

		const rows = opRows.flat();
		rows.push({
			suite: 'Token scan',
			case: 'every run above: execution data, errors; n8n log of every run, the scan below included (the token in any encoding, decoded before the search)',
			runs,
			measure: 'occurrences of the token',
			bad: leaks + logLeaks,
			note: `${logLines} log lines`,
		});
		rows.push({
			suite: 'Token scan',
			case: `token echoed by a server in front of the service: ${scanCase}`,
			runs: scanRuns,
			measure: 'occurrences of the token in any encoding (decoded before the search)',
			bad: scanLeaks,
		});
		rows.push({
			suite: 'Token scan',
			case: 'redirects (307 on writes in the matrix; 302 and a relative 307 on every route of the scan) to another address',
			runs: redirectRuns,
			measure: 'requests that reached the redirect target',
			bad: elsewhere.requests.length,
		});
		return rows;
	},
};
