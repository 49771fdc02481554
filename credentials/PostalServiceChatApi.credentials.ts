import type {
	IAuthenticateGeneric,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

import { SERVICE_ANSWER_RULES } from './serviceAnswerRules';

export class PostalServiceChatApi implements ICredentialType {
	name = 'postalServiceChatApi';

	displayName = 'Postal Service Chat API';

	icon: Icon = {
		light: 'file:../icons/postalService.svg',
		dark: 'file:../icons/postalService.dark.svg',
	};

	documentationUrl = 'https://github.com/n8n-nodes-postal-service/n8n-nodes-postal-service#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://api.example.com',
			description: 'Address of the service: production, or the test (homolog) environment you were given by support',
			hint: 'With the test environment address, chat messages are still delivered for real, but only to numbers on its allow-list',
		},
		{
			displayName: 'Account Email',
			name: 'email',
			type: 'string',
			placeholder: 'name@email.com',
			default: '',
			required: true,
			description: 'E-mail of the account: the user name of the chat routes',
		},
		{
			displayName: 'Security Token',
			name: 'securityToken',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				'Your personal securityToken, from the account panel under API access: the password of the chat routes',
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
			baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}',
			url: '/api/chat/v1/senders/get',
			method: 'GET',
			// The test sends the token too: it must not follow a redirect to another address.
			disableFollowRedirect: true,
		},
		// Any page answers 200; only the service answers with its envelope (status_message and data).
		rules: SERVICE_ANSWER_RULES,
	};
}
