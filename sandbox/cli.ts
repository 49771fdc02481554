/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
import { parseArgs } from 'node:util';

import type { SandboxSettings } from './core';
import { DEFAULTS, startSandbox, type SandboxOptions } from './index';

/** Each option: the setting it gives, whether it is a number, what it means, and its default here. */
const OPTIONS: Record<string, { setting: keyof SandboxSettings; number?: true; meaning: string; default?: string }> = {
	port: { setting: 'port', number: true, meaning: 'port on 127.0.0.1 (0 = any free port)', default: '4010' },
	token: { setting: 'token', meaning: "the demo account's securityToken" },
	email: { setting: 'email', meaning: "the demo account's e-mail (chat Basic user)" },
	'webhook-secret': { setting: 'webhookSecret', meaning: 'signing secret of registered endpoints' },
	environment: { setting: 'environment', meaning: 'production | homolog' },
	'time-scale': { setting: 'timeScale', number: true, meaning: 'milliseconds per "minute" of retry back-off' },
	'auth-failure-limit': { setting: 'authFailureLimit', number: true, meaning: 'failed authentications before 429' },
	balance: { setting: 'balance', number: true, meaning: 'starting credit balance' },
	'state-file': { setting: 'stateFile', meaning: 'keep the state in this JSON file', default: 'none (memory only)' },
	'delivery-ids': { setting: 'deliveryIds', meaning: 'delivery | attempt: a retry keeps its delivery_id, or gets a new one' },
};

const usage = [
	'Usage: npm run sandbox -- [options]',
	...Object.entries(OPTIONS).map(
		([flag, o]) => `  --${flag} <value>`.padEnd(32) + o.meaning.padEnd(46) + ` default ${o.default ?? DEFAULTS[o.setting]}`,
	),
].join('\n');

async function main(): Promise<void> {
	const { values } = parseArgs({
		options: {
			...Object.fromEntries(Object.keys(OPTIONS).map((flag) => [flag, { type: 'string' as const }])),
			help: { type: 'boolean', short: 'h' },
		},
	}) as { values: Record<string, string | boolean | undefined> };
	if (values.help) {
		console.log(usage);
		return;
	}
	const settings: Record<string, unknown> = { port: 4010 };
	for (const [flag, { setting, number }] of Object.entries(OPTIONS)) {
		const value = values[flag];
		if (typeof value !== 'string') continue;
		if (number && !(Number.isFinite(Number(value)) && Number(value) >= 0)) throw new Error(`--${flag} must be a non-negative number`);
		settings[setting] = number ? Number(value) : value;
	}
	const sandbox = await startSandbox(settings as SandboxOptions);
	const deliveryIds = values['delivery-ids'] ?? DEFAULTS.deliveryIds;
	console.log(
		[
			'Sandbox of the postal service is running',
			`  base URL        ${sandbox.baseUrl}`,
			`  token           ${sandbox.token}`,
			`  e-mail          ${sandbox.email}`,
			`  webhook secret  ${sandbox.webhookSecret}`,
			`  environment     ${sandbox.environment}`,
			`  delivery ids    ${deliveryIds} (a retry or a resend ${deliveryIds === 'attempt' ? 'carries a new delivery_id' : 'keeps its delivery_id'})`,
			`  panel           ${sandbox.panelUrl}`,
			`  control API     ${sandbox.baseUrl}/_sandbox/<method>`,
			`  receiver        ${sandbox.receiverUrl}/<any path>  (stands in for your team chat, CRM or file store)`,
			values['state-file'] ? `  state file      ${values['state-file']}` : '  state           in memory',
		].join('\n'),
	);
	const shutdown = () => {
		sandbox.stop().then(
			() => process.exit(0),
			() => process.exit(1),
		);
	};
	process.on('SIGINT', shutdown);
	process.on('SIGTERM', shutdown);
}

main().catch((error: Error) => {
	console.error(`sandbox: ${error.message}\n\n${usage}`);
	process.exit(1);
});
