/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
import { buildPackage } from './engine';

/** The package compiled once for every file of the run (each file would otherwise take its 10 s). */
export default function setup() {
	const built = buildPackage();
	process.env.POSTAL_RELEASES_BUILD = built.dir;
	return () => built.remove();
}
