import type {
	IAuthenticateGeneric,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

import { baseUrlProperty, testBaseUrl } from './baseUrl';
import { serviceAnswerRules } from './serviceAnswerRules';

export class PostalServiceChatApi implements ICredentialType {
	name = 'postalServiceChatApi';

	displayName = 'Postal Service Chat API';

	icon: Icon = {
		light: 'file:../icons/postalService.svg',
		dark: 'file:../icons/postalService.dark.svg',
	};

	documentationUrl = 'https://github.com/n8n-nodes-postal-service/n8n-nodes-postal-service#credentials';

	properties: INodeProperties[] = [
		baseUrlProperty,
		{
			displayName: 'Account E-Mail',
			name: 'email',
			type: 'string',
			placeholder: 'name@email.com',
			default: '',
			required: true,
			description: 'The e-mail address you sign in to the service with; the chat routes use it as the user name',
		},
		{
			displayName: 'Security Token',
			name: 'securityToken',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				"Your personal security token: in the service's account panel, open API access and copy it. The chat routes use it as the password with the account e-mail.",
		},
	];

	// The chat routes take HTTP Basic with the account e-mail and the token.
	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			auth: {
				username: '={{$credentials.email}}',
				password: '={{$credentials.securityToken}}',
			},
		},
	};

	test: ICredentialTestRequest = {
		request: {
			baseURL: testBaseUrl,
			url: '/api/chat/v1/senders/get',
			method: 'GET',
			// The test sends the token too: it must not follow a redirect to another address.
			disableFollowRedirect: true,
		},
		// Any page answers 200; only the service answers with its envelope (status_message and data).
		rules: serviceAnswerRules('"Account E-Mail" and "Security Token"'),
	};
}
