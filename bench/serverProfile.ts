/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
/**
 * Where n8n's server spends its CPU on one receiver's deliveries:
 * `npm run bench:server -- --profile trigger` (or `webhook1`, `webhook2`; `--deliveries 200`)
 * starts n8n with its inspector on 127.0.0.1, profiles its main process over small signed
 * deliveries sent one at a time (after a warm-up), and prints the summary `--profile` prints for
 * the engine cases. Profiles of two receivers side by side show what one adds per request.
 */
import path from 'node:path';

import { Agent, setGlobalDispatcher } from 'undici';

import { freePort, prepareN8n, sleep } from '../scripts/dev/n8n';
import { delivery } from './deliveries';
import { summarise } from './profile';
import { activateReceivers, post, RECEIVERS } from './serverSuite';

/** The few DevTools-protocol calls needed, over the WebSocket the inspector offers. */
async function inspector(port: number) {
	const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as Array<{ webSocketDebuggerUrl: string }>;
	const socket = new WebSocket(targets[0].webSocketDebuggerUrl);
	await new Promise((resolve) => socket.addEventListener('open', resolve, { once: true }));
	let nextId = 1;
	const waiting = new Map<number, (result: unknown) => void>();
	socket.addEventListener('message', (event) => {
		const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown };
		if (message.id !== undefined) waiting.get(message.id)?.(message.result);
	});
	return {
		call: <T>(method: string, params: object = {}) =>
			new Promise<T>((resolve) => {
				const id = nextId++;
				waiting.set(id, resolve as (result: unknown) => void);
				socket.send(JSON.stringify({ id, method, params }));
			}),
		close: () => socket.close(),
	};
}

export async function profileServer(receiver: string, deliveries: number, options: { workDir: string; say: (m: string) => void }) {
	if (!RECEIVERS.some((r) => r.id === receiver)) throw new Error(`--profile wants one of ${RECEIVERS.map((r) => r.id).join(', ')}`);
	// No kept connections (pipelining 0): a request sent on one just as n8n closes it fails.
	setGlobalDispatcher(new Agent({ pipelining: 0 }));
	const inspectPort = await freePort();
	const { server, client } = await prepareN8n({
		userFolder: path.join(options.workDir, 'n8n'),
		env: { NODE_OPTIONS: `--inspect=127.0.0.1:${inspectPort}` },
		progress: (m) => options.say(`n8n: ${m}`),
	});
	try {
		const url = (await activateReceivers(server, client))[receiver];
		const send = async () => {
			const d = delivery(false);
			return await post(url, d.body, d.headers);
		};
		for (let i = 0; i < 20; i++) await send();
		const session = await inspector(inspectPort);
		await session.call('Profiler.enable');
		await session.call('Profiler.setSamplingInterval', { interval: 250 });
		await session.call('Profiler.start');
		options.say(`profiling n8n over ${deliveries} deliveries to ${receiver}`);
		const times: number[] = [];
		for (let i = 0; i < deliveries; i++) times.push(await send());
		// The executions started by the last deliveries finish after their answers.
		await sleep(1_500);
		const { profile } = await session.call<{ profile: Parameters<typeof summarise>[0] }>('Profiler.stop');
		session.close();
		times.sort((a, b) => a - b);
		console.log(`\n${receiver}: round trip median ${times[Math.floor(times.length / 2)].toFixed(1)} ms over ${deliveries} deliveries\n`);
		console.log(summarise(profile, deliveries).replace(/per item/g, 'per delivery').replace(/\/item/g, '/delivery'));
	} finally {
		await server.stop();
	}
}
