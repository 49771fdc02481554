import { searchSenders, searchTemplates } from './listSearch';
import { getTemplateVariableFields } from './resourceMapping';

export const listSearch = { searchSenders, searchTemplates };
export const resourceMapping = { getTemplateVariableFields };
