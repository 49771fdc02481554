// The package in one real n8n server, installed the way users install it, against the sandbox.
import { credentialCases } from './cases/credentials';
import { editorCases } from './cases/editor';
import { exampleCases } from './cases/examples';
import { installCases } from './cases/install';
import { packageCases } from './cases/package';
import { secretCases } from './cases/secrets';
import { triggerCases } from './cases/trigger';
import { walkthroughCases } from './cases/walkthrough';
import { useEnvironment } from './support/suite';

const env = useEnvironment('single');

packageCases(env, 'full');
credentialCases(env, 'full');
editorCases(env);
triggerCases(env, 'full');
exampleCases(env, 'full');
walkthroughCases(env);
installCases(env);
// Last: over every execution the cases above made.
secretCases(env);
