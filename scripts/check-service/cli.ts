/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
/**
 * `npm run check-service`: asks a real account which of the package's guesses hold. The address,
 * e-mail and token come from the environment or a prompt, never from the command line.
 */
import { createInterface } from 'node:readline/promises';
import { Writable } from 'node:stream';
import { parseArgs } from 'node:util';

import { formatAnswers, listen } from './listen';
import { formatTable } from './findings';
import { checkService, isTestAddress } from './run';
import { serviceUrl } from '../../nodes/PostalService/transport/url';

const usage = `Usage: npm run check-service -- [options]
Reads POSTAL_SERVICE_BASE_URL, POSTAL_SERVICE_EMAIL and POSTAL_SERVICE_TOKEN (asked for when unset).
Every call creates nothing and spends nothing: prices with test=1, reads, and reads, cancels and
updates of ids that do not exist.
  --order=<id>                       also read this existing order, its receipt and return receipt
  --spend-one-chat-message=<phone>   SPENDS ONE CHAT MESSAGE to this allow-listed number (test
                                     environment only), to check the chat names and payment method
  --production                       allow an address that is not the test environment
  --listen=<port>                    receive webhook deliveries on this port instead (reads
                                     POSTAL_SERVICE_SIGNING_SECRET) and answer the trigger's questions`;

/** Reads one answer from the terminal; a hidden one is not echoed (readline writes through `output`, silent once the question is out). */
async function ask(question: string, hidden: boolean): Promise<string> {
	let silent = false;
	const output = new Writable({
		write(chunk, _encoding, done) {
			if (!silent) process.stdout.write(chunk);
			done();
		},
	});
	const reader = createInterface({ input: process.stdin, output, terminal: process.stdin.isTTY });
	reader.on('SIGINT', () => process.exit(130));
	const answer = reader.question(question);
	silent = hidden;
	const value = await answer;
	reader.close();
	if (hidden) process.stdout.write('\n');
	return value.trim();
}

async function setting(name: string, question: string, hidden = false): Promise<string> {
	const value = process.env[name] || (await ask(question, hidden));
	if (!value) throw new Error(`${name} is empty`);
	return value;
}

async function main(): Promise<void> {
	const { values } = parseArgs({
		options: {
			order: { type: 'string' },
			'spend-one-chat-message': { type: 'string' },
			production: { type: 'boolean', default: false },
			listen: { type: 'string' },
			help: { type: 'boolean', short: 'h' },
		},
	});
	if (values.help) return console.log(usage);
	if (values.listen !== undefined) {
		const secret = await setting('POSTAL_SERVICE_SIGNING_SECRET', 'Signing secret of the endpoint: ', true);
		const listener = await listen({ port: Number(values.listen), secret, log: (line) => console.log(line) });
		console.log(`Listening on port ${values.listen}: register its public address as a webhook endpoint, press Test, then Resend. Ctrl-C prints the answers.`);
		process.on('SIGINT', () => {
			console.log(`\n${formatAnswers(listener.answers())}`);
			void listener.close().then(() => process.exit(0));
		});
		return;
	}
	const baseUrl = await setting('POSTAL_SERVICE_BASE_URL', 'Base URL of the test environment: ');
	serviceUrl(baseUrl, '');
	if (!isTestAddress(baseUrl) && !values.production) {
		throw new Error(`${serviceUrl(baseUrl, '')} is not a test-environment address (homolog). Nothing here spends credits, but run again with --production to check a production account.`);
	}
	const spend = values['spend-one-chat-message'];
	if (spend && !isTestAddress(baseUrl)) throw new Error('--spend-one-chat-message is for the test environment only');
	const email = await setting('POSTAL_SERVICE_EMAIL', 'Account e-mail (chat user): ');
	const token = await setting('POSTAL_SERVICE_TOKEN', 'Security token (not shown): ', true);
	if (spend) console.log(`This run spends one chat message to ${spend}.`);
	const { findings, calls } = await checkService({ baseUrl, email, token }, { orderId: values.order, spendChatMessageTo: spend });
	console.log(`${calls.length} calls to ${serviceUrl(baseUrl, '')}\n\n${formatTable(findings)}`);
	process.exitCode = findings.some((f) => f.verdict === 'differs') ? 1 : 0;
}

main().catch((error: Error) => {
	console.error(`check-service: ${error.message}\n\n${usage}`);
	process.exit(2);
});
