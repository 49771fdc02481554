// The package in n8n's queue mode: PostgreSQL, Redis, a main process, a worker and two webhook
// processors behind a balancer. What only queue mode has: the trigger's answer and its once per
// delivery when the webhook processors hand executions to workers through Redis; the nodes and the
// examples are proven in one process (n8n.test.ts) and need no second run here.
import { queueCases } from './cases/queue';
import { secretCases } from './cases/secrets';
import { triggerCases } from './cases/trigger';
import { useEnvironment } from './support/suite';

const env = useEnvironment('queue');

triggerCases(env, 'full');
queueCases(env);
// Last: over every execution the cases above made.
secretCases(env);
