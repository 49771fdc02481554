import type { INode } from 'n8n-workflow';

/**
 * Node settings under which n8n itself would run the workflow for a delivery the trigger stops:
 * "Always Output Data" hands on an empty item, and "On Error: Continue" hands on the delivery
 * when the trigger stops it with an error. Null when the node has none of them.
 */
export function settingsThatRunDuplicates(node: INode): string | null {
	const found: string[] = [];
	if (node.alwaysOutputData) found.push('"Always Output Data"');
	if (node.continueOnFail || node.onError === 'continueRegularOutput' || node.onError === 'continueErrorOutput') {
		found.push('"On Error: Continue"');
	}
	if (found.length === 0) return null;
	return `${found.join(' and ')} would run the rest of the workflow for deliveries the trigger stops (duplicates, or a delivery it could not record). Turn ${found.length > 1 ? 'them' : 'it'} off in the trigger's settings.`;
}
