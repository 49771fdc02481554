// n8n's own rules for the published code (nodes, credentials, package.json), the same that n8n's
// verification scanner runs; ordinary TypeScript rules for tests, sandbox, scripts and benchmarks.
import communityNodes from '@n8n/eslint-plugin-community-nodes';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';
import tseslint from 'typescript-eslint';

const published = ['nodes/**/*.ts', 'credentials/**/*.ts'];
// Rules of the older plugin that contradict the newer one (which is what n8n's scanner runs) or
// apply only to nodes inside n8n's own repository: documentation URLs there are camel-cased slugs,
// and inputs/outputs there are string literals where the scanner now wants NodeConnectionTypes.
const superseded = new Set([
	'n8n-nodes-base/cred-class-field-documentation-url-miscased',
	'n8n-nodes-base/node-class-description-inputs-wrong-regular-node',
	'n8n-nodes-base/node-class-description-outputs-wrong',
]);
const n8nBaseRules = (config) =>
	Object.fromEntries(Object.entries(n8nNodesBase.configs[config].rules).filter(([rule]) => !superseded.has(rule)));

export default tseslint.config(
	{ ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'test/e2e/artifacts/**', 'eslint.config.mjs'] },
	{
		files: ['**/*.ts', '**/*.mts'],
		extends: [tseslint.configs.recommended],
		languageOptions: { parserOptions: { sourceType: 'module' } },
		rules: {
			'@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
		},
	},
	{
		files: [...published, 'package.json'],
		...communityNodes.configs.recommended,
		ignores: [],
	},
	// The scanner adds this one to the plugin's rules: n8n's logs are no place for a node's output.
	{ files: published, rules: { 'no-console': 'error' } },
	{
		files: ['package.json'],
		languageOptions: { parser: tseslint.parser },
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: n8nBaseRules('community'),
	},
	{
		files: ['credentials/**/*.ts'],
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: n8nBaseRules('credentials'),
	},
	{
		files: ['nodes/**/*.ts'],
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: n8nBaseRules('nodes'),
	},
);
