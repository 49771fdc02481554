// The smoke subset, run against other n8n releases (N8N_VERSION) to find the range the package
// works in: it loads from the tarball, both account credentials test, one letter with a PDF, one
// signed delivery of each event kind, a duplicate dropped, the tool variant listed. A refused letter
// on the error output is proven on every release's engine by test/releases/errorOutput.test.ts.
import { credentialCases } from './cases/credentials';
import { exampleCases } from './cases/examples';
import { packageCases } from './cases/package';
import { triggerCases } from './cases/trigger';
import { useEnvironment } from './support/suite';

const env = useEnvironment('single');

packageCases(env, 'smoke');
credentialCases(env, 'smoke');
exampleCases(env, 'smoke');
triggerCases(env, 'smoke');
