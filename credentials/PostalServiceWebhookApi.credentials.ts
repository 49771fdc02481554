import type { Icon, ICredentialType, INodeProperties } from 'n8n-workflow';

/**
 * The secret the service signs webhook deliveries with.
 *
 * There is no `test` request here on purpose: the secret is never sent to the service, and no
 * route of the service answers differently for a right or a wrong one, so any request would pass
 * whatever the secret is. The trigger node tests this credential instead (`testedBy`), with a
 * check that runs locally and says plainly what it can and cannot know.
 */
export class PostalServiceWebhookApi implements ICredentialType {
	name = 'postalServiceWebhookApi';

	displayName = 'Postal Service Webhook Signature API';

	icon: Icon = {
		light: 'file:../icons/postalService.svg',
		dark: 'file:../icons/postalService.dark.svg',
	};

	documentationUrl = 'https://github.com/n8n-nodes-postal-service/n8n-nodes-postal-service#trigger';

	properties: INodeProperties[] = [
		{
			displayName: 'Signing Secret',
			name: 'secret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				"The secret you set on the webhook endpoint in the service's account panel (Webhooks section). The service signs every delivery with it, and the trigger refuses deliveries it did not sign (X-Webhook-Signature).",
		},
	];
}
