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

// Rules n8n's source holds for community nodes but its published plugin does not have yet, written
// here as our own checks: each says what the package must keep true.
const HINT_MAX_LENGTH = 120;
const ITEM_ERRORS = new Set(['NodeOperationError', 'NodeApiError']);
const COMMUNITY_KEYWORD = 'n8n-community-node-package';

const isThisCall = (node, name) =>
	node.callee.type === 'MemberExpression' && node.callee.object.type === 'ThisExpression' && node.callee.property.name === name;
const keyName = (property) => (property.key.type === 'Identifier' ? property.key.name : property.key.value);
const textOf = (node) =>
	node.type === 'Literal' && typeof node.value === 'string'
		? node.value
		: node.type === 'TemplateLiteral' && node.expressions.length === 0
			? node.quasis[0].value.cooked
			: null;

export const nextRules = {
	rules: {
		// With Continue On Fail a failing item must become an output item, not stop the run.
		'execute-handles-continue-on-fail': {
			meta: { type: 'problem', messages: { missing: "execute() must read this.continueOnFail() and apply it to each item's failure." } },
			create(context) {
				const open = [];
				return {
					'MethodDefinition[key.name="execute"]'() {
						open.push({ seen: false });
					},
					CallExpression(node) {
						if (open.length && isThisCall(node, 'continueOnFail')) open[open.length - 1].seen = true;
					},
					'MethodDefinition[key.name="execute"]:exit'(node) {
						if (!open.pop().seen) context.report({ node: node.key, messageId: 'missing' });
					},
				};
			},
		},
		// n8n pins an item's error to its item only when the error carries itemIndex.
		'item-error-has-item-index': {
			meta: { type: 'problem', messages: { missing: 'new {{name}}(...) must pass { itemIndex } as its third argument.' } },
			create(context) {
				return {
					NewExpression(node) {
						if (node.callee.type !== 'Identifier' || !ITEM_ERRORS.has(node.callee.name)) return;
						const options = node.arguments[2];
						const named =
							options?.type === 'ObjectExpression' &&
							options.properties.some((p) => p.type === 'Property' && keyName(p) === 'itemIndex');
						if (!named) context.report({ node, messageId: 'missing', data: { name: node.callee.name } });
					},
				};
			},
		},
		// A hint renders under its field: a long one pushes the panel down; longer help belongs in description.
		'hint-max-length': {
			meta: { type: 'suggestion', messages: { long: 'This hint is {{length}} characters; at most {{max}}: move the rest to description.' } },
			create(context) {
				return {
					Property(node) {
						// A node or credential property: a hint beside a displayName.
						const siblings = node.parent.type === 'ObjectExpression' ? node.parent.properties : [];
						if (keyName(node) !== 'hint' || !siblings.some((p) => p.type === 'Property' && keyName(p) === 'displayName')) return;
						const text = textOf(node.value);
						if (text !== null && text.length > HINT_MAX_LENGTH) {
							context.report({ node: node.value, messageId: 'long', data: { length: text.length, max: HINT_MAX_LENGTH } });
						}
					},
				};
			},
		},
		// n8n finds community packages by the keyword, lists only MIT ones, and installs single-package repositories.
		'community-package-json': {
			meta: {
				type: 'problem',
				messages: {
					license: 'package.json: "license" must be "MIT".',
					keyword: `package.json: "keywords" must include "${COMMUNITY_KEYWORD}".`,
					monorepo: 'package.json: "repository.directory" marks a package inside a monorepo, which n8n does not install.',
				},
			},
			create(context) {
				const field = (object, name) => object.properties.find((p) => p.type === 'Property' && keyName(p) === name);
				return {
					'Program > ExpressionStatement > ObjectExpression'(node) {
						if (textOf(field(node, 'license')?.value ?? {}) !== 'MIT') context.report({ node, messageId: 'license' });
						const keywords = field(node, 'keywords')?.value;
						if (keywords?.type !== 'ArrayExpression' || !keywords.elements.some((e) => e && textOf(e) === COMMUNITY_KEYWORD)) {
							context.report({ node, messageId: 'keyword' });
						}
						const repository = field(node, 'repository')?.value;
						const directory = repository?.type === 'ObjectExpression' ? field(repository, 'directory') : undefined;
						if (directory) context.report({ node: directory, messageId: 'monorepo' });
					},
				};
			},
		},
	},
};

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
	{ files: published, plugins: { next: nextRules }, rules: { 'next/hint-max-length': 'error' } },
	// Not yet the trigger: its execute() stops a duplicate delivery by throwing, and Continue On Fail
	// would turn that throw into passing the duplicate on, so it needs handling of its own first.
	{ files: ['nodes/PostalService/*.node.ts'], plugins: { next: nextRules }, rules: { 'next/execute-handles-continue-on-fail': 'error' } },
	// Every error of the action node belongs to an item; the trigger's answer a delivery, not an item.
	{ files: ['nodes/PostalService/**/*.ts'], plugins: { next: nextRules }, rules: { 'next/item-error-has-item-index': 'error' } },
	{ files: ['package.json'], plugins: { next: nextRules }, rules: { 'next/community-package-json': 'error' } },
);
