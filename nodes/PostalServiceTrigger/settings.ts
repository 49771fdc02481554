import type { INode } from 'n8n-workflow';

/** Settings under which n8n would run the workflow for a delivery the trigger stops (an empty item, or the delivery on error); null when none. */
export function settingsThatRunDuplicates(node: INode): string | null {
	const found: string[] = [];
	if (node.alwaysOutputData) found.push('"Always Output Data"');
	if (node.continueOnFail || node.onError === 'continueRegularOutput' || node.onError === 'continueErrorOutput') {
		found.push('"On Error: Continue"');
	}
	if (found.length === 0) return null;
	return `${found.join(' and ')} would run the rest of the workflow for deliveries the trigger stops (duplicates, or a delivery it could not record). Turn ${found.length > 1 ? 'them' : 'it'} off in the trigger's settings.`;
}
