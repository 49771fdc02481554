import type { IAuthenticateRuleResponseSuccessBody } from 'n8n-workflow';

/**
 * What a credential test of the account and chat credentials requires of a 200 answer, so that a
 * web page, another API or an empty envelope at the base URL does not pass as the service.
 */
export const SERVICE_ANSWER_RULES: IAuthenticateRuleResponseSuccessBody[] = [
	{
		type: 'responseSuccessBody',
		properties: {
			key: 'status_message',
			value: undefined,
			message:
				'The base URL answered, but not as the service does (its answer has no status_message). Check that the base URL is the API address of the service (production or homolog), not its panel or another site.',
		},
	},
	{
		type: 'responseSuccessBody',
		properties: {
			key: 'data',
			value: null,
			message: 'The service answered without data. Check the security token and that the base URL is the environment it belongs to.',
		},
	},
];
