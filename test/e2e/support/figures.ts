/* eslint-disable -- not part of the published package: n8n-node lint's rules are for code n8n runs; npm run lint checks this file with eslint.project.config.mjs */
// Measurements whose numbers docs/guarantees.md quotes are release work, not CI's: they run only with
// POSTAL_FIGURES=1 (`POSTAL_FIGURES=1 npm run test:e2e` for the trigger under load across a restart,
// `POSTAL_FIGURES=1 npm run test:e2e:queue` for the races of two workers and the processes that die).
export const FIGURES = process.env.POSTAL_FIGURES === '1';
