// What the project checks beyond n8n's own configuration (eslint.config.mjs, which `n8n-node lint`
// runs on the published code): TypeScript rules for the tests, the sandbox, the scripts and the
// benchmarks, and the checks n8n's plugins do not have yet. `npm run lint` runs both; this one with
// --no-inline-config, so that the line that keeps n8n's rules off a file of the repository's own
// turns none of these off.
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

const published = ['nodes/**/*.ts', 'credentials/**/*.ts'];
const HINT_MAX_LENGTH = 120;

const keyName = (property) => (property.key.type === 'Identifier' ? property.key.name : property.key.value);
const textOf = (node) =>
	node.type === 'Literal' && typeof node.value === 'string'
		? node.value
		: node.type === 'TemplateLiteral' && node.expressions.length === 0
			? node.quasis[0].value.cooked
			: null;

export const nextRules = {
	rules: {
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
		// n8n installs single-package repositories only.
		'single-package-repository': {
			meta: {
				type: 'problem',
				messages: { monorepo: 'package.json: "repository.directory" marks a package inside a monorepo, which n8n does not install.' },
			},
			create(context) {
				const field = (object, name) => object.properties.find((p) => p.type === 'Property' && keyName(p) === name);
				return {
					'Program > ExpressionStatement > ObjectExpression'(node) {
						const repository = field(node, 'repository')?.value;
						const directory = repository?.type === 'ObjectExpression' ? field(repository, 'directory') : undefined;
						if (directory) context.report({ node: directory, messageId: 'monorepo' });
					},
				};
			},
		},
	},
};

/**
 * The layering of the published code (docs/architecture.md): every import points down. A layer's
 * files import only what the layers below them and their own folder hold. Each file is in one layer.
 */
const restricted = (regex, message, allowTypeImports = false) => ({ regex, message, allowTypeImports });
const A = 'nodes/PostalService/actions';
/** Only the run loop calls the service: below it, actions/ takes the shapes of a request from transport/ and nothing else. */
const transportTypesOnly = restricted('^(\\.\\./)+transport(/|$)', 'Below the run loop (actions/run.ts), actions/ imports only types from transport/: an operation raises its refusals with ItemCheck.', true);
/** The floor of actions/: one item's checks (item), the run's types, the descriptions' parts, the node's options, the sliding window. */
const FLOOR = 'item$|types$|descriptions$|options$|slidingWindow$';
export const layers = [
	{
		files: ['nodes/PostalService/contract/**/*.ts'],
		patterns: [restricted('^(?!\\./|zod$|luxon$)', 'contract/ holds the wire contract as data: it imports only its own files, zod and luxon.')],
	},
	{
		files: ['nodes/PostalService/transport/**/*.ts'],
		patterns: [restricted('^\\.\\./(?!contract/)|^\\.\\./\\.\\.', 'transport/ knows the token, the routes and the envelopes: it imports only contract/, never actions/, methods/ or a node.')],
	},
	{
		files: ['nodes/PostalService/methods/**/*.ts'],
		patterns: [restricted('^\\.\\./(?!contract/|transport(/|$))|^\\.\\./\\.\\.', "methods/ (the editor's lists) imports transport/ and contract/, never actions/.")],
	},
	{
		files: [`${A}/run.ts`],
		patterns: [restricted(`^\\./(?!resources$|${FLOOR})|^\\.\\./(?!contract/|transport(/|$))`, 'The run loop imports actions/resources, the floor of actions/, transport/ and contract/.')],
	},
	{
		files: [`${A}/resources.ts`],
		patterns: [restricted(`^\\./(?:run|options|slidingWindow)$|^\\./[^/]+/|^\\.\\./(?!contract/)`, "actions/resources imports each resource's index.ts, the floor of actions/ and contract/.")],
	},
	{
		files: [`${A}/*.ts`],
		ignores: [`${A}/run.ts`, `${A}/resources.ts`],
		patterns: [restricted(`^\\./(?!${FLOOR})|^\\.\\./(?!contract/|transport(/|$))`, 'The floor of actions/ imports its own files and contract/ only.'), transportTypesOnly],
	},
	{
		files: [`${A}/*/index.ts`],
		patterns: [restricted('^(?!\\./[^/]+\\.operation$)', "A resource's index.ts exports its own operation files and nothing else.")],
	},
	{
		files: [`${A}/*/*.operation.ts`],
		patterns: [
			restricted('\\.operation$', 'An operation file imports no other operation file: what two operations share goes to actions/shared/, a shared value to contract/.'),
			restricted(`^\\./|^\\.\\./(?!shared/|${FLOOR}|\\.\\./contract/|\\.\\./transport(/|$))`, 'An operation file imports actions/shared/, the floor of actions/ and contract/ only.'),
			transportTypesOnly,
		],
	},
	{
		files: [`${A}/shared/**/*.ts`],
		patterns: [restricted(`^\\.\\./(?!${FLOOR}|\\.\\./contract/|\\.\\./transport(/|$))`, 'actions/shared/ lies below the operations: it imports neither an operation nor a resource.'), transportTypesOnly],
	},
	{
		files: ['nodes/PostalServiceTrigger/**/*.ts'],
		patterns: [restricted('^\\.\\./(?!PostalService/contract/)', "The trigger imports only its own files and the action node's contract/.")],
	},
	{
		files: ['credentials/**/*.ts'],
		patterns: [restricted('^\\.\\./', 'A credential imports only the files of credentials/, never a node.')],
	},
];

export default tseslint.config(
	{ ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'test/e2e/artifacts/**'] },
	{
		files: ['**/*.ts', '**/*.mts'],
		extends: [tseslint.configs.recommended],
		languageOptions: { parserOptions: { sourceType: 'module' } },
		rules: {
			'@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
		},
	},
	// Answers of many shapes, each read for the fields one check needs.
	{ files: ['scripts/check-service/client.ts', 'test/sandbox/support.ts'], rules: { '@typescript-eslint/no-explicit-any': 'off' } },
	// n8n's scanner adds it to its rules: n8n's logs are no place for a node's output.
	{ files: published, rules: { 'no-console': 'error' } },
	{ files: published, plugins: { next: nextRules }, rules: { 'next/hint-max-length': 'error' } },
	{ files: ['package.json'], languageOptions: { parser: tseslint.parser }, plugins: { next: nextRules }, rules: { 'next/single-package-repository': 'error' } },
	...layers.map(({ files, ignores = [], patterns }) => ({ files, ignores, rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns }] } })),
	// No import circle anywhere in the tree: the package, its tests, the sandbox, the scripts and the benchmarks.
	{
		files: ['**/*.ts'],
		plugins: { 'import-x': importX },
		settings: {
			'import-x/extensions': ['.ts'],
			'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
			'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts'] })],
		},
		rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
	},
);
