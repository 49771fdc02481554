import type { IAuthenticateRuleResponseCode, IAuthenticateRuleResponseSuccessBody, ICredentialTestRequest } from 'n8n-workflow';

/**
 * What a credential's Test says, by what came back, naming the field to check: n8n would otherwise
 * show a bare "Unauthorized" or "Not Found", and take any page that answers 200 for the service.
 * `token` names the credential's fields the service refuses together (the chat one adds the e-mail).
 */
export function serviceAnswerRules(token: string): ICredentialTestRequest['rules'] {
	const code = (value: number, message: string): IAuthenticateRuleResponseCode => ({ type: 'responseCode', properties: { value, message } });
	const redirect = (value: number) =>
		code(value, `"Base URL" answered with a redirect (HTTP ${value}), which the test does not follow. Use the API address itself, as the service's API documentation or its support gives it, with https://.`);
	const rules: Array<IAuthenticateRuleResponseCode | IAuthenticateRuleResponseSuccessBody> = [
		code(401, `The service refused the credentials (HTTP 401). Check ${token}, and that "Base URL" is the environment they belong to: production and the test environment (homolog) have tokens of their own.`),
		code(403, `The service knows these credentials but does not allow this account to read (HTTP 403). Check the account's plan and API access in its panel.`),
		code(404, `"Base URL" has no such route (HTTP 404). Check that it is the service's API address, not its panel or website.`),
		code(429, `The service refuses requests after repeated failed sign-ins (HTTP 429). Check ${token}, wait a few minutes, then test again.`),
		code(503, 'The service is in a maintenance window (HTTP 503). Test again later.'),
		...[301, 302, 303, 307, 308].map(redirect),
		{
			type: 'responseSuccessBody',
			properties: {
				key: 'status_message',
				value: undefined,
				message:
					'"Base URL" answered, but not as the service does (its answer has no status_message). Check that "Base URL" is the API address of the service (production or homolog), not its panel or another site.',
			},
		},
		{
			type: 'responseSuccessBody',
			properties: {
				key: 'data',
				value: null,
				message: `The service answered without data. Check ${token}, and that "Base URL" is the environment they belong to.`,
			},
		},
	];
	// n8n's type wants one kind of rule per list; its credential tester (1.85.4 and 2.41.1) reads each rule by its type.
	return rules as ICredentialTestRequest['rules'];
}
