import { getSenders, getTemplates, getTemplateVariables } from './chat';

export const loadOptions = { getSenders, getTemplates, getTemplateVariables };
