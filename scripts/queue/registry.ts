/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
// A stand-in for the public npm registry, so that n8n installs this package from N8N_COMMUNITY_PACKAGES
// as it installs a published one. n8n 2.41 takes community packages from https://registry.npmjs.org
// only (another registry needs a licence feature), and this package is not published there. So the
// n8n processes get an HTTPS proxy on 127.0.0.1 that opens tunnels to registry.npmjs.org:443 alone,
// ends them itself with a certificate made for the run, and answers as the registry would for this
// one package: its document, its version's document (with the tarball's sha512 as dist.integrity) and
// the packed tarball. Every other host and every other request is refused: nothing leaves the machine.
//
// The registry's certificate is self-signed for the run with the openssl command (no authority exists
// that could sign another), lives in the caller's folder and is trusted only by the processes given
// environment() (NODE_EXTRA_CA_CERTS for n8n, cafile for the npm it runs). Nothing is installed
// system-wide, no system or user npm configuration is read or written.
import { createHash } from 'node:crypto';
import { createWriteStream, mkdirSync, readFileSync, writeFileSync, type WriteStream } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { Socket } from 'node:net';
import path from 'node:path';

import { run } from '../dev/n8n';

/** The registry n8n installs community packages from unless licensed otherwise. */
const PUBLIC_REGISTRY = 'https://registry.npmjs.org';
const REGISTRY_HOST = new URL(PUBLIC_REGISTRY).hostname;
/** Hosts the processes reach directly (the sandbox, the other processes), never through the proxy. */
const LOCAL_HOSTS = '127.0.0.1,localhost';
/** Bounds: tunnels and connections open at once, and how long one may sit idle. */
const MAX_CONNECTIONS = 64;
const IDLE_MS = 30_000;

/** The packed tarball as the registry describes it. */
export interface ServedPackage {
	name: string;
	version: string;
	/** `sha512-<base64>`: npm's dist.integrity, and the checksum N8N_COMMUNITY_PACKAGES takes. */
	integrity: string;
	shasum: string;
	tarball: Buffer;
	manifest: Record<string, unknown>;
}

export class StandInRegistry {
	readonly caFile: string;
	readonly logFile: string;
	port = 0;
	private served?: ServedPackage;
	private proxy?: http.Server;
	private tls?: https.Server;
	private log?: WriteStream;
	private readonly tunnels = new Set<Socket>();
	/** Answers given, by `METHOD target status`, for the run's report. */
	readonly counts = new Map<string, number>();

	/** `dir`: a folder of the caller's (removed with it) for the certificates and the log. */
	constructor(private readonly dir: string) {
		this.caFile = path.join(dir, 'ca.pem');
		this.logFile = path.join(dir, 'registry.log');
	}

	/** Serves this tarball made by `npm pack` from now on (replacing an earlier one); returns what the registry publishes of it. */
	async serve(tarball: string): Promise<ServedPackage> {
		const manifest = JSON.parse(await run('tar', ['-xzOf', tarball, 'package/package.json'])) as Record<string, unknown>;
		const bytes = readFileSync(tarball);
		this.served = {
			name: String(manifest.name),
			version: String(manifest.version),
			integrity: `sha512-${createHash('sha512').update(bytes).digest('base64')}`,
			shasum: createHash('sha1').update(bytes).digest('hex'),
			tarball: bytes,
			manifest,
		};
		return this.served;
	}

	async start(): Promise<void> {
		mkdirSync(this.dir, { recursive: true, mode: 0o700 });
		const { key, cert } = await this.makeCertificate();
		// Empty npm configuration files: the npm that n8n runs reads neither the user's nor the system's.
		for (const name of ['user.npmrc', 'global.npmrc']) writeFileSync(path.join(this.dir, name), '');
		this.log = createWriteStream(this.logFile, { flags: 'a' });
		const tls = https.createServer({ key, cert }, (req, res) => this.answer(req, res));
		tls.on('tlsClientError', (_error, socket) => socket.destroy());
		this.tls = tls;
		const proxy = http.createServer((req, res) => {
			// A plain-HTTP proxy request: only tunnels to the registry are offered.
			this.note(req.method ?? '?', req.url ?? '', 403);
			res.writeHead(403, { 'content-type': 'text/plain', connection: 'close' }).end(`only CONNECT ${REGISTRY_HOST}:443\n`);
		});
		proxy.maxConnections = MAX_CONNECTIONS;
		proxy.requestTimeout = IDLE_MS;
		proxy.headersTimeout = IDLE_MS;
		proxy.on('clientError', (_error, socket) => socket.destroy());
		proxy.on('connect', (req: http.IncomingMessage, socket: Socket, head: Buffer) => {
			if (req.url !== `${REGISTRY_HOST}:443`) {
				this.note('CONNECT', req.url ?? '', 403);
				socket.end('HTTP/1.1 403 Forbidden\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
				return;
			}
			this.tunnels.add(socket);
			socket.once('close', () => this.tunnels.delete(socket));
			socket.setTimeout(IDLE_MS, () => socket.destroy());
			socket.on('error', () => socket.destroy());
			socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
			if (head.length) socket.unshift(head);
			tls.emit('connection', socket);
		});
		this.proxy = proxy;
		await new Promise<void>((resolve, reject) => {
			proxy.once('error', reject);
			proxy.listen(0, '127.0.0.1', () => resolve());
		});
		const address = proxy.address();
		this.port = typeof address === 'object' && address ? address.port : 0;
	}

	/**
	 * Settings for a process that installs from the stand-in: its HTTPS traffic through the proxy
	 * (local hosts excepted), the run's certificate authority trusted by Node and by npm, and npm
	 * kept off every configuration file but an empty one. Give each process an npm cache of its own
	 * (`npm_config_cache`), as separate machines have.
	 */
	environment(): NodeJS.ProcessEnv {
		const url = `http://127.0.0.1:${this.port}`;
		return {
			HTTPS_PROXY: url,
			https_proxy: url,
			NO_PROXY: LOCAL_HOSTS,
			no_proxy: LOCAL_HOSTS,
			NODE_EXTRA_CA_CERTS: this.caFile,
			npm_config_https_proxy: url,
			npm_config_noproxy: LOCAL_HOSTS,
			npm_config_cafile: this.caFile,
			npm_config_userconfig: path.join(this.dir, 'user.npmrc'),
			npm_config_globalconfig: path.join(this.dir, 'global.npmrc'),
			npm_config_update_notifier: 'false',
		};
	}

	async stop(): Promise<void> {
		for (const socket of this.tunnels) socket.destroy();
		this.tunnels.clear();
		const proxy = this.proxy;
		this.proxy = undefined;
		if (proxy) {
			proxy.closeAllConnections();
			await new Promise<void>((resolve) => proxy.close(() => resolve()));
		}
		this.tls?.close();
		this.tls = undefined;
		await new Promise<void>((resolve) => (this.log ? this.log.end(resolve) : resolve()));
		this.log = undefined;
	}

	/** The registry's certificate for this run, self-signed: the processes trust it alone (a leaf, not an authority). */
	private async makeCertificate(): Promise<{ key: Buffer; cert: Buffer }> {
		await run('openssl', ['version']).catch((error: NodeJS.ErrnoException) => {
			throw error.code === 'ENOENT' ? new Error("the stand-in registry needs the openssl command: install Debian's openssl package") : error;
		});
		const keyFile = path.join(this.dir, 'registry.key');
		await run('openssl', [
			'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
			'-keyout', keyFile, '-out', this.caFile, '-days', '2',
			'-subj', `/CN=${REGISTRY_HOST}`,
			'-addext', `subjectAltName=DNS:${REGISTRY_HOST}`,
			'-addext', 'basicConstraints=critical,CA:FALSE',
			'-addext', 'keyUsage=critical,digitalSignature',
			'-addext', 'extendedKeyUsage=serverAuth',
		]);
		return { key: readFileSync(keyFile), cert: readFileSync(this.caFile) };
	}

	private note(method: string, target: string, status: number) {
		const key = `${method} ${target} ${status}`;
		this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
		this.log?.write(`${new Date().toISOString()} ${key}\n`);
	}

	/** The registry's answers for the one package served; 404 for anything else, as the registry gives. */
	private answer(req: http.IncomingMessage, res: http.ServerResponse) {
		const served = this.served;
		const target = decodeURIComponent(new URL(req.url ?? '/', PUBLIC_REGISTRY).pathname);
		const reply = (status: number, body: Buffer | string, type = 'application/json') => {
			this.note(req.method ?? '?', target, status);
			res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
			res.end(req.method === 'HEAD' ? undefined : body);
		};
		if (req.method !== 'GET' && req.method !== 'HEAD') return reply(405, JSON.stringify({ error: 'Method not allowed' }));
		if (!served) return reply(404, JSON.stringify({ error: 'Not found' }));
		const { name, version } = served;
		const versionDocument = {
			...served.manifest,
			_id: `${name}@${version}`,
			dist: { tarball: `${PUBLIC_REGISTRY}${tarballPath(served)}`, integrity: served.integrity, shasum: served.shasum },
		};
		const now = new Date().toISOString();
		if (target === `/${name}`) {
			return reply(
				200,
				JSON.stringify({
					_id: name,
					name,
					'dist-tags': { latest: version },
					versions: { [version]: versionDocument },
					time: { created: now, modified: now, [version]: now },
				}),
			);
		}
		if (target === `/${name}/${version}` || target === `/${name}/latest`) return reply(200, JSON.stringify(versionDocument));
		if (target === tarballPath(served)) return reply(200, served.tarball, 'application/octet-stream');
		return reply(404, JSON.stringify({ error: 'Not found' }));
	}
}

/** Where the registry keeps a version's tarball: `/<name>/-/<name without scope>-<version>.tgz`. */
function tarballPath({ name, version }: ServedPackage) {
	return `/${name}/-/${name.split('/').pop()}-${version}.tgz`;
}
