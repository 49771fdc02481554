/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
import { DEMO_ADDRESS } from './state';

// The demo address without its complement: a valid Brazilian address (its zip lies in its state).
const { addr2: _complement, ...address } = DEMO_ADDRESS;

/** A recipient the sandbox and the tests agree on. */
export const SAMPLE_RECIPIENT = { name: 'Maria da Silva', ...address };
