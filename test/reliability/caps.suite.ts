/**
 * Maximum Price as a mail merge or an AI agent gives it: every value an expression can give a money
 * field × Check With the Service First × one item or several, in a workflow and as the AI tool.
 * Figure: letters created that were not priced, before their send, under a cap that reads as one.
 */
import type { IDataObject } from 'n8n-workflow';

import { runAction, type SuiteRow, type ReliabilitySuite, type SuiteContext } from './types';

const TOKEN = 'caps-token-7f3a';

/**
 * Each value as an expression gives it (in a workflow, `$json.cap` holds it; as a tool, the model
 * sends it as text) and the amount in reais it stands for, or undefined where no amount is written.
 */
const VALUES: Array<{ name: string; expression: string; toolArgument?: string; reais?: number }> = [
	{ name: "''", expression: "={{ '' }}", toolArgument: '' },
	{ name: "' '", expression: "={{ ' ' }}", toolArgument: ' ' },
	{ name: 'null', expression: '={{ null }}' },
	{ name: 'missing', expression: '={{ $json.missing }}' },
	{ name: "'30,00'", expression: "={{ '30,00' }}", toolArgument: '30,00', reais: 30 },
	{ name: "'R$ 30'", expression: "={{ 'R$ 30' }}", toolArgument: 'R$ 30', reais: 30 },
	{ name: "'1,00' (below the price)", expression: "={{ '1,00' }}", toolArgument: '1,00', reais: 1 },
	{ name: 'NaN', expression: '={{ NaN }}', toolArgument: 'NaN' },
	{ name: '-1', expression: '={{ -1 }}', toolArgument: '-1' },
	{ name: 'Infinity', expression: '={{ Infinity }}', toolArgument: 'Infinity' },
	{ name: "'12.5' (a numeric string)", expression: "={{ '12.5' }}", toolArgument: '12.5', reais: 12.5 },
	{ name: '30 (a number)', expression: '={{ 30 }}', reais: 30 },
	{ name: '"trinta"', expression: "={{ 'trinta' }}", toolArgument: 'trinta' },
];
const CHECKS = ['never', 'auto', 'always'] as const;

export const suite: ReliabilitySuite = {
	name: 'Maximum Price',
	async run(context: SuiteContext): Promise<SuiteRow[]> {
		const { runAsTool } = await import('../harness/engine');
		const { LETTER, makePdf } = await import('../harness/sends');
		const sandbox = await context.sandbox({ token: TOKEN });
		const credentials = { postalServiceApi: { baseUrl: sandbox.baseUrl, securityToken: TOKEN } };
		const pdf = await makePdf(1);
		let runs = 0;
		let bad = 0;
		let created = 0;
		let refusedBefore = 0;
		let toolRuns = 0;
		let toolBad = 0;

		/** Letters of these tags created without a price at most `reais` asked for them first. */
		function unpriced(tags: string[], reais: number | undefined): number {
			const log = sandbox.control.requests({ path: '/api/v2/post' });
			let count = 0;
			for (const tag of tags) {
				const posts = log.filter((r) => r.fields.tag === tag);
				const send = posts.findIndex((r) => (r.fields.test ?? '0') !== '1' && r.status === 200);
				if (send === -1) continue;
				created++;
				const price = Number(sandbox.control.orders().find((o) => o.tag === tag)?.value ?? Number.NaN);
				const pricedFirst = posts.slice(0, send).some((r) => r.fields.test === '1' && r.status === 200);
				if (reais === undefined || !pricedFirst || !(price <= reais)) count++;
			}
			return count;
		}

		for (const value of VALUES) {
			for (const check of CHECKS) {
				for (const count of [1, 3]) {
					const cell = `${VALUES.indexOf(value)}-${check}-${count}`;
					const tags = Array.from({ length: count }, (_, i) => `cap-${cell}-${i}`);
					const before = sandbox.control.requests().length;
					await runAction({ ...LETTER, tag: '={{ $json.tag }}', additionalFields: { maxPrice: value.expression, checkWithService: check } }, {
						items: tags.map((tag) => ({ json: { tag }, binary: { data: { data: pdf, fileName: 'carta.pdf', mimeType: 'application/pdf' } } })),
						credentials,
						continueOnFail: true,
					});
					runs++;
					const found = unpriced(tags, value.reais);
					if (value.reais === undefined && sandbox.control.requests().length === before) refusedBefore++;
					if (found > 0) context.log(`${value.name}, ${check}, ${count} item(s): ${found} letter(s) sent unpriced or above the cap`);
					bad += found;
				}
			}
			// As the AI tool: the model sends the cap as text; a value it cannot send is left out.
			if (value.toolArgument === undefined) continue;
			const tag = `cap-tool-${VALUES.indexOf(value)}`;
			await runAsTool({
				type: 'n8n-nodes-postal-service.postalService',
				parameters: {
					...LETTER,
					pdfSource: 'base64',
					pdfBase64: pdf.toString('base64'),
					tag,
					additionalFields: { maxPrice: "={{ $fromAI('maximumPrice', 'The most to spend on this letter, in reais', 'string') }}" },
				} as IDataObject,
				args: { maximumPrice: value.toolArgument },
				credentials,
			});
			toolRuns++;
			const found = unpriced([tag], value.reais);
			if (found > 0) context.log(`tool, ${value.name}: a letter sent unpriced or above the cap`);
			toolBad += found;
		}
		return [
			{
				case: `${VALUES.length} values an expression gives (blank, null, missing, 30,00, R$ 30, NaN, -1, Infinity, numeric text, a number, words) × Check With the Service First (${CHECKS.join(', ')}) × 1 or 3 items`,
				runs,
				measure: 'letters created that were not priced first under a cap that reads as an amount',
				bad,
				note: `${created} letters created; ${refusedBefore} runs with no amount refused before any request`,
			},
			{
				case: 'the same values given by an AI agent to the tool ($fromAI)',
				runs: toolRuns,
				measure: 'letters created that were not priced first under a cap that reads as an amount',
				bad: toolBad,
			},
		];
	},
};
