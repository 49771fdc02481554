import type { ICredentialsDecrypted, ICredentialTestFunctions, INodeCredentialTestResult } from 'n8n-workflow';

/** The secret never travels to the service, so nothing remote can confirm it: what can be is checked here. */
export async function signingSecretTest(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const secret = credential.data?.secret;
	if (typeof secret !== 'string' || secret === '') {
		return { status: 'Error', message: 'The signing secret is empty' };
	}
	if (secret !== secret.trim()) {
		return {
			status: 'Error',
			message:
				'The signing secret starts or ends with spaces or a line break; every signature would fail. Paste it again without them.',
		};
	}
	return {
		status: 'OK',
		message:
			'The secret is filled in. The service never sends it back, so only a delivery can confirm it: press the test button of the endpoint in the panel.',
	};
}
