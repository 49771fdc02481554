/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
import { parseArgs } from 'node:util';

import type { Environment } from '../nodes/PostalServiceTrigger/webhookLists';
import { DEFAULTS, startSandbox } from './index';
import type { DeliveryIds } from './webhooks';

const usage = `Usage: npm run sandbox -- [options]
  --port <n>              port on 127.0.0.1 (0 = any free port)      default 4010
  --token <t>             the demo account's securityToken           default ${DEFAULTS.token}
  --email <e>             the demo account's e-mail (chat Basic user) default ${DEFAULTS.email}
  --webhook-secret <s>    signing secret of registered endpoints     default ${DEFAULTS.webhookSecret}
  --environment <env>     production | homolog                       default ${DEFAULTS.environment}
  --time-scale <ms>       milliseconds per "minute" of retry back-off default ${DEFAULTS.timeScale}
  --auth-failure-limit <n> failed authentications before 429         default ${DEFAULTS.authFailureLimit}
  --balance <n>           starting credit balance                    default ${DEFAULTS.balance}
  --state-file <path>     keep the state in this JSON file           default none (memory only)
  --delivery-ids <r>      delivery | attempt: a retry keeps its delivery_id, or gets a new one  default ${DEFAULTS.deliveryIds}`;

async function main(): Promise<void> {
	const { values } = parseArgs({
		options: {
			port: { type: 'string', default: '4010' },
			token: { type: 'string' },
			email: { type: 'string' },
			'webhook-secret': { type: 'string' },
			environment: { type: 'string' },
			'time-scale': { type: 'string' },
			'auth-failure-limit': { type: 'string' },
			balance: { type: 'string' },
			'state-file': { type: 'string' },
			'delivery-ids': { type: 'string' },
			help: { type: 'boolean', short: 'h' },
		},
	});
	if (values.help) {
		console.log(usage);
		return;
	}
	const number = (value: string | undefined, name: string): number | undefined => {
		if (value === undefined) return undefined;
		const n = Number(value);
		if (!Number.isFinite(n) || n < 0) throw new Error(`--${name} must be a non-negative number`);
		return n;
	};
	const environment = values.environment as Environment | undefined;
	const sandbox = await startSandbox({
		port: number(values.port, 'port'),
		token: values.token,
		email: values.email,
		webhookSecret: values['webhook-secret'],
		environment,
		timeScale: number(values['time-scale'], 'time-scale'),
		authFailureLimit: number(values['auth-failure-limit'], 'auth-failure-limit'),
		balance: number(values.balance, 'balance'),
		stateFile: values['state-file'],
		deliveryIds: values['delivery-ids'] as DeliveryIds | undefined,
	});
	console.log(
		[
			'Sandbox of the postal service is running',
			`  base URL        ${sandbox.baseUrl}`,
			`  token           ${sandbox.token}`,
			`  e-mail          ${sandbox.email}`,
			`  webhook secret  ${sandbox.webhookSecret}`,
			`  environment     ${sandbox.environment}`,
			`  delivery ids    ${values['delivery-ids'] ?? DEFAULTS.deliveryIds} (a retry or a resend ${(values['delivery-ids'] ?? DEFAULTS.deliveryIds) === 'attempt' ? 'carries a new delivery_id' : 'keeps its delivery_id'})`,
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
