import type { INodeProperties } from 'n8n-workflow';

/** The service's address, alike in both credentials that call it: production and the test environment have their own. */
export const baseUrlProperty: INodeProperties = {
	displayName: 'Base URL',
	name: 'baseUrl',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'https://api.example.com',
	description:
		"The service's API address. Production (real mail, real credits): the address in the service's API documentation. Test environment (homolog): the address its support gives when they grant test access. Each has its own security token. Letter > Get Price is safe against production: it creates and spends nothing.",
};

/** The Base URL as a credential's Test calls it: without spaces or a closing slash, as the node does. */
export const testBaseUrl = '={{$credentials.baseUrl.trim().replace(/\\/+$/, "")}}';
