/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
// A real n8n server for `npm run dev` and the end-to-end suite: installed once into a cache,
// started offline on 127.0.0.1 with a user folder of its own, loading this package exactly as
// n8n's community-package installer lays it out.
// The parts, by concern: common.ts (install, pack, ports), server.ts (a process), client.ts (its APIs).
import path from 'node:path';

import { buildAndPack, ensureN8nInstalled, installPackage, N8N_VERSION } from './common';
import { signedInClient } from './client';
import { N8nServer } from './server';

export * from './common';
export * from './client';
export * from './server';

const elapsed = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)}s`;

/**
 * The whole path a user takes, for scripts: install n8n (once), build and pack this package, lay it
 * out in the user folder, start n8n, sign in as the owner and get a public-API key.
 */
/** What a caller that keeps running around a start (npm run dev) asks of prepareN8n and prepareQueueN8n. */
export interface StartOptions {
	/** Given the stop of what is starting as soon as it exists, so that Ctrl-C during the start stops it too. */
	onStart?: (stop: () => Promise<void>) => void;
	/** Start n8n even when it cannot load the package (dev keeps running while a file is broken). */
	tolerateLoadProblem?: boolean;
}

export async function prepareN8n(options: StartOptions & { userFolder: string; port?: number; build?: boolean; progress?: (message: string) => void }) {
	const say = options.progress ?? (() => undefined);
	let since = Date.now();
	const n8nDir = await ensureN8nInstalled();
	say(`n8n ${N8N_VERSION} ready in ${n8nDir} (${elapsed(since)})`);
	since = Date.now();
	const { userFolder } = options;
	const tarball = await buildAndPack(path.join(userFolder, 'pack'), { build: options.build });
	await installPackage(userFolder, tarball);
	say(`package built, packed and installed: ${path.basename(tarball)} (${elapsed(since)})`);
	const server = new N8nServer(n8nDir, { userFolder, port: options.port });
	options.onStart?.(() => server.stop());
	const startSeconds = await server.start();
	if (server.loadProblem) {
		if (!options.tolerateLoadProblem) {
			await server.stop();
			throw new Error(`n8n could not load the package:\n${server.loadProblem}`);
		}
		say(`WARNING: n8n could not load the package:\n${server.loadProblem}`);
	}
	say(`n8n listening on ${server.baseUrl} (started in ${startSeconds.toFixed(1)}s)`);
	// Nothing started here may outlive a failed start.
	const client = await signedInClient(server.baseUrl).catch(async (error: unknown) => {
		await server.stop();
		throw error;
	});
	return { server, client, startSeconds };
}

