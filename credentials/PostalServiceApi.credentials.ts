import type {
	IAuthenticateGeneric,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

import { baseUrlProperty, testBaseUrl } from './baseUrl';
import { serviceAnswerRules } from './serviceAnswerRules';

export class PostalServiceApi implements ICredentialType {
	name = 'postalServiceApi';

	displayName = 'Postal Service API';

	icon: Icon = {
		light: 'file:../icons/postalService.svg',
		dark: 'file:../icons/postalService.dark.svg',
	};

	documentationUrl = 'https://github.com/n8n-nodes-postal-service/n8n-nodes-postal-service#credentials';

	properties: INodeProperties[] = [
		baseUrlProperty,
		{
			displayName: 'Security Token',
			name: 'securityToken',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				"Your personal security token: in the service's account panel, open API access and copy it. It gives full access to your orders and credits, so keep it secret.",
		},
	];

	// For an HTTP Request node with this credential: every route that takes the token outside the path (create, update,
	// favorites, logo, receipts) accepts the userSecurityToken query parameter; the node itself places the token per route.
	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			qs: {
				userSecurityToken: '={{$credentials.securityToken}}',
			},
		},
	};

	test: ICredentialTestRequest = {
		request: {
			baseURL: testBaseUrl,
			url: '=/api/v2/balance/{{encodeURIComponent($credentials.securityToken)}}',
			method: 'GET',
			// The test sends the token too: it must not follow a redirect to another address.
			disableFollowRedirect: true,
		},
		// Any page answers 200; only the service answers with its envelope (status_message and data).
		rules: serviceAnswerRules('"Security Token"'),
	};
}
