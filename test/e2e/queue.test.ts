// The package in n8n's queue mode: PostgreSQL, Redis, a main process, a worker and two webhook
// processors behind a balancer. The cases of the single-process suite, then what only queue mode
// has: copies of a delivery at both webhook processors, a worker killed, a processor restarted.
import { credentialCases } from './cases/credentials';
import { exampleCases } from './cases/examples';
import { packageCases } from './cases/package';
import { queueCases } from './cases/queue';
import { secretCases } from './cases/secrets';
import { triggerCases } from './cases/trigger';
import { useEnvironment } from './support/suite';

const env = useEnvironment('queue');

packageCases(env, 'full');
credentialCases(env, 'full');
triggerCases(env, 'full');
exampleCases(env, 'full');
queueCases(env);
// Last: over every execution the cases above made.
secretCases(env);
