import type { ILoadOptionsFunctions, ResourceMapperFields } from 'n8n-workflow';

import { fetchTemplates, selectedId } from './chat';

/** The chosen template's variables, each required: the service refuses a message with one missing. */
export async function getTemplateVariableFields(this: ILoadOptionsFunctions): Promise<ResourceMapperFields> {
	const templateId = selectedId(this, 'templateId');
	if (!templateId) {
		return { fields: [], emptyFieldsNotice: 'Choose the template from the list to map its variables' };
	}
	const template = (await fetchTemplates(this)).find((t) => String(t.id) === templateId);
	const names = Array.isArray(template?.variable_names) ? (template.variable_names as string[]) : [];
	if (!template) return { fields: [], emptyFieldsNotice: `No template with ID ${templateId}` };
	return {
		fields: names.map((name) => ({
			id: name,
			displayName: name,
			required: true,
			defaultMatch: false,
			display: true,
			type: 'string',
			canBeUsedToMatch: false,
		})),
		emptyFieldsNotice: names.length === 0 ? 'This template has no variables' : undefined,
	};
}
