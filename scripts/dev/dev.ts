/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
// `npm run dev`: the sandbox and a real n8n with this package installed as users get it, the three
// credentials pointing at the sandbox, the example workflows imported; rebuilt and reloaded when
// nodes/ or credentials/ change. Ctrl-C stops everything.
//
// n8n keeps its data in a stable folder (POSTAL_DEV_DIR, default <cache>/dev), so workflows and
// executions you make survive restarts; delete the folder to start over.
//
// `npm run dev -- --queue` starts n8n's queue mode instead (PostgreSQL, Redis, a main process, two
// workers, two webhook processors and a balancer in front of them, see scripts/queue/queue.ts), to watch
// deliveries spread over processes. Its data lives in a temporary folder and goes with Ctrl-C.
//
// `npm run dev -- --check` does all of it, prints the banner and stops: CI's proof that the first
// command works on a machine that never ran it.
import { watch } from 'node:fs';
import path from 'node:path';

import { startBalancer } from '../queue/balancer';

import { startSandbox } from '../../sandbox';
import { SAMPLE_LETTER_PATH } from '../../sandbox/sample';
import {
	buildAndPack,
	cacheDir,
	DEFAULT_OWNER,
	freePort,
	installPackage,
	N8N_VERSION,
	packageVersion,
	prepareN8n,
	repoRoot,
	type N8nClient,
	type StartOptions,
} from './n8n';
import { prepareQueueN8n } from '../queue/queue';
import { clientRecord, upsertCredential, type StoredCredential } from './workflows';
import { describeEntryCredential, exampleEntryCredentials, importExamples } from './examples';

const queueMode = process.argv.includes('--queue');
const checkOnly = process.argv.includes('--check');
const devDir = process.env.POSTAL_DEV_DIR ?? path.join(cacheDir, 'dev');
const userFolder = path.join(devDir, 'n8n');
const started = Date.now();
const say = (message: string) => console.log(`[dev +${((Date.now() - started) / 1000).toFixed(1)}s] ${message}`);

/** The n8n a developer watches: one process, or the queue-mode topology behind a balancer. */
interface DevN8n {
	client: N8nClient;
	editorUrl: string;
	/** Where the service sends deliveries. */
	webhookUrl: string;
	lines: string[];
	loadProblem(): string | undefined;
	/** Puts a rebuilt tarball where n8n takes it from and restarts n8n; resolves with the seconds the restart took. */
	reload(tarball: string): Promise<number>;
}

async function startSingle(): Promise<DevN8n> {
	const port = await freePort(Number(process.env.N8N_PORT ?? 5678));
	const { server, client } = await prepareN8n({ userFolder, port, progress: say, ...whileStarting });
	return {
		client,
		editorUrl: server.baseUrl,
		webhookUrl: server.baseUrl,
		lines: [`  n8n data:        ${userFolder} (log: ${server.logFile})`],
		loadProblem: () => server.loadProblem,
		reload: async (tarball) => {
			await installPackage(userFolder, tarball);
			return await server.restart();
		},
	};
}

async function startQueue(): Promise<DevN8n> {
	// Every n8n process installs the package at start, from N8N_COMMUNITY_PACKAGES (see scripts/queue/queue.ts).
	const { topology, client } = await prepareQueueN8n({ progress: say, stopOnSignals: false, workers: 2, ...whileStarting });
	const balancer = await startBalancer(topology.webhooks.map((w) => w.baseUrl), await freePort(Number(process.env.POSTAL_BALANCER_PORT ?? 5680)));
	stopOnExit.push(() => balancer.stop());
	return {
		client,
		editorUrl: topology.main.baseUrl,
		webhookUrl: balancer.url,
		lines: [
			`  Webhooks:        ${balancer.url} (a balancer over the webhook processors; the service's deliveries go there)`,
			...topology.describe().split('\n').map((line) => `    ${line}`),
			'  Queue-mode data is temporary: Ctrl-C removes it.',
		],
		loadProblem: () => topology.loadProblem,
		reload: async (tarball) => {
			await topology.usePackage(tarball);
			return await topology.restartN8n();
		},
	};
}

/** The round-trip example, whose ready call the banner prints. */
const ROUND_TRIP = 'crm-client-to-return-receipt.json';

/** The sandbox port the mail merge sample's PDF links name (examples/mail-merge-sample.csv). */
const SAMPLE_CSV_SANDBOX_PORT = 4010;

/** What Ctrl-C stops, last started first: filled in as things start, so that Ctrl-C at any moment stops what runs. */
const stopOnExit: Array<() => Promise<void>> = [];
/** Ctrl-C during a start stops what has started, and a broken file leaves n8n running to show it. */
const whileStarting: StartOptions = { onStart: (stop) => stopOnExit.push(stop), tolerateLoadProblem: true };

async function main() {
	let stopping = false;
	const stop = async (code: number) => {
		if (stopping) return;
		stopping = true;
		console.log('\nStopping n8n and the sandbox...');
		for (const stopOne of stopOnExit.reverse()) await stopOne().catch((error: Error) => console.error(error.message));
		process.exit(code);
	};
	process.on('SIGINT', () => void stop(0));
	process.on('SIGTERM', () => void stop(0));

	const sandbox = await startSandbox({
		port: await freePort(Number(process.env.POSTAL_SANDBOX_PORT ?? 4010)),
		// The demo account of the sandbox; its token is shown below for the panel and the credential.
		token: process.env.POSTAL_SANDBOX_TOKEN ?? 'sandbox-token',
		quiet: true,
	});
	stopOnExit.push(() => sandbox.stop());
	say(`sandbox on ${sandbox.baseUrl}`);

	say(`n8n ${N8N_VERSION} from ${cacheDir} (the first run installs it: 6 to 10 minutes), with the package built and packed`);
	const n8n = queueMode ? await startQueue() : await startSingle();
	const { client } = n8n;
	// The three credentials pointing at the sandbox, then those the examples' webhooks and form
	// authenticate with, as their notes ask a user to create.
	const entryCredentials = exampleEntryCredentials(devDir);
	const credentials: StoredCredential[] = [];
	const account = { baseUrl: sandbox.baseUrl, securityToken: sandbox.token };
	for (const credential of [
		{ name: 'Postal Service account', type: 'postalServiceApi', data: account },
		{ name: 'Postal Service chat account', type: 'postalServiceChatApi', data: { ...account, email: sandbox.email } },
		{ name: 'Postal Service webhook secret', type: 'postalServiceWebhookApi', data: { secret: sandbox.webhookSecret } },
		...entryCredentials,
	]) {
		credentials.push(await upsertCredential(client, credential));
	}

	const examples = await importExamples(client, sandbox, credentials, n8n.webhookUrl, say);
	const published = examples.filter((e) => e.published);
	// The webhook path of a published example, for its ready call in the banner.
	const pathOf = (file: string) => published.find((e) => e.file === file)?.shipped.nodes.find((n) => n.type === 'n8n-nodes-base.webhook')?.parameters.path;
	const mailMergePath = pathOf('mail-merge-from-csv.json');
	const apiKey = entryCredentials.find((c) => c.name === 'Postal Service examples: API key');
	const roundTripPath = pathOf(ROUND_TRIP);
	const crmWebhook = entryCredentials.find((c) => c.name === 'Postal Service examples: CRM webhook');

	const banner = [
		'',
		`n8n-nodes-postal-service ${packageVersion()} in n8n ${N8N_VERSION}${queueMode ? ' (queue mode)' : ''} (ready in ${((Date.now() - started) / 1000).toFixed(1)}s)`,
		`  Editor:          ${n8n.editorUrl}`,
		`  Login:           ${DEFAULT_OWNER.email} / ${DEFAULT_OWNER.password}`,
		`  Sandbox panel:   ${sandbox.panelUrl}`,
		`  Sandbox API:     ${sandbox.baseUrl}  (token ${sandbox.token}, e-mail ${sandbox.email}, webhook secret ${sandbox.webhookSecret})`,
		`  Credentials:     ${credentials.map((c) => c.name).join(', ')}`,
		...entryCredentials.map((c) => `    ${c.name}: ${describeEntryCredential(c)}`),
		`  Sample PDF:      ${sandbox.baseUrl}${SAMPLE_LETTER_PATH}  (a first letter: PDF Source Link, this as PDF URL)`,
		`  Receiver:        ${sandbox.receiverUrl}  (your team chat, CRM and file store for the examples: the panel shows what arrived)`,
		`  Examples:        ${examples.length} from examples/ in n8n, ${published.length} published (active), ${examples.length - published.length} inactive:`,
		...examples.map((e) => `    ${e.published ? 'published' : 'inactive '}  ${e.file}${e.published ? '' : `: ${e.reason}`}`),
		'                   Importing an example file again makes a copy whose webhook path the one here holds:',
		'                   n8n refuses to publish it ("Conflicting Webhook Path"). Open the one here instead.',
		...(apiKey && mailMergePath
			? [
					`  Mail merge:      curl -H '${apiKey.data.name}: ${apiKey.data.value}' -F batch=sample-1 -F 'data=@examples/mail-merge-sample.csv;type=text/csv' ${n8n.webhookUrl}/webhook/${String(mailMergePath)}`,
					...(sandbox.port === SAMPLE_CSV_SANDBOX_PORT
						? []
						: [`                   (the sample's PDF links name port ${SAMPLE_CSV_SANDBOX_PORT}; this sandbox is on ${sandbox.port}: edit them in a copy of the CSV)`]),
				]
			: []),
		...(crmWebhook && roundTripPath
			? [
					`  CRM round trip:  curl -u '${crmWebhook.data.user}:${crmWebhook.data.password}' -H 'content-type: application/json' -d '${JSON.stringify(clientRecord(`${sandbox.baseUrl}${SAMPLE_LETTER_PATH}`))}' ${n8n.webhookUrl}/webhook/${String(roundTripPath)}`,
					'                   then, on its letter in the panel: Assign tracking code, Add tracking event, Add return receipt;',
					'                   the panel\'s Records of your CRM shows the record\'s notes and the AR\'s PDF (the same call again sends nothing)',
				]
			: []),
		'  Trigger:         the sandbox sends test-environment events: set the Postal Service Trigger\'s',
		'                   Environment to "Test Environment (Homolog)" or "Both", or it drops them (the',
		'                   examples here are set so; the files take production events only).',
		`  First letter:    docs/first-registered-letter.md`,
		`  Em português:    docs/pt-BR/primeira-carta-registrada.md (a primeira carta registrada com AR; "Do CRM ao AR": este exemplo)`,
		...n8n.lines,
		'  Editing nodes/ or credentials/ rebuilds the package and restarts n8n. Ctrl-C stops everything.',
		'',
	];
	console.log(banner.join('\n'));
	// A package n8n could not load fails the check: the banner alone would hide it.
	if (checkOnly) return await stop(n8n.loadProblem() ? 1 : 0);

	// One rebuild at a time: changes seen during one make one more after it.
	let timer: NodeJS.Timeout | undefined;
	let rebuilds = Promise.resolve();
	let queued = false;
	const rebuild = async () => {
		queued = false;
		try {
			const t = Date.now();
			say('change seen: rebuilding');
			const restart = await n8n.reload(await buildAndPack(path.join(userFolder, 'pack')));
			say(`reloaded: n8n restarted in ${restart.toFixed(1)}s (${((Date.now() - t) / 1000).toFixed(1)}s in all)`);
			if (n8n.loadProblem()) console.warn(`WARNING: n8n could not load the package:\n${n8n.loadProblem()}`);
		} catch (error) {
			// A broken edit keeps the running n8n; the next save tries again.
			console.error(`rebuild failed; n8n keeps the previous build:\n${(error as Error).message}`);
		}
	};
	const watchers = ['nodes', 'credentials'].map((dir) =>
		watch(path.join(repoRoot, dir), { recursive: true }, () => {
			clearTimeout(timer);
			timer = setTimeout(() => {
				if (!queued) rebuilds = rebuilds.then(rebuild);
				queued = true;
			}, 400);
		}),
	);
	stopOnExit.push(async () => watchers.forEach((w) => w.close()));
}

main().catch((error: Error) => {
	console.error(error.message);
	process.exit(1);
});
