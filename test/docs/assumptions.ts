/**
 * The assumptions page's tables, made from the node's and the trigger's own lists, so that a guess
 * added to the code is listed with its way around, and one removed is no longer promised.
 */
import { ASSUMPTIONS, TRIGGER_ASSUMPTIONS } from '../../scripts/check-service/assumptions';

const cell = (text: string) => text.replace(/\|/g, '\\|');

export function assumptionsSection(): string {
	const actions = ASSUMPTIONS.map(({ key, guess, wayAround }) => `| ${cell(guess)} | ${cell(wayAround)} | \`${key}\` |`);
	const trigger = TRIGGER_ASSUMPTIONS.map(({ guess, why, wayAround }) => `| ${cell(guess)}. ${cell(why)} | ${cell(wayAround)} |`);
	return [
		'### Postal Service (action node)',
		'',
		'| The node assumes | If it is wrong | Checked by `npm run check-service` as |',
		'|---|---|---|',
		...actions,
		'',
		'### Postal Service Trigger',
		'',
		'| The trigger assumes | How it stays right either way |',
		'|---|---|',
		...trigger,
	].join('\n');
}
